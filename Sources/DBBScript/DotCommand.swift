import Foundation

// This file depends on nothing but Foundation: DBBBuildPlugin compiles it too (through a
// symbolic link), to find the files a script reads without a second parser.

/// A dot command line of a build script, read as the sqlite3 shell reads it.
struct DotCommand {
    /// The dot commands a build script may use. The others of the shell are refused by name.
    enum Name: String, CaseIterable {
        case bail, changes, echo, exit, headers, `import`, mode, nullvalue, print, quit, read, schema
        case separator, tables, timer

        /// The shortest abbreviation the sqlite3 shell (3.40) takes for the command: `.i` is
        /// `.import`, `.se` `.separator`, but `.s` is another command there.
        var shortestPrefix: Int {
            switch self {
            case .echo, .headers, .import, .mode, .nullvalue, .quit, .tables: 1
            case .exit, .separator: 2
            case .bail, .changes, .print, .read, .schema: 3
            case .timer: 5
            }
        }

        /// The command `word` (without its dot) names, as the shell matches it: a prefix, case
        /// sensitive, at least ``shortestPrefix`` long.
        init?(abbreviation word: String) {
            guard
                let name = Name.allCases.first(where: { $0.rawValue.hasPrefix(word) && word.count >= $0.shortestPrefix }
                )
            else { return nil }
            self = name
        }
    }

    /// The first word as written (`"imp"` for `.imp`), and the command it names.
    let word: String
    let name: Name?
    /// The words after the first.
    let arguments: [String]

    /// Splits `line` (which starts with the dot) into words.
    init(_ line: ArraySlice<UInt8>) {
        var words = DotCommand.words(Array(line.dropFirst()))
        word = words.isEmpty ? "" : words.removeFirst()
        name = Name(abbreviation: word)
        arguments = words
    }

    /// The words of a dot command, split as the shell splits them: on spaces; a word that
    /// starts with `'` runs to the next `'` as it is, one that starts with `"` to the next
    /// unescaped `"`; backslash escapes are resolved in `"…"` and in unquoted words.
    static func words(_ bytes: [UInt8]) -> [String] {
        var words: [String] = []
        var index = 0
        while index < bytes.count {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            let delimiter = bytes[index]
            if delimiter == UInt8(ascii: "'") || delimiter == UInt8(ascii: "\"") {
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != delimiter {
                    if bytes[index] == UInt8(ascii: "\\"), delimiter == UInt8(ascii: "\""), index + 1 < bytes.count {
                        index += 1
                    }
                    index += 1
                }
                let word = bytes[start..<index]
                if index < bytes.count { index += 1 }  // the closing quote
                words.append(
                    delimiter == UInt8(ascii: "\"") ? resolvingBackslashes(word) : String(decoding: word, as: UTF8.self)
                )
            } else {
                let start = index
                while index < bytes.count, !Self.isSpace(bytes[index]) { index += 1 }
                words.append(resolvingBackslashes(bytes[start..<index]))
            }
        }
        return words
    }

    /// C escapes: `\a \b \t \n \v \f \r`, `\NNN` in octal, and `\x` for any other x.
    static func resolvingBackslashes(_ bytes: ArraySlice<UInt8>) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\\"), index < bytes.endIndex {
                byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "a"): byte = 7
                case UInt8(ascii: "b"): byte = 8
                case UInt8(ascii: "t"): byte = 9
                case UInt8(ascii: "n"): byte = 10
                case UInt8(ascii: "v"): byte = 11
                case UInt8(ascii: "f"): byte = 12
                case UInt8(ascii: "r"): byte = 13
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var value = Int(byte - UInt8(ascii: "0"))
                    for _ in 0..<2 {
                        guard index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index])
                        else { break }
                        value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                        index += 1
                    }
                    byte = UInt8(truncatingIfNeeded: value)
                default: break
                }
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension DotCommand {
    /// The bytes the shell takes for spaces between words: C's `isspace` in the C locale.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// The file the command reads, as written: `.import`'s FILE (the first word that is not an
    /// option or an option's value) or `.read`'s FILE; `nil` for other commands and for
    /// `|command` sources.
    var fileOperand: String? {
        let operand: String?
        switch name {
        case .read:
            operand = arguments.first
        case .import:
            var index = 0
            var found: String?
            while index < arguments.count, found == nil {
                let word = arguments[index].hasPrefix("--") ? String(arguments[index].dropFirst()) : arguments[index]
                if word == "-skip" || word == "-schema" {
                    index += 2
                } else if word.hasPrefix("-") && word.count > 1 {
                    index += 1
                } else {
                    found = arguments[index]
                }
            }
            operand = found
        default:
            operand = nil
        }
        guard let operand, !operand.isEmpty, !operand.hasPrefix("|") else { return nil }
        return operand
    }

    /// The files building `script` reads: the script, the files its `.import` commands import
    /// and the scripts its `.read` commands run (and what those read), each once, as far as
    /// they exist. Names are relative to the folder of the script that names them. Every line
    /// that starts with a dot counts, even one inside a statement spanning lines: the list may
    /// hold more than the build reads, never less.
    static func filesRead(by script: URL) -> [URL] {
        var found: [URL] = []
        var seen: Set<String> = []
        var pending = [script]
        while let next = pending.popLast() {
            let path = next.standardizedFileURL.path
            guard !seen.contains(path), let data = FileManager.default.contents(atPath: path) else { continue }
            seen.insert(path)
            found.append(URL(fileURLWithPath: path))
            let folder = next.deletingLastPathComponent()
            // A UTF-8 byte-order mark before the first line is skipped, as the build skips it.
            let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
            for line in text.split(separator: UInt8(ascii: "\n")) where line.first == UInt8(ascii: ".") {
                var bytes = Array(line)
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                let command = DotCommand(bytes[...])
                guard let operand = command.fileOperand else { continue }
                let file =
                    operand.hasPrefix("/") ? URL(fileURLWithPath: operand) : folder.appendingPathComponent(operand)
                if command.name == .read {
                    pending.append(file)
                } else if !seen.contains(file.standardizedFileURL.path),
                    FileManager.default.fileExists(atPath: file.path)
                {
                    seen.insert(file.standardizedFileURL.path)
                    found.append(file.standardizedFileURL)
                }
            }
        }
        return found
    }
}
