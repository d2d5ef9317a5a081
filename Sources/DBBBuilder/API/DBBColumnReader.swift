import DBBSQLite
import Foundation

/// The current row of a query, whichever backend ran it: read its columns by index (from 0)
/// with the typed accessors of `DBBValueReader` (`int64(at:)`, `string(at:)`,
/// `optionalDouble(at:)`, `value(at:)`…).
///
/// On SQLite it reads the statement's columns directly (one C call a value); on a server
/// backend, the values of the row as received. A reader is a view: it is valid only until its
/// query moves to the next row.
public struct DBBColumnReader: DBBValueReader {
    @usableFromInline
    enum Source {
        case sqlite(SQLiteRow)
        case values(UnsafePointer<DBBValueRow>)
    }

    @usableFromInline let source: Source

    /// A reader of the current row of an SQLite statement.
    @inlinable
    public init(_ row: SQLiteRow) { source = .sqlite(row) }

    /// A reader of the values a backend received for its current row: `row` stays at one
    /// place while the statement lives, and holds each row in turn.
    @_spi(DBBBackend)
    public init(row: UnsafePointer<DBBValueRow>) { source = .values(row) }

    /// The number of columns.
    public var count: Int {
        switch source {
        case .sqlite(let row): row.count
        case .values(let row): row.pointee.count
        }
    }

    /// All values of the row, in column order. Allocates; prefer the typed accessors in loops.
    public var values: [DBBValue] { (0..<count).map { value(at: $0) } }

    @inlinable @inline(__always)
    public func type(at index: Int) -> DBBValueType {
        switch source {
        case .sqlite(let row): row.type(at: index)
        case .values(let row): row.pointee.values[index].type
        }
    }

    /// The storage class of the value at `index` and the value as an integer, read together
    /// (one C call on SQLite).
    @inlinable @inline(__always)
    public func typedInt64(at index: Int) -> (type: DBBValueType, value: Int64) {
        switch source {
        case .sqlite(let row): row.typedInt64(at: index)
        case .values(let row): (row.pointee.values[index].type, row.pointee.values[index].integerConversion)
        }
    }

    /// The storage class of the value at `index` and the value as a double, read together
    /// (one C call on SQLite).
    @inlinable @inline(__always)
    public func typedDouble(at index: Int) -> (type: DBBValueType, value: Double) {
        switch source {
        case .sqlite(let row): row.typedDouble(at: index)
        case .values(let row): (row.pointee.values[index].type, row.pointee.values[index].realConversion)
        }
    }

    @inlinable
    public func int64(at index: Int) -> Int64 {
        switch source {
        case .sqlite(let row): row.int64(at: index)
        case .values(let row): row.pointee.values[index].integerConversion
        }
    }

    @inlinable
    public func double(at index: Int) -> Double {
        switch source {
        case .sqlite(let row): row.double(at: index)
        case .values(let row): row.pointee.values[index].realConversion
        }
    }

    public func withUnsafeUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch source {
        case .sqlite(let row):
            return try row.withUnsafeUTF8(at: index, body)
        case .values(let row):
            var text = row.pointee.values[index].textConversion
            return try text.withUTF8(body)
        }
    }

    public func withUnsafeBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch source {
        case .sqlite(let row):
            return try row.withUnsafeBytes(at: index, body)
        case .values(let row):
            let value = row.pointee.values[index]
            if case .blob(let data) = value { return try data.withUnsafeBytes(body) }
            var text = value.textConversion
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
    }
}

/// The current row of a backend that receives rows as values (see
/// `DBBColumnReader.init(row:)`): `count` values at `values`. For backend modules; an
/// application reads rows through ``DBBColumnReader``.
public struct DBBValueRow {
    public var values: UnsafeMutablePointer<DBBValue>
    public var count: Int

    public init(values: UnsafeMutablePointer<DBBValue>, count: Int) {
        self.values = values
        self.count = count
    }
}

extension DBBValue {
    /// The value as an integer, converted as SQLite's `sqlite3_column_int64` converts (`NULL`
    /// and blobs are 0, a real is truncated toward zero and clamped, text is read as a number).
    @usableFromInline
    var integerConversion: Int64 {
        switch self {
        case .null, .blob: 0
        case .integer(let value): value
        case .real(let value): Self.clamped(value)
        case .text(let text):
            Int64(text.trimmingCharacters(in: .whitespaces))
                ?? Self.clamped(Double(text.trimmingCharacters(in: .whitespaces)) ?? 0)
        }
    }

    /// The value as a double, converted as `sqlite3_column_double` converts.
    @usableFromInline
    var realConversion: Double {
        switch self {
        case .null, .blob: 0
        case .integer(let value): Double(value)
        case .real(let value): value
        case .text(let text): Double(text.trimmingCharacters(in: .whitespaces)) ?? 0
        }
    }

    /// The value as text, converted as `sqlite3_column_text` converts (`NULL` is empty).
    var textConversion: String {
        switch self {
        case .null: ""
        case .integer(let value): String(value)
        case .real(let value): DBBValue.text(of: value)
        case .text(let text): text
        case .blob(let data): String(decoding: data, as: UTF8.self)
        }
    }

    @usableFromInline
    static func clamped(_ value: Double) -> Int64 {
        if value.isNaN { return 0 }
        if value >= 9.223372036854775807e18 { return .max }
        if value <= -9.223372036854775808e18 { return .min }
        return Int64(value)
    }
}
