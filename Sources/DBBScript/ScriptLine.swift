import Foundation

/// The words of a dot command, split as sqlite3 splits them: on spaces, with '…' and "…"
/// quoting, and C escapes (`\t`, `\n`, `\r`, `\\`, `\"`, `\'`) inside double quotes and in
/// unquoted words.
enum DotCommandWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"", let next = iterator.next() {
                    current.append(unescape(next))
                } else {
                    current.append(character)
                }
            } else if character == " " || character == "\t" {
                if inWord { words.append(current); current = ""; inWord = false }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == "\\", let next = iterator.next() {
                current.append(unescape(next))
                inWord = true
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    private static func unescape(_ character: Character) -> Character {
        switch character {
        case "t": "\t"
        case "n": "\n"
        case "r": "\r"
        default: character
        }
    }
}
