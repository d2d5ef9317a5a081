/// An `h1Format` or `h2Format` of `ObjcGetYearAndHalfYearUsingLocale`, read once. ESLocale
/// passed it to Objective-C's `stringWithFormat:` with the year as the one argument; this
/// gives what that gave for the sequences it defined, and keeps the rest as written:
///
/// - `%@` is the year, wherever it occurs: `H1 '%@` → `H1 '11`;
/// - `%%` is one `%`: `%@ 50%%` → `2011 50%`;
/// - any other `%` — `%d`, `%1$@`, a lone `%` at the end — stays as written (in Objective-C
///   those read an argument of the wrong type or none, with no defined result).
struct HalfYearFormat: Sendable {
    /// The text around the years: `H1 '%@` is `["H1 '", ""]`.
    let pieces: [String]

    init(_ format: String) {
        var pieces: [String] = []
        var piece: [UInt8] = []
        var bytes = format.utf8.makeIterator()
        var pending = bytes.next()
        while let byte = pending {
            pending = bytes.next()
            guard byte == UInt8(ascii: "%"), let next = pending else {
                piece.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "@"):
                pieces.append(String(decoding: piece, as: UTF8.self))
                piece.removeAll()
                pending = bytes.next()
            case UInt8(ascii: "%"):
                piece.append(byte)  // so `%%@` is the text `%@`
                pending = bytes.next()
            default:
                piece.append(byte)  // the next byte is read on its own
            }
        }
        pieces.append(String(decoding: piece, as: UTF8.self))
        self.pieces = pieces
    }

    /// The label for a year written `year`.
    func text(year: String) -> String {
        pieces.count == 1 ? pieces[0] : pieces.joined(separator: year)
    }
}
