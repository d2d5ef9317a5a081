import DBBSQLite
import Foundation

/// A Swift type a table-object property can have when it is stored in a column of the
/// object's table: `Bool`, the fixed-width integers, `Double`, `Float`, `String`, `Date`,
/// `Decimal`, `UUID`, `URL`, and `Optional` of each. Enums are stored as their raw value and
/// `@JSON` values as JSON without conforming; other types do not compile in a
/// ``DBBPropertyPersistence``.
public protocol DBBColumnValue {
    /// The storage type of the property.
    static var storageType: DBBStorageType { get }
    /// The value of column `index` (from 0) of `row`, whichever backend it comes from; `nil` to leave the property as it is
    /// (a `NULL` read into a non-optional property: the object's snapshot then records the
    /// `NULL`, so the property counts as changed and a save writes its value).
    /// - Throws: ``DBBError/Kind/invalidValue`` when the stored value has no value of this
    ///   type (an integer out of its range); the fetch fails naming the property and row.
    static func read(from row: DBBColumnReader, at index: Int) throws -> Self?
    /// The value as it is stored in its column: what change tracking compares.
    var columnValue: DBBValue { get }
}

/// The error of binding NaN, which SQLite stores as `NULL` and which every backend therefore
/// refuses, so that a value reads back as it was saved; the save that meets it names the property.
@usableFromInline
func unstorable(_ value: some FloatingPoint) -> DBBError {
    DBBError(.invalidValue, "\(value) cannot be stored: NaN is refused on every backend (SQLite would keep it as NULL)")
}

/// The error of saving an integer above `Int64.max`, the largest SQLite holds: `value` when
/// known exactly (a save sees only the REAL standing in for it).
func unstorable(integer value: (any BinaryInteger)?) -> DBBError {
    DBBError(
        .invalidValue,
        "\(value.map { "\($0)" } ?? "an integer") cannot be stored: it is above \(Int64.max), "
            + "the largest integer SQLite holds")
}

/// The error of reading a stored value of another kind than the property's (text or a
/// fraction in an integer column, text in a date column), which SQLite would convert to
/// another number; the fetch that meets it names the property and row.
@usableFromInline
func unreadable(_ row: DBBColumnReader, at index: Int, as type: Any.Type) -> DBBError {
    let value = row.value(at: index)
    let shown =
        switch value {
        case .text(let text): "the text '\(text.prefix(40))'"
        case .blob(let data): "\(data.count) bytes"
        default: "\(value)"
        }
    return DBBError(.invalidValue, "the stored value is \(shown), not a \(type): it is read as it is or not at all")
}

extension Bool: DBBColumnValue {
    public static var storageType: DBBStorageType { .bool }
    @inlinable
    public static func read(from row: DBBColumnReader, at index: Int) throws -> Bool? {
        let (type, value) = row.typedInt64(at: index)
        switch type {
        case .integer where value == 0 || value == 1: return value == 1
        // Another integer has no Bool that gives it back: a save would write 1 over it.
        case .integer:
            throw DBBError(.invalidValue, "the stored value \(value) is neither 0 nor 1, the two a Bool is stored as")
        case .null: return nil
        default: throw unreadable(row, at: index, as: Bool.self)
        }
    }
    @inlinable
    public var columnValue: DBBValue { .integer(self ? 1 : 0) }
}

extension String: DBBColumnValue {
    public static var storageType: DBBStorageType { .string }
    @inlinable
    public static func read(from row: DBBColumnReader, at index: Int) -> String? { row.string(at: index) }
    @inlinable
    public var columnValue: DBBValue { .text(self) }
}

/// A stored number as a `Double`: a REAL, or an INTEGER (REAL columns hold integers when
/// they are whole); `nil` for NULL.
/// - Throws: ``DBBError/Kind/invalidValue`` for text or bytes, which SQLite would read as 0.
@inlinable @inline(__always)
func storedDouble(_ row: DBBColumnReader, at index: Int, as type: Any.Type) throws -> Double? {
    let (storage, value) = row.typedDouble(at: index)
    switch storage {
    case .real, .integer: return value
    case .null: return nil
    default: throw unreadable(row, at: index, as: type)
    }
}

extension Double: DBBColumnValue {
    public static var storageType: DBBStorageType { .float }
    @inlinable
    public static func read(from row: DBBColumnReader, at index: Int) throws -> Double? {
        try storedDouble(row, at: index, as: Double.self)
    }
    @inlinable
    public var columnValue: DBBValue { .real(self) }
}

extension Float: DBBColumnValue {
    public static var storageType: DBBStorageType { .float }
    @inlinable
    public static func read(from row: DBBColumnReader, at index: Int) throws -> Float? {
        guard let value = try storedDouble(row, at: index, as: Float.self) else { return nil }
        let float = Float(value)
        // A REAL beyond Float's range (1e300, stored by other SQL) would read as infinity, which
        // a save would then write back: refused, as an integer out of its type's range is.
        if float.isInfinite && value.isFinite {
            throw DBBError(
                .invalidValue,
                "the stored value \(value) is beyond the range of a Float (±\(Float.greatestFiniteMagnitude))")
        }
        return float
    }
    @inlinable
    public var columnValue: DBBValue { .real(Double(self)) }
}

