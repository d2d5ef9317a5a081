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
            while index < bytes.count, QuickScan.isSpace(bytes[index]) { index += 1 }
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
                while index < bytes.count, !QuickScan.isSpace(bytes[index]) { index += 1 }
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
