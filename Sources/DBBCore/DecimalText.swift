/// Decimal numbers written as text — how a `Decimal` is stored in SQLite, where no column type
/// holds one exactly — read and compared by their digits, with no conversion to a binary number:
/// `"10"` is more than `"9"`, `"1.50"` equals `"1.5"`, and 38 digits compare as 38 digits.
///
/// The form is strict: an optional sign, digits with an optional fraction (`12`, `-0.5`, `.5`,
/// `5.`), and an optional exponent (`1.5e3`, `2E-7`); no spaces, no grouping, no `NaN` or
/// infinity. `Decimal.description` writes it (without exponent), and PostgreSQL's `numeric`
/// as text.
package enum DecimalText {
    /// A number of the strict form, by where its significant digits lie in the text: its value
    /// is `0.d₁d₂…dₙ × 10^exponent` with d₁ not 0 (`sign` 0 for zero, which has no digits).
    struct Number {
        /// -1, 0 or 1.
        var sign: Int
        /// The power of ten of the first significant digit, plus one.
        var exponent: Int
        /// The first significant digit's offset, and the end of the last one's (a `.` between
        /// them is skipped).
        var first: Int
        var end: Int
    }

    /// The exponents a text may write: beyond them it is not read as a number (no decimal type
    /// holds one), and it sorts with the texts.
    static let exponentLimit = 1_000_000_000

    /// `bytes` read as a number, or `nil` when it is not of the strict form.
    static func number(_ bytes: UnsafeRawBufferPointer) -> Number? {
        let count = bytes.count
        var index = 0
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        func isDigit(_ at: Int) -> Bool { at < count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        var (integerDigits, fractionDigits) = (0, 0)
        var first = -1
        var last = -1
        // Digits before the point that count: after the leading zeros.
        var significantBeforePoint = 0
        // Zeros after the point before the first significant digit (when none came before it).
        var zerosAfterPoint = 0
        var seenPoint = false
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else if isDigit(index) {
                if seenPoint { fractionDigits += 1 } else { integerDigits += 1 }
                if byte != UInt8(ascii: "0") {
                    if first < 0 { first = index }
                    last = index
                } else if first < 0 && seenPoint {
                    zerosAfterPoint += 1
                }
                if !seenPoint && first >= 0 { significantBeforePoint += 1 }
            } else {
                break
            }
            index += 1
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        var exponent = 0
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var negativeExponent = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                exponent = exponent * 10 + Int(bytes[index] - 0x30)
                guard exponent < exponentLimit else { return nil }
                index += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        guard index == count else { return nil }
        guard first >= 0 else { return Number(sign: 0, exponent: 0, first: 0, end: 0) }
        let position = significantBeforePoint > 0 ? significantBeforePoint : -zerosAfterPoint
        return Number(sign: negative ? -1 : 1, exponent: position + exponent, first: first, end: last + 1)
    }

    /// Whether `text` is a number of the strict form.
    package static func isNumber(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { number(UnsafeRawBufferPointer($0)) != nil }
    }

    /// Whether `left` and `right` are numbers of the strict form with the same value (`1.50`
    /// and `1.5`); `false` when either is not a number.
    package static func sameNumber(_ left: String, _ right: String) -> Bool {
        var (left, right) = (left, right)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                let (a, b) = (UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
                guard let x = number(a), let y = number(b) else { return false }
                return compare(x, a, y, b) == 0
            }
        }
    }

    /// The order of two texts as numbers: negative when `left` comes first, 0 when they are
    /// the same number, positive otherwise. Every number comes before every text that is not
    /// one; those come in the order of their bytes. A total order, as an SQLite collation must be.
    package static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int {
        switch (number(left), number(right)) {
        case (let x?, let y?): return compare(x, left, y, right)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil):
            let shared = min(left.count, right.count)
            for index in 0..<shared where left[index] != right[index] {
                return Int(left[index]) - Int(right[index])
            }
            return left.count - right.count
        }
    }

    private static func compare(
        _ x: Number, _ left: UnsafeRawBufferPointer, _ y: Number, _ right: UnsafeRawBufferPointer
    )
        -> Int
    {
        guard x.sign == y.sign else { return x.sign < y.sign ? -1 : 1 }
        guard x.sign != 0 else { return 0 }
        return x.sign * magnitudeOrder(x, left, y, right)
    }

    /// The order of the two numbers' absolute values.
    private static func magnitudeOrder(
        _ x: Number, _ left: UnsafeRawBufferPointer, _ y: Number, _ right: UnsafeRawBufferPointer
    ) -> Int {
        guard x.exponent == y.exponent else { return x.exponent < y.exponent ? -1 : 1 }
        var (i, j) = (x.first, y.first)
        while true {
            if i < x.end, left[i] == UInt8(ascii: ".") { i += 1 }
            if j < y.end, right[j] == UInt8(ascii: ".") { j += 1 }
            // The last significant digit is not 0: the number with digits left is the larger.
            switch (i < x.end, j < y.end) {
            case (false, false): return 0
            case (true, false): return 1
            case (false, true): return -1
            case (true, true):
                if left[i] != right[j] { return left[i] < right[j] ? -1 : 1 }
                i += 1
                j += 1
            }
        }
    }
}
