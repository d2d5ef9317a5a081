/// A TR35 date pattern (`'YYYY-ww'`, `yyyy-MM-dd`, `'Q'Q yyyy`), compiled once.
///
/// Patterns made only of numeric year, week, month, day and quarter fields and literal text
/// are written directly from a ``DBBDay``; any other field (`MMM`, `EEEE`, `HH`…) needs
/// `DateFormatter` (``isFast`` is false).
struct DatePattern: Sendable {
    enum Field: Sendable {
        case weekYear, year, week, month, day, quarter
    }

    /// A field, or a run of literal bytes in ``literals``: plain values, cheap to walk per row.
    struct Token: Sendable {
        /// The field, `nil` for literal text.
        let field: Field?
        /// The pattern letter count of a field.
        let width: Int
        /// The literal bytes: `literals[start ..< start + count]`.
        let start: Int
        let count: Int
    }

    /// The pattern as given.
    let text: String
    /// The tokens, or `nil` when the pattern needs `DateFormatter`.
    let tokens: [Token]?
    /// The bytes of every literal run, one after the other.
    let literals: [UInt8]

    var isFast: Bool { tokens != nil }

    init(_ text: String) {
        self.text = text
        if let (tokens, literals) = DatePattern.compile(Array(text.utf8)) {
            self.tokens = tokens
            self.literals = literals
        } else {
            self.tokens = nil
            self.literals = []
        }
    }

    /// The widths the fast path writes exactly as ICU does for years 1600...9999 (a week-year
    /// may be 10000: `Y` writes all its digits, `YY` the last two, as ICU does).
    private static func fastField(_ letter: UInt8, count: Int) -> Field? {
        switch (letter, count) {
        case (UInt8(ascii: "Y"), 1...4): .weekYear
        case (UInt8(ascii: "y"), 1...4): .year
        case (UInt8(ascii: "w"), 1...2): .week
        case (UInt8(ascii: "M"), 1...2): .month
        case (UInt8(ascii: "d"), 1...2): .day
        case (UInt8(ascii: "Q"), 1...2): .quarter
        default: nil
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func compile(_ bytes: [UInt8]) -> ([Token], [UInt8])? {
        var tokens: [Token] = []
        var literals: [UInt8] = []
        var literal: [UInt8] = []
        func flushLiteral() {
            guard !literal.isEmpty else { return }
            tokens.append(Token(field: nil, width: 0, start: literals.count, count: literal.count))
            literals += literal
            literal.removeAll()
        }
        var index = 0
        let quote = UInt8(ascii: "'")
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                // '' is a quote; 'text' is literal text in which '' is a quote.
                if index + 1 < bytes.count, bytes[index + 1] == quote {
                    literal.append(quote)
                    index += 2
                    continue
                }
                index += 1
                var closed = false
                while index < bytes.count {
                    if bytes[index] == quote {
                        if index + 1 < bytes.count, bytes[index + 1] == quote {
                            literal.append(quote)
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    literal.append(bytes[index])
                    index += 1
                }
                if !closed { return nil }  // leave unbalanced quotes to DateFormatter
            } else if isLetter(byte) {
                var count = 1
                while index + count < bytes.count, bytes[index + count] == byte { count += 1 }
                guard let field = fastField(byte, count: count) else { return nil }
                flushLiteral()
                tokens.append(Token(field: field, width: count, start: 0, count: 0))
                index += count
            } else {
                literal.append(byte)
                index += 1
            }
        }
        flushLiteral()
        return (tokens, literals)
    }

    /// The digits of the largest week-year of a day in ``ResolvedDate/fastYears``: 10000, the
    /// week-year of 9999-12-31 wherever week 1 of the next year takes it (en_US).
    static let maximumYearDigits = 5

    /// The pattern applied to `day`, numbers written with `digits`. `nil` when the pattern is
    /// not fast or `day` lies outside ``ResolvedDate/fastYears``.
    func format(_ day: DBBDay, calendar: DBBLocaleCalendar, digits: LocaleDigits) -> String? {
        guard let tokens else { return nil }
        let (year, month, dayOfMonth) = day.fields
        guard ResolvedDate.fastYears.contains(year) else { return nil }
        var weekFields: (year: Int, week: Int)?
        var fits = true
        let text = literals.withUnsafeBufferPointer { literals in
            String(unsafeUninitializedCapacity: capacity(digits)) { buffer in
                var count = 0
                for token in tokens {
                    guard let field = token.field else {
                        for byte in literals[token.start..<token.start + token.count] {
                            buffer[count] = byte
                            count += 1
                        }
                        continue
                    }
                    var value: Int
                    switch field {
                    case .weekYear, .week:
                        let week = weekFields ?? calendar.weekFields(day, year: year)
                        weekFields = week
                        value = field == .week ? week.week : week.year
                    case .year: value = year
                    case .month: value = month
                    case .day: value = dayOfMonth
                    case .quarter: value = (month - 1) / 3 + 1
                    }
                    // yy and YY are the last two digits; other widths are minimum widths.
                    if token.width == 2, field == .year || field == .weekYear { value %= 100 }
                    guard let end = digits.write(value, width: token.width, into: buffer, at: count) else {
                        fits = false  // cannot happen within `capacity`; never write past it
                        return 0
                    }
                    count = end
                }
                return count
            }
        }
        return fits ? text : nil
    }

    /// An upper bound of the UTF-8 length of any fast output with `digits`.
    private func capacity(_ digits: LocaleDigits) -> Int {
        guard let tokens else { return 0 }
        return tokens.reduce(0) { total, token in
            guard let field = token.field else { return total + token.count }
            let maximumDigits = field == .year || field == .weekYear ? DatePattern.maximumYearDigits : 2
            return total + max(token.width, maximumDigits) * digits.maximumDigitLength
        }
    }
}

/// How a locale writes the digits 0...9 in dates (ASCII for most; Arabic-Indic for ar_SA,
/// Devanagari for ne_NP…), as UTF-8.
struct LocaleDigits: Sendable, Hashable {
    let digits: [[UInt8]]
    let maximumDigitLength: Int

    static let ascii = LocaleDigits((0...9).map { [UInt8(ascii: "0") + UInt8($0)] })

    /// - Precondition: ten non-empty digits.
    init(_ digits: [[UInt8]]) {
        precondition(digits.count == 10 && digits.allSatisfy { !$0.isEmpty })
        self.digits = digits
        self.maximumDigitLength = digits.map(\.count).max() ?? 1
    }

    /// Writes `value` zero-padded to `width` digits at `position`; returns the new end, or `nil`
    /// (having written nothing) when `value` is negative or the digits do not fit in `buffer`.
    func write(_ value: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at position: Int) -> Int? {
        guard value >= 0, position >= 0 else { return nil }
        var divisor = 1
        var length = 1
        while divisor <= value / 10 {  // stops at 10^18 for Int.max: no overflow
            divisor *= 10
            length += 1
        }
        guard max(length, width) * maximumDigitLength <= buffer.count - position else { return nil }
        var end = position
        for _ in length..<max(length, width) {
            for byte in digits[0] {
                buffer[end] = byte
                end += 1
            }
        }
        var rest = value
        while divisor > 0 {
            for byte in digits[rest / divisor] {
                buffer[end] = byte
                end += 1
            }
            rest %= divisor
            divisor /= 10
        }
        return end
    }
}
