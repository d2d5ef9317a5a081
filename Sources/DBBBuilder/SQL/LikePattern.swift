/// A typed `LIKE` pattern (`%` any text, `_` one character, `\` makes the next character plain,
/// a `\` at the end is itself) in the forms the dialects bind: the one rule of
/// ``DBBDialect/like(_:_:ignoringCase:)`` on every engine.
@_spi(DBBBackend)
public enum LikePattern {
    /// The pattern as `LIKE … ESCAPE '\'` reads it: a `\` at the end doubled, and with
    /// `foldingASCII`, the letters `A`–`Z` as `a`–`z` (escaped ones too).
    public static func escaped(_ pattern: String, foldingASCII: Bool) -> String {
        var output = ""
        output.reserveCapacity(pattern.utf8.count + 1)
        var escaping = false
        for character in pattern {
            escaping = !escaping && character == "\\"
            output.append(foldingASCII ? folded(character) : character)
        }
        if escaping { output.append("\\") }
        return output
    }

    /// The pattern as SQLite's `GLOB` reads it (case-sensitive): `%` as `*`, `_` as `?`, and
    /// `*`, `?`, `[` written in brackets so that they match themselves.
    public static func glob(_ pattern: String) -> String {
        var output = ""
        output.reserveCapacity(pattern.utf8.count + 8)
        var escaping = false
        for character in pattern {
            if escaping {
                escaping = false
                output += plain(character)
                continue
            }
            switch character {
            case "\\": escaping = true
            case "%": output.append("*")
            case "_": output.append("?")
            default: output += plain(character)
            }
        }
        if escaping { output.append("\\") }
        return output
    }

    /// `character` as a `GLOB` pattern matching only itself.
    private static func plain(_ character: Character) -> String {
        switch character {
        case "*", "?", "[": "[\(character)]"
        default: String(character)
        }
    }

    /// `A`–`Z` as `a`–`z`; any other character as it is.
    private static func folded(_ character: Character) -> Character {
        guard let ascii = character.asciiValue, ascii >= 65, ascii <= 90 else { return character }
        return Character(Unicode.Scalar(ascii + 32))
    }

    /// The letters `A`–`Z` and `a`–`z`, for SQL that folds a value as ``escaped(_:foldingASCII:)``
    /// folds a pattern (`translate(value, upper, lower)`).
    public static let upperASCII = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    public static let lowerASCII = "abcdefghijklmnopqrstuvwxyz"
}
