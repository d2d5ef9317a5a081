import Foundation

// `Decimal`, `UUID` and `URL` as text, the form every backend can bind and read: exact digits,
// the 36 characters of a UUID in lower case (as PostgreSQL writes one), a URL's absolute string.

extension Decimal: DBBValueConvertible {
    /// The number as text, every digit kept (`Decimal.description`: `-12.5`, never an
    /// exponent); NaN as a NaN real, which SQLite binds as `NULL` and table objects refuse.
    public var databaseValue: DBBValue { isNaN ? .real(.nan) : .text(description) }

    /// Text of a decimal number (`12.50`, `-3`, `1e-5`: an optional sign, digits with an
    /// optional fraction and exponent) that a `Decimal` holds exactly; an integer; a finite real,
    /// as the shortest decimal that reads back as it (`0.1`). Text that is not a number (`1,5`,
    /// `1.5x`, `NaN`), or has more digits than a `Decimal` holds (38), does not convert.
    public init?(databaseValue: DBBValue) {
        switch databaseValue {
        case .text(let text):
            guard let value = Decimal(exactly: text) else { return nil }
            self = value
        case .integer(let integer): self = Decimal(integer)
        case .real(let real):
            guard real.isFinite, let value = Decimal(string: "\(real)") else { return nil }
            self = value
        default: return nil
        }
    }

    /// The number `text` writes in `DecimalText`'s strict form, when a `Decimal` holds it
    /// exactly; `nil` otherwise (`Decimal(string:)` reads `1.5x` as 1.5 and rounds past 38 digits).
    package init?(exactly text: String) {
        guard DecimalText.isNumber(text), let value = Decimal(string: text), !value.isNaN,
            DecimalText.sameNumber(text, value.description)
        else { return nil }
        self = value
    }
}

extension UUID: DBBValueConvertible {
    /// The UUID as text in lower case (`6ba7b810-9dad-11d1-80b4-00c04fd430c8`), as PostgreSQL
    /// writes it and RFC 9562 recommends.
    public var databaseValue: DBBValue { .text(uuidString.lowercased()) }

    /// Text of a UUID in either case.
    public init?(databaseValue: DBBValue) {
        guard case .text(let text) = databaseValue, let value = UUID(uuidString: text) else { return nil }
        self = value
    }
}

extension URL: DBBValueConvertible {
    /// The URL's `absoluteString`.
    public var databaseValue: DBBValue { .text(absoluteString) }

    /// Text that is a URL as it is written: characters a URL cannot hold (a space, `ä`) are
    /// not percent-encoded into another text, the text does not convert.
    public init?(databaseValue: DBBValue) {
        guard case .text(let text) = databaseValue, let value = URL(string: text, encodingInvalidCharacters: false)
        else { return nil }
        self = value
    }
}
