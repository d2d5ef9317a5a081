/// One token of SQL text, as SQLite's tokenizer would split it, with its place in the text.
@_spi(DBBBackend)
public struct SQLToken {
    public enum Kind: Equatable, Sendable {
        /// A bare word: an identifier or a keyword.
        case word
        /// A quoted identifier (`"…"`, `` `…` ``, `[…]`) or a string literal (`'…'`).
        case quoted
        /// A parameter: `?`, `?1`, `:name`, `@name`, `$name`.
        case parameter
        /// A numeric literal.
        case number
        /// Spaces and comments.
        case space
        /// Any other character: an operator, a parenthesis, a comma.
        case symbol
    }

    public let kind: Kind
    public let range: Range<String.Index>
    public let text: Substring

    /// Whether the token is the keyword `keyword` (compared without case).
    public func isKeyword(_ keyword: String) -> Bool {
        kind == .word && text.uppercased() == keyword
    }

    /// The identifier a word or quoted identifier names (quotes removed, doubled quotes undone);
    /// `nil` for a string literal and other tokens.
    var identifier: String? {
        switch kind {
        case .word: return String(text)
        case .quoted:
            guard let open = text.first, open == "\"" || open == "`" || open == "[" else { return nil }
            let inner = text.dropFirst().dropLast()
            return open == "[" ? String(inner) : inner.replacingOccurrences(of: "\(open)\(open)", with: "\(open)")
        default: return nil
        }
    }
}