extension Date: DBBColumnValue {
    public static var storageType: DBBStorageType { .date }
    @inlinable
    public static func read(from row: DBBColumnReader, at index: Int) throws -> Date? {
        try storedDouble(row, at: index, as: Date.self).map(Date.init(timeIntervalSinceReferenceDate:))
    }
    @inlinable
    public var columnValue: DBBValue { .real(timeIntervalSinceReferenceDate) }
}

/// The integer types, stored as SQLite's 64-bit integers. A `UInt64` or `UInt` above
/// `Int64.max` cannot be stored: saving it throws ``DBBError/Kind/invalidValue`` naming the
/// property. A stored value out of the property type's range (300 in an `Int8`, -5 in a
/// `UInt64`, written by other SQL) fails the fetch with ``DBBError/Kind/invalidValue`` naming
/// the property and row, rather than read as another number that a save would then write back.
public protocol DBBIntegerColumnValue: DBBColumnValue, FixedWidthInteger {}

extension DBBIntegerColumnValue {
    public static var storageType: DBBStorageType { .int }
    @inlinable @inline(__always)
    public static func read(from row: DBBColumnReader, at index: Int) throws -> Self? {
        let (type, value) = row.typedInt64(at: index)
        switch type {
        case .integer: break
        case .null: return nil
        default: throw unreadable(row, at: index, as: Self.self)  // a fraction, text or bytes
        }
        guard let exact = Self(exactly: value) else {
            throw DBBError(.invalidValue, "the stored value \(value) is not a \(Self.self) (\(Self.min)…\(Self.max))")
        }
        return exact
    }
    @inlinable
    public var columnValue: DBBValue { .integer(Int64(truncatingIfNeeded: self)) }
}

/// The unsigned 64-bit types, whose values above `Int64.max` no SQLite integer holds: their
/// column value is then a REAL (as SQLite reads such a literal), which a save refuses. Their
/// own members, so the other integer types keep the one-instruction conversion.
public protocol DBBWideUnsignedColumnValue: DBBIntegerColumnValue {}

extension DBBWideUnsignedColumnValue {
    /// The value, or — above `Int64.max`, which a save refuses — a REAL.
    @inlinable
    public var columnValue: DBBValue { Int64(exactly: self).map(DBBValue.integer) ?? .real(Double(self)) }
}

extension DBBIntegerColumnValue {
    /// The type's range within Int64, when narrower (`Int32`, `UInt8`, `UInt64`…): what a
    /// set-based update must keep a computed value in (`SQLRenderer+Writes`).
    static var storedBounds: ClosedRange<Int64>? {
        let bounds = Int64(clamping: Self.min)...Int64(clamping: Self.max)
        return bounds == Int64.min...Int64.max ? nil : bounds
    }

    /// ``storedBounds`` of `type`, or of the integer type it wraps (`Int32?`); `nil` for a
    /// type that is no integer.
    static func storedBounds(of type: Any.Type) -> ClosedRange<Int64>? {
        (type as? any DBBIntegerColumnValue.Type)?.storedBounds
            ?? (type as? any OptionalInteger.Type)?.wrappedBounds
    }
}

/// An optional integer type, for ``DBBIntegerColumnValue/storedBounds(of:)``.
protocol OptionalInteger {
    static var wrappedBounds: ClosedRange<Int64>? { get }
}

extension Optional: OptionalInteger where Wrapped: DBBIntegerColumnValue {
    static var wrappedBounds: ClosedRange<Int64>? { Wrapped.storedBounds }
}

extension Int: DBBIntegerColumnValue {}
extension Int8: DBBIntegerColumnValue {}
extension Int16: DBBIntegerColumnValue {}
extension Int32: DBBIntegerColumnValue {}
extension Int64: DBBIntegerColumnValue {}
extension UInt: DBBWideUnsignedColumnValue {}
extension UInt8: DBBIntegerColumnValue {}
extension UInt16: DBBIntegerColumnValue {}
extension UInt32: DBBIntegerColumnValue {}
extension UInt64: DBBWideUnsignedColumnValue {}

extension Optional: DBBColumnValue where Wrapped: DBBColumnValue {
    public static var storageType: DBBStorageType { Wrapped.storageType }
    /// `NULL` reads as `nil`: setting an optional to `nil` and saving clears it.
    @inlinable
    public static func read(from row: DBBColumnReader, at index: Int) throws -> Wrapped?? {
        row.isNull(at: index) ? .some(nil) : .some(try Wrapped.read(from: row, at: index))
    }
    @inlinable
    public var columnValue: DBBValue { self?.columnValue ?? .null }
}
