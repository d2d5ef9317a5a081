import CSQLite

/// The current row of a stepping ``SQLiteStatement``: read its columns by index (from 0)
/// with the ``SQLiteValueReader`` accessors.
///
/// A row is a view, not a copy: it is valid only until the statement steps again or is
/// reset, so read what you need inside the closure that receives it.
///
/// ```swift
/// try connection.forEachRow("SELECT name, age FROM person") { row in
///     print(row.string(at: 0) ?? "?", row.int(at: 1))
/// }
/// ```
public struct SQLiteRow: SQLiteValueReader {
    @usableFromInline let statement: OpaquePointer?

    @usableFromInline init(statement: OpaquePointer?) { self.statement = statement }

    /// The number of result columns.
    public var count: Int { Int(sqlite3_column_count(statement)) }

    /// The name of the column at `index`, as SQLite reports it (its alias if it has one).
    public func columnName(at index: Int) -> String {
        guard let statement else { return "" }
        return sqlite3_column_name(statement, Int32(truncatingIfNeeded: index)).map { String(cString: $0) } ?? ""
    }

    /// All values of the row, in column order. Allocates; prefer the typed accessors in loops.
    public var values: [SQLiteValue] { (0..<count).map { value(at: $0) } }

    @inlinable @inline(__always)
    public func type(at index: Int) -> SQLiteType {
        SQLiteType(code: sqlite3_column_type(statement, Int32(truncatingIfNeeded: index)))
    }

    /// The storage class of the value at `index` and the value as an integer, from one C call
    /// into the statement (`sqlite3_column_value`) where `type(at:)` and `int64(at:)` make two.
    /// The value object is only read here, on the thread that steps the statement.
    @inlinable @inline(__always)
    public func typedInt64(at index: Int) -> (type: SQLiteType, value: Int64) {
        let value = sqlite3_column_value(statement, Int32(truncatingIfNeeded: index))
        return (SQLiteType(code: sqlite3_value_type(value)), sqlite3_value_int64(value))
    }

    /// The storage class of the value at `index` and the value as a double, from one C call
    /// into the statement (see ``typedInt64(at:)``).
    @inlinable @inline(__always)
    public func typedDouble(at index: Int) -> (type: SQLiteType, value: Double) {
        let value = sqlite3_column_value(statement, Int32(truncatingIfNeeded: index))
        return (SQLiteType(code: sqlite3_value_type(value)), sqlite3_value_double(value))
    }

    @inlinable
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(statement, Int32(truncatingIfNeeded: index))
    }

    @inlinable
    public func double(at index: Int) -> Double {
        sqlite3_column_double(statement, Int32(truncatingIfNeeded: index))
    }

    @inlinable
    public func withUnsafeUTF8<R>(
        at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        let column = Int32(truncatingIfNeeded: index)
        // sqlite3_column_text must come before sqlite3_column_bytes (it may convert the value).
        let text = sqlite3_column_text(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        return try body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
    }

    @inlinable
    public func withUnsafeBytes<R>(
        at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        let column = Int32(truncatingIfNeeded: index)
        let blob = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        return try body(UnsafeRawBufferPointer(start: blob, count: blob == nil ? 0 : count))
    }
}