/// Splits SQL text into tokens. Quoted text and comments are single tokens, so nothing inside
/// a string literal is ever taken for a name or a parameter.
///
/// The dialects differ in what quotes and what is a parameter:
///
/// | | SQLite | PostgreSQL |
/// | --- | --- | --- |
/// | quoted | `'…'`, `"…"`, `` `…` ``, `[…]` | `'…'`, `"…"`, `E'…\'…'`, `$$…$$`, `$tag$…$tag$` |
/// | comments | `-- …`, `/* … */` | the same, `/* … */` nested |
/// | parameters | `?`, `?NNN`, `:name`, `@name`, `$name` | `?`, `?NNN` (the library's), `$NNN` |
///
/// On PostgreSQL `[`, `` ` ``, `:` and `@` are operators (`a[1]`, `x::text`, `@ -5`).
@_spi(DBBBackend)
public enum SQLTokenizer {
    public static func tokens(_ sql: String, syntax: SQLSyntax = .sqlite) -> [SQLToken] {
        let scalars = sql.unicodeScalars
        var tokens: [SQLToken] = []
        var index = scalars.startIndex
        func isWordStart(_ s: Unicode.Scalar) -> Bool { s == "_" || s.properties.isAlphabetic }
        func isWordPart(_ s: Unicode.Scalar) -> Bool { isWordStart(s) || ("0"..."9").contains(s) || s == "$" }
        func scan(while predicate: (Unicode.Scalar) -> Bool) {
            while index < scalars.endIndex, predicate(scalars[index]) { index = scalars.index(after: index) }
        }
        func peek(_ offset: Int = 1) -> Unicode.Scalar? {
            var position = index
            for _ in 0..<offset {
                guard position < scalars.endIndex else { return nil }
                position = scalars.index(after: position)
            }
            return position < scalars.endIndex ? scalars[position] : nil
        }
        while index < scalars.endIndex {
            let start = index
            let scalar = scalars[index]
            let kind: SQLToken.Kind
            switch scalar {
            case " ", "\t", "\n", "\r":
                scan { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                kind = .space
            case "-" where peek() == "-":
                scan { $0 != "\n" }
                kind = .space
            case "/" where peek() == "*":
                // PostgreSQL nests block comments; SQLite ends one at the first `*/`.
                index = scalars.index(index, offsetBy: 2)
                var depth = 1
                while index < scalars.endIndex {
                    if scalars[index] == "*" && peek() == "/" {
                        index = scalars.index(index, offsetBy: 2)
                        depth -= 1
                        if depth == 0 || !syntax.nestedComments { break }
                    } else if syntax.nestedComments && scalars[index] == "/" && peek() == "*" {
                        index = scalars.index(index, offsetBy: 2)
                        depth += 1
                    } else {
                        index = scalars.index(after: index)
                    }
                }
                kind = .space
            case _ where syntax.escapeStrings && (scalar == "E" || scalar == "e") && peek() == "'":
                // An escape string: a backslash escapes the next character, the quote included.
                index = scalars.index(index, offsetBy: 2)
                while index < scalars.endIndex {
                    let character = scalars[index]
                    if character == "\\" {
                        index = scalars.index(after: index)
                        if index < scalars.endIndex { index = scalars.index(after: index) }
                    } else if character == "'" {
                        index = scalars.index(after: index)
                        guard index < scalars.endIndex, scalars[index] == "'" else { break }
                        index = scalars.index(after: index)
                    } else {
                        index = scalars.index(after: index)
                    }
                }
                kind = .quoted
            case "$" where syntax.dollarQuotes:
                if let end = Self.dollarQuoteEnd(scalars, from: index) {
                    index = end
                    kind = .quoted
                } else if peek().map({ ("0"..."9").contains($0) }) == true {
                    index = scalars.index(after: index)
                    scan { ("0"..."9").contains($0) }
                    kind = .parameter
                } else {
                    index = scalars.index(after: index)
                    kind = .symbol
                }
            case _
            where !syntax.bracketQuotesAndNamedParameters
                && (scalar == "`" || scalar == "[" || scalar == ":" || scalar == "@"):
                index = scalars.index(after: index)
                kind = .symbol
            case "?" where !syntax.bracketQuotesAndNamedParameters:
                index = scalars.index(after: index)
                scan { ("0"..."9").contains($0) }
                kind = .parameter
            case "'", "\"", "`", "[":
                // Through the closing character; a doubled quote stands for one (not in [ ]).
                let close: Unicode.Scalar = scalar == "[" ? "]" : scalar
                index = scalars.index(after: index)
                while index < scalars.endIndex {
                    if scalars[index] == close {
                        if close != "]", peek() == close {
                            index = scalars.index(index, offsetBy: 2)
                            continue
                        }
                        index = scalars.index(after: index)
                        break
                    }
                    index = scalars.index(after: index)
                }
                kind = .quoted
            case "?", ":", "@", "$":
                index = scalars.index(after: index)
                scan(while: isWordPart)
                kind = .parameter
            case _
            where ("0"..."9").contains(scalar) || (scalar == "." && peek().map { ("0"..."9").contains($0) } == true):
                scan { isWordPart($0) || $0 == "." }
                kind = .number
            case _ where isWordStart(scalar):
                scan(while: isWordPart)
                kind = .word
            default:
                index = scalars.index(after: index)
                kind = .symbol
            }
            tokens.append(SQLToken(kind: kind, range: start..<index, text: sql[start..<index]))
        }
        return tokens
    }

    /// Where the dollar-quoted string that opens at `start` (`$$` or `$tag$`, a tag being a
    /// word that does not start with a digit) ends: after its closing tag, or at the end of
    /// the text when it is not closed. `nil` when no dollar quote opens there.
    private static func dollarQuoteEnd(_ scalars: String.UnicodeScalarView, from start: String.Index) -> String.Index? {
        var index = scalars.index(after: start)
        var tag = "$"
        while index < scalars.endIndex, scalars[index] != "$" {
            let character = scalars[index]
            let allowed =
                character == "_" || character.properties.isAlphabetic
                || (tag.count > 1 && ("0"..."9").contains(character))
            guard allowed else { return nil }
            tag.unicodeScalars.append(character)
            index = scalars.index(after: index)
        }
        guard index < scalars.endIndex else { return nil }
        tag += "$"
        index = scalars.index(after: index)
        let closing = Array(tag.unicodeScalars)
        while index < scalars.endIndex {
            if scalars[index] == "$", scalars[index...].starts(with: closing) {
                return scalars.index(index, offsetBy: closing.count)
            }
            index = scalars.index(after: index)
        }
        return scalars.endIndex
    }
}

/// What an engine's SQL text quotes, comments and takes as a parameter: the rules
/// ``SQLTokenizer`` splits it by (see the table there).
@_spi(DBBBackend)
public struct SQLSyntax: Sendable {
    /// Block comments nest: `/* a /* b */ c */` is one comment.
    public var nestedComments: Bool
    /// `E'…'` strings, in which a backslash escapes the next character.
    public var escapeStrings: Bool
    /// `$$…$$` and `$tag$…$tag$` strings, and `$1` parameters.
    public var dollarQuotes: Bool
    /// `` `…` `` and `[…]` quote identifiers, and `:name`, `@name`, `$name` are parameters;
    /// otherwise those characters are operators, and a parameter is `?` or `?NNN`.
    public var bracketQuotesAndNamedParameters: Bool

    /// SQLite's rules.
    public static let sqlite = SQLSyntax(
        nestedComments: false, escapeStrings: false, dollarQuotes: false, bracketQuotesAndNamedParameters: true)
    /// PostgreSQL's rules.
    public static let postgresql = SQLSyntax(
        nestedComments: true, escapeStrings: true, dollarQuotes: true, bracketQuotesAndNamedParameters: false)
}
