import Foundation

/// A Swift type that converts to and from an ``SQLiteValue``.
///
/// Conformances: `Bool`, every fixed-width integer, `Double`, `Float`, `String`, `Data`, `Date`
/// (seconds since 2001-01-01, as table objects store it), ``SQLiteValue`` itself, and `Optional`
/// of any of them (`nil` is `NULL`).
///
/// Reading follows SQLite's own conversions where they lose nothing: an integer or a real reads
/// as `String` in SQLite's text form (`42`, `2.5`), text that spells a number reads as that
/// number; text that does not (`'abc'` as `Int`) does not convert, where SQLite would say 0.
public protocol SQLiteValueConvertible {
    /// This value as SQLite stores it.
    var sqliteValue: SQLiteValue { get }

    /// The Swift value for an SQLite value, or `nil` when it does not convert
    /// (e.g. text into an integer, or an integer out of range).
    init?(sqliteValue: SQLiteValue)
}

extension SQLiteValue: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self }
    public init?(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension Bool: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        default: return nil
        }
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .text(let text):
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self = value
        default: return nil
        }
    }
}

extension Float: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(Double(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard let double = Double(sqliteValue: sqliteValue) else { return nil }
        self = Float(double)
    }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
    /// Text as it is; an integer or real in SQLite's text form (`CAST(x AS TEXT)`: `42`, `2.5`,
    /// `1.0e+20`); a blob's bytes as UTF-8. `NULL` does not convert.
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .text(let value): self = value
        case .integer(let value): self = String(value)
        case .real(let value): self = SQLiteValue.text(of: value)
        case .blob(let data): self = String(decoding: data, as: UTF8.self)
        case .null: return nil
        }
    }
}

extension SQLiteValue {
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

extension Date: SQLiteValueConvertible {
    /// Seconds since 2001-01-01 00:00:00 UTC, as a real: how table objects store a `Date`.
    public var sqliteValue: SQLiteValue { .real(timeIntervalSinceReferenceDate) }
    /// A number of seconds since 2001-01-01 (an integer, a real, or text that spells one).
    public init?(sqliteValue: SQLiteValue) {
        guard let seconds = Double(sqliteValue: sqliteValue) else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
}

extension Data: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .blob(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .blob(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
        } else if let wrapped = Wrapped(sqliteValue: sqliteValue) {
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
public protocol SQLiteIntegerConvertible: FixedWidthInteger, SQLiteValueConvertible {}

extension SQLiteIntegerConvertible {
    public var sqliteValue: SQLiteValue {
        Int64(exactly: self).map(SQLiteValue.integer) ?? .real(Double(self))
    }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .real(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .text(let text):
            guard let value = Int64(text.trimmingCharacters(in: .whitespaces)) else { return nil }
            self.init(sqliteValue: .integer(value))
        default:
            return nil
        }
    }
}

extension Int: SQLiteIntegerConvertible {}
extension Int8: SQLiteIntegerConvertible {}
extension Int16: SQLiteIntegerConvertible {}
extension Int32: SQLiteIntegerConvertible {}
extension Int64: SQLiteIntegerConvertible {}
extension UInt: SQLiteIntegerConvertible {}
extension UInt8: SQLiteIntegerConvertible {}
extension UInt16: SQLiteIntegerConvertible {}
extension UInt32: SQLiteIntegerConvertible {}
extension UInt64: SQLiteIntegerConvertible {}
