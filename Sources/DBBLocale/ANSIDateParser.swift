/// Parses the date text SQLite applications store, straight from UTF-8 bytes:
///
/// - `yyyy-MM-dd`
/// - `yyyy-MM-dd HH:mm`, `yyyy-MM-dd HH:mm:ss`, `yyyy-MM-dd HH:mm:ss.SSS` (any number of fraction digits)
/// - the same with `T` instead of the space, and ending in `Z`, `±HH:mm`, `±HHmm` or `±HH`
///
/// Spaces around the text are ignored. An offset moves the instant to UTC, so
/// `2011-01-01T23:30:00-02:00` is 2011-01-02 in UTC. Anything else, or fields out of range
/// (month 13, February 30th, 24:00), does not parse.
enum ANSIDateParser {
    /// The fields of a parsed date, as written.
    struct Fields {
        var year: Int
        var month: Int
        var day: Int
        /// Seconds since the start of the day, fraction included.
        var secondsOfDay: Double = 0
        /// The written offset from UTC in seconds (east positive); 0 for none or `Z`.
        var offsetSeconds: Int = 0
    }

    /// The fields of `text`, or `nil` when it is not one of the accepted forms.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Fields? {
        var scanner = Scanner(text)
        scanner.skipSpaces()
        guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2),
            year >= 1, DBBDay(year: year, month: month, day: day) != nil
        else { return nil }

        var fields = Fields(year: year, month: month, day: day)
        if scanner.startsTime() {
            guard let hour = scanner.number(digits: 2), hour < 24, scanner.take(UInt8(ascii: ":")),
                let minute = scanner.number(digits: 2), minute < 60
            else { return nil }
            fields.secondsOfDay = Double(hour * 3600 + minute * 60)
            if scanner.take(UInt8(ascii: ":")) {
                guard let second = scanner.number(digits: 2), second < 60 else { return nil }
                fields.secondsOfDay += Double(second)
                if scanner.take(UInt8(ascii: ".")) {
                    guard let fraction = scanner.fraction() else { return nil }
                    fields.secondsOfDay += fraction
                }
            }
            if scanner.take(UInt8(ascii: "Z")) {
                // UTC already
            } else if let sign = scanner.sign() {
                guard let offsetHours = scanner.number(digits: 2), offsetHours <= 14 else { return nil }
                var offsetMinutes = 0
                let colon = scanner.take(UInt8(ascii: ":"))
                if let minutes = scanner.number(digits: 2) {
                    guard minutes < 60 else { return nil }
                    offsetMinutes = minutes
                } else if colon {
                    return nil
                }
                fields.offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
        }
        scanner.skipSpaces()
        return scanner.atEnd ? fields : nil
    }

    private struct Scanner {
        let text: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ text: UnsafeBufferPointer<UInt8>) { self.text = text }

        var atEnd: Bool { position == text.count }

        mutating func skipSpaces() {
            while position < text.count, text[position] == 0x20 || (0x09...0x0D).contains(text[position]) {
                position += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < text.count, text[position] == byte else { return false }
            position += 1
            return true
        }

        /// Takes the space or `T` that separates a time, when a digit follows it (a trailing
        /// space is not a separator).
        mutating func startsTime() -> Bool {
            guard position + 1 < text.count,
                text[position] == UInt8(ascii: " ") || text[position] == UInt8(ascii: "T"),
                (0x30...0x39).contains(text[position + 1])
            else { return false }
            position += 1
            return true
        }

        mutating func sign() -> Int? {
            if take(UInt8(ascii: "+")) { return 1 }
            if take(UInt8(ascii: "-")) { return -1 }
            return nil
        }

        /// Exactly `digits` ASCII digits.
        mutating func number(digits: Int) -> Int? {
            guard position + digits <= text.count else { return nil }
            var value = 0
            for offset in 0..<digits {
                let byte = text[position + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += digits
            return value
        }

        /// One or more digits after a decimal point, as a fraction of a second.
        mutating func fraction() -> Double? {
            var value = 0.0
            var scale = 1.0
            let start = position
            while position < text.count, text[position] >= 0x30, text[position] <= 0x39 {
                if scale > 1e-9 {  // further digits cannot change a Double of seconds
                    scale /= 10
                    value += Double(text[position] - 0x30) * scale
                }
                position += 1
            }
            return position > start ? value : nil
        }
    }
}
