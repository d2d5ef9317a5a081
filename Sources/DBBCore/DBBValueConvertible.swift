import Foundation

/// A Swift type that converts to and from an ``DBBValue``.
///
/// Conformances: `Bool`, every fixed-width integer, `Double`, `Float`, `String`, `Data`, `Date`
/// (seconds since 2001-01-01, as table objects store it), `Decimal`, `UUID` and `URL` (as text:
/// exact digits, lower case, the absolute string), ``DBBValue`` itself, and `Optional` of any
/// of them (`nil` is `NULL`).
///
/// Reading follows SQLite's own conversions where they lose nothing: an integer or a real reads
/// as `String` in SQLite's text form (`42`, `2.5`), text that spells a number reads as that
/// number; text that does not (`'abc'` as `Int`) does not convert, where SQLite would say 0.
public protocol DBBValueConvertible {
    /// This value as the database stores it.
    var databaseValue: DBBValue { get }

    /// The Swift value for a stored value, or `nil` when it does not convert
    /// (e.g. text into an integer, or an integer out of range).
    init?(databaseValue: DBBValue)
}

extension DBBValue: DBBValueConvertible {
    public var databaseValue: DBBValue { self }
    public init?(databaseValue: DBBValue) { self = databaseValue }
}

extension Bool: DBBValueConvertible {
    public var databaseValue: DBBValue { .integer(self ? 1 : 0) }
    public init?(databaseValue: DBBValue) {
        switch databaseValue {
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        default: return nil
        }
    }
}

extension Double: DBBValueConvertible {
    public var databaseValue: DBBValue { .real(self) }
    public init?(databaseValue: DBBValue) {
        switch databaseValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .text(let text):
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension Float: DBBValueConvertible {
    public var databaseValue: DBBValue { .real(Double(self)) }
    public init?(databaseValue: DBBValue) {
        guard let double = Double(databaseValue: databaseValue) else { return nil }
        self = Float(double)
    }
}

extension String: DBBValueConvertible {
    public var databaseValue: DBBValue { .text(self) }
    /// Text as it is; an integer or real in SQLite's text form (`CAST(x AS TEXT)`: `42`, `2.5`,
    /// `1.0e+20`); a blob's bytes as UTF-8. `NULL` does not convert.
    public init?(databaseValue: DBBValue) {
        switch databaseValue {
        case .text(let value): self = value
        case .integer(let value): self = String(value)
        case .real(let value): self = DBBValue.text(of: value)
        case .blob(let data): self = String(decoding: data, as: UTF8.self)
        case .null: return nil
        }
    }
}

extension DBBValue {
    /// A real as SQLite writes it as text (`printf("%!.15g")`): 15 significant digits, and
    /// always a decimal point (`1.0`, `1.0e+20`); infinities are `Inf` and `-Inf`.
    public static func text(of value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-Inf" : "Inf" }
        if value == 0 { return "0.0" }  // -0.0 too
        var text = String(format: "%.15g", value)
        if !text.contains(".") {
            if let exponent = text.firstIndex(of: "e") {
                text.insert(contentsOf: ".0", at: exponent)
            } else {
                text += ".0"
            }
        }
        return text
    }
}

extension Date: DBBValueConvertible {
    /// Seconds since 2001-01-01 00:00:00 UTC, as a real: how table objects store a `Date`.
    public var databaseValue: DBBValue { .real(timeIntervalSinceReferenceDate) }
    /// A number of seconds since 2001-01-01 (an integer, a real, or text that spells one).
    public init?(databaseValue: DBBValue) {
        guard let seconds = Double(databaseValue: databaseValue) else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
}

extension Data: DBBValueConvertible {
    public var databaseValue: DBBValue { .blob(self) }
    public init?(databaseValue: DBBValue) {
        guard case .blob(let value) = databaseValue else { return nil }
        self = value
    }
}

extension Optional: DBBValueConvertible where Wrapped: DBBValueConvertible {
    public var databaseValue: DBBValue { self?.databaseValue ?? .null }
    public init?(databaseValue: DBBValue) {
        if case .null = databaseValue {
            self = .none
        } else if let wrapped = Wrapped(databaseValue: databaseValue) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }
}

// MARK: - Integers

/// Every fixed-width integer converts through `Int64`, refusing values out of its range.
///
/// A `UInt64` or `UInt` above `Int64.max` is bound as a REAL, as SQLite reads an integer
/// literal too large for 64 bits; read back, it does not convert to an integer (nor does a
/// negative integer to an unsigned type).
public protocol DBBIntegerConvertible: FixedWidthInteger, DBBValueConvertible {}

extension DBBIntegerConvertible {
    public var databaseValue: DBBValue {
        Int64(exactly: self).map(DBBValue.integer) ?? .real(Double(self))
    }
    public init?(databaseValue: DBBValue) {
        switch databaseValue {
        case .integer(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .real(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .text(let text):
            guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self.init(databaseValue: .integer(value))
        default:
            return nil
        }
    }
}

extension Int: DBBIntegerConvertible {}
extension Int8: DBBIntegerConvertible {}
extension Int16: DBBIntegerConvertible {}
extension Int32: DBBIntegerConvertible {}
extension Int64: DBBIntegerConvertible {}
extension UInt: DBBIntegerConvertible {}
extension UInt8: DBBIntegerConvertible {}
extension UInt16: DBBIntegerConvertible {}
extension UInt32: DBBIntegerConvertible {}
extension UInt64: DBBIntegerConvertible {}
