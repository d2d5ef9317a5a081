import Foundation

/// A Swift type that converts to and from an ``SQLiteValue``.
///
/// Conformances: `Bool`, every fixed-width integer, `Double`, `Float`, `String`, `Data`,
/// ``SQLiteValue`` itself, and `Optional` of any of them (`nil` is `NULL`).
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
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let value) = sqliteValue else { return nil }
        self = value
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
/// `UInt64` and `UInt` are stored by bit pattern, so values above `Int64.max` round-trip
/// (as negative integers in SQL).
public protocol SQLiteIntegerConvertible: FixedWidthInteger, SQLiteValueConvertible {}

extension SQLiteIntegerConvertible {
    public var sqliteValue: SQLiteValue {
        .integer(Int64(exactly: self) ?? Int64(truncatingIfNeeded: self))
    }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value):
            if Self.bitWidth == 64 && !Self.isSigned {
                self = Self(truncatingIfNeeded: value)
                return
            }
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
        case .real(let value):
            guard let exact = Self(exactly: value) else { return nil }
            self = exact
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
