import DBBSQLite

/// Cuts a script into SQL chunks and dot commands the way the sqlite3 shell (3.40) reads its
/// input, so that any script the shell accepts splits the same here:
///
/// - lines end at `\n`, and a `\r` before it is dropped (CRLF scripts);
/// - a line of only spaces and comments (`--…`, `/*…*/`), met between statements, is skipped;
/// - outside a statement, a line starting (in column 1) with `.` is a dot command and one
///   starting with `#` a comment;
/// - other lines gather until the last one ends with `;` (comments after it allowed) and
///   `sqlite3_complete` says the text is complete; a line of only `/` or `go` ends a
///   statement too;
/// - a chunk that is only comments (a `/* … */` over several lines) is dropped, and an
///   unfinished chunk at the end of the script still runs (and fails as SQL).
///
/// A UTF-8 byte order mark at the start of the script is skipped.
struct ScriptSplitter {
    /// What the reader found on a line.
    enum Item {
        /// SQL text (one or more statements) that starts on `line`, as the script's bytes.
        case sql([UInt8], line: Int)
        /// A dot command line, without its line end.
        case dotCommand(ArraySlice<UInt8>, line: Int)
    }

    /// Whether to go on reading after an item: `.exit` stops a script.
    enum Next { case proceed, stop }

    /// Hands each item of `script` to `body`, in order, until `body` says stop.
    static func forEachItem(in script: [UInt8], _ body: (Item) throws -> Next) throws {
        var start = script.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var state = QuickScan.start
        var pending: [UInt8] = []
        var pendingLine = 0
        var number = 0
        while start < script.count {
            var end = script[start...].firstIndex(of: UInt8(ascii: "\n")) ?? script.count
            let next = end + 1
            if end > start, script[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            // The shell reads lines as C strings: a NUL byte ends the line.
            if let nul = script[start..<end].firstIndex(of: 0) { end = nul }
            var line = script[start..<end]
            start = next
            number += 1

            if state.isPlain, isCommandTerminator(line), isComplete(pending + [UInt8(ascii: ";")]) {
                line = [UInt8(ascii: ";")][...]
            }
            state.scan(line)
            if state.isPlainWhite && pending.isEmpty {
                state = .start
                continue
            }
            if pending.isEmpty, let first = line.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "#") {
                if first == UInt8(ascii: "."),
                    try body(.dotCommand(line, line: number)) == .stop
                {
                    return
                }
                state = .start
                continue
            }
            if pending.isEmpty {
                pending.append(contentsOf: line.drop(while: QuickScan.isSpace))
                pendingLine = number
            } else {
                pending.append(UInt8(ascii: "\n"))
                pending.append(contentsOf: line)
            }
            if !pending.isEmpty && state.isSemicolonTerminated && isComplete(pending) {
                let text = pending
                pending.removeAll(keepingCapacity: true)
                state = .start
                if try body(.sql(text, line: pendingLine)) == .stop { return }
            } else if !pending.isEmpty && state.isPlainWhite {
                pending.removeAll(keepingCapacity: true)
                state = .start
            }
        }
        if !pending.isEmpty {
            _ = try body(.sql(pending, line: pendingLine))
        }
    }

    /// `sqlite3_complete` of the bytes.
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        SQLiteConnection.isComplete(String(decoding: bytes, as: UTF8.self))
    }

    /// A line of only `/` (Oracle's habit) or `go` (SQL Server's), spaces around allowed.
    private static func isCommandTerminator(_ line: ArraySlice<UInt8>) -> Bool {
        var rest = line.drop(while: QuickScan.isSpace)
        if rest.first == UInt8(ascii: "/") {
            rest = rest.dropFirst()
        } else if rest.count >= 2, rest.first! | 0x20 == UInt8(ascii: "g"),
            rest.dropFirst().first! | 0x20 == UInt8(ascii: "o")
        {
            rest = rest.dropFirst(2)
        } else {
            return false
        }
        var state = QuickScan.start
        state.scan(rest)
        return state == .start
    }
}

/// The shell's quick look at a line: whether it is inside a quote or comment, whether it has
/// seen anything but spaces and comments, and whether its last such thing was a `;`.
struct QuickScan: Equatable {
    /// The byte that closes the open quote or comment (`*` for `/* */`), 0 when none is open.
    var closing: UInt8 = 0
    /// Something other than spaces, comments and `;` was seen.
    var hasText = false
    /// The last thing other than spaces and comments was a `;`.
    var endsWithSemicolon = false

    static let start = QuickScan()

    var isPlain: Bool { closing == 0 }
    var isPlainWhite: Bool { closing == 0 && !hasText }
    var isSemicolonTerminated: Bool { closing == 0 && endsWithSemicolon }

    /// C's `isspace` in the C locale (kept with ``DotCommand``, which the build plugin shares).
    static func isSpace(_ byte: UInt8) -> Bool { DotCommand.isSpace(byte) }

    /// Scans one line (which holds no `\n`), carrying the state over from the lines before.
    mutating func scan(_ line: ArraySlice<UInt8>) {
        var index = line.startIndex
        let end = line.endIndex
        func peek() -> UInt8? { index < end ? line[index] : nil }
        while index < end {
            let byte = line[index]
            index += 1
            if closing != 0 {
                guard byte == closing else { continue }
                switch closing {
                case UInt8(ascii: "*"):
                    if peek() == UInt8(ascii: "/") {
                        index += 1
                        closing = 0
                    }
                case UInt8(ascii: "]"):
                    closing = 0
                default:  // a quote: doubled, it stays open
                    if peek() == closing { index += 1 } else { closing = 0 }
                }
                continue
            }
            if Self.isSpace(byte) { continue }
            switch byte {
            case UInt8(ascii: "-") where peek() == UInt8(ascii: "-"):
                return  // a comment to the end of the line
            case UInt8(ascii: ";"):
                endsWithSemicolon = true
                continue
            case UInt8(ascii: "/") where peek() == UInt8(ascii: "*"):
                index += 1
                closing = UInt8(ascii: "*")
                continue
            case UInt8(ascii: "["), UInt8(ascii: "`"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                closing = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                hasText = true
                endsWithSemicolon = false
                continue
            default:
                break
            }
            hasText = true
            endsWithSemicolon = false
        }
    }
}
