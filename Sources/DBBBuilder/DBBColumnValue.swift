import DBBSQLite
import Foundation

/// A Swift type a table-object property can have when it is stored in a column of the
/// object's table: `Bool`, the fixed-width integers, `Double`, `Float`, `String`, `Date`, and
/// `Optional` of each. Other types do not compile in a ``DBBPropertyPersistence``.
public protocol DBBColumnValue {
    /// The storage type of the property.
    static var storageType: DBBStorageType { get }
    /// Binds the value to parameter `index` (from 1) of `statement`.
    func bind(to statement: SQLiteStatement, at index: Int) throws
    /// The value of column `index` (from 0) of `row`; `nil` to leave the property as it is
    /// (a `NULL` read into a non-optional property).
    static func read(from row: SQLiteRow, at index: Int) -> Self?
    /// The value as it is stored in its column: what change tracking compares.
    var columnValue: SQLiteValue { get }
}

/// The error of binding a value SQLite cannot hold (it stores `NaN` as `NULL`); the save
/// that meets it names the property.
func unstorable(_ value: some FloatingPoint) -> DBBError {
    DBBError(.invalidValue, "\(value) cannot be stored: SQLite keeps NaN as NULL, so it would read back as another value")
}

/// The error of saving an integer above `Int64.max`, the largest SQLite holds: `value` when
/// known exactly (a save sees only the REAL standing in for it).
func unstorable(integer value: (any BinaryInteger)?) -> DBBError {
    DBBError(.invalidValue, "\(value.map { "\($0)" } ?? "an integer") cannot be stored: it is above \(Int64.max), "
             + "the largest integer SQLite holds")
}

extension Bool: DBBColumnValue {
    public static var storageType: DBBStorageType { .bool }
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bind(self, at: index) }
    public static func read(from row: SQLiteRow, at index: Int) -> Bool? {
        row.optionalInt64(at: index).map { $0 != 0 }
    }
    public var columnValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension String: DBBColumnValue {
    public static var storageType: DBBStorageType { .string }
    public func bind(to statement: SQLiteStatement, at index: Int) throws { try statement.bind(self, at: index) }
    public static func read(from row: SQLiteRow, at index: Int) -> String? { row.string(at: index) }
    public var columnValue: SQLiteValue { .text(self) }
}

extension Double: DBBColumnValue {
    public static var storageType: DBBStorageType { .float }
    /// - Throws: ``DBBError/Kind/invalidValue`` for `NaN`.
    public func bind(to statement: SQLiteStatement, at index: Int) throws {
        guard !isNaN else { throw unstorable(self) }
        try statement.bind(self, at: index)
    }
    public static func read(from row: SQLiteRow, at index: Int) -> Double? {
        row.optionalDouble(at: index)
    }
    public var columnValue: SQLiteValue { .real(self) }
}

extension Float: DBBColumnValue {
    public static var storageType: DBBStorageType { .float }
    /// - Throws: ``DBBError/Kind/invalidValue`` for `NaN`.
    public func bind(to statement: SQLiteStatement, at index: Int) throws {
        guard !isNaN else { throw unstorable(self) }
        try statement.bind(Double(self), at: index)
    }
    public static func read(from row: SQLiteRow, at index: Int) -> Float? {
        row.optionalDouble(at: index).map(Float.init)
    }
    public var columnValue: SQLiteValue { .real(Double(self)) }
}

extension Date: DBBColumnValue {
    public static var storageType: DBBStorageType { .date }
    /// - Throws: ``DBBError/Kind/invalidValue`` for a date whose interval is `NaN`.
    public func bind(to statement: SQLiteStatement, at index: Int) throws {
        guard !timeIntervalSinceReferenceDate.isNaN else { throw unstorable(timeIntervalSinceReferenceDate) }
        try statement.bind(timeIntervalSinceReferenceDate, at: index)
    }
    public static func read(from row: SQLiteRow, at index: Int) -> Date? {
        row.optionalDouble(at: index).map(Date.init(timeIntervalSinceReferenceDate:))
    }
    public var columnValue: SQLiteValue { .real(timeIntervalSinceReferenceDate) }
}

/// The integer types, stored as SQLite's 64-bit integers. A `UInt64` or `UInt` above
/// `Int64.max` cannot be stored: saving it throws ``DBBError/Kind/invalidValue`` naming the
/// property. A stored value out of the property type's range is not read (the property keeps
/// its value).
public protocol DBBIntegerColumnValue: DBBColumnValue, FixedWidthInteger {}

extension DBBIntegerColumnValue {
    public static var storageType: DBBStorageType { .int }
    /// - Throws: ``DBBError/Kind/invalidValue`` for a value above `Int64.max`.
    public func bind(to statement: SQLiteStatement, at index: Int) throws {
        guard let value = Int64(exactly: self) else { throw unstorable(integer: self) }
        try statement.bind(value, at: index)
    }
    public static func read(from row: SQLiteRow, at index: Int) -> Self? {
        guard let value = row.optionalInt64(at: index) else { return nil }
        return Self(exactly: value)
    }
    public var columnValue: SQLiteValue { .integer(Int64(truncatingIfNeeded: self)) }
}

/// The unsigned 64-bit types, whose values above `Int64.max` no SQLite integer holds: their
/// column value is then a REAL (as SQLite reads such a literal), which a save refuses. Their
/// own members, so the other integer types keep the one-instruction conversion.
public protocol DBBWideUnsignedColumnValue: DBBIntegerColumnValue {}

extension DBBWideUnsignedColumnValue {
    /// The value, or — above `Int64.max`, which a save refuses — a REAL.
    public var columnValue: SQLiteValue { Int64(exactly: self).map(SQLiteValue.integer) ?? .real(Double(self)) }
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
    public func bind(to statement: SQLiteStatement, at index: Int) throws {
        if let self { try self.bind(to: statement, at: index) } else { try statement.bindNull(at: index) }
    }
    /// `NULL` reads as `nil`: setting an optional to `nil` and saving clears it.
    public static func read(from row: SQLiteRow, at index: Int) -> Wrapped?? {
        row.isNull(at: index) ? .some(nil) : .some(Wrapped.read(from: row, at: index))
    }
    public var columnValue: SQLiteValue { self?.columnValue ?? .null }
}
