import Foundation

/// One stored value, as every backend holds it: `NULL`, a 64-bit integer, a double, text or
/// bytes — SQLite's five storage classes, to which PostgreSQL's `bigint`, `double precision`,
/// `text` and `bytea` columns (those of DBBBuilder's tables) map one to one.
///
/// The SQLite layer calls it `SQLiteValue` (DBBSQLite); the ORM and its backends call it
/// `DBBValue`. It is one type, so nothing is converted on the way to SQLite.
///
/// Literals make argument lists read naturally:
///
/// ```swift
/// try connection.execute("INSERT INTO person (name, age, photo) VALUES (?, ?, ?)",
///                        ["Zoë", 42, nil])
/// ```
///
/// See [Datatypes In SQLite](https://www.sqlite.org/datatype3.html).
public enum DBBValue: Sendable, Hashable {
    /// `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double. SQLite stores NaN as `NULL`.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes, possibly none.
    case blob(Data)

    /// The storage class of this value.
    public var type: DBBValueType {
        switch self {
        case .null: .null
        case .integer: .integer
        case .real: .real
        case .text: .text
        case .blob: .blob
        }
    }

    /// Whether this value is `NULL`.
    public var isNull: Bool { if case .null = self { true } else { false } }
}

/// The storage class of a value: the case of a ``DBBValue``, numbered as SQLite numbers its
/// fundamental types (`sqlite3_column_type`). The SQLite layer calls it `SQLiteType`.
public enum DBBValueType: Int32, Sendable, Hashable, CaseIterable {
    /// `SQLITE_INTEGER`
    case integer = 1
    /// `SQLITE_FLOAT`
    case real = 2
    /// `SQLITE_TEXT`
    case text = 3
    /// `SQLITE_BLOB`
    case blob = 4
    /// `SQLITE_NULL`
    case null = 5

    /// The storage class of an SQLite type code (`sqlite3_column_type`, `sqlite3_value_type`);
    /// `.null` for a code SQLite does not define. Inlined where rows are read: the synthesized
    /// `init(rawValue:)` is a call of its own per value.
    @inlinable @inline(__always)
    public init(code: Int32) {
        switch code {
        case 1: self = .integer
        case 2: self = .real
        case 3: self = .text
        case 4: self = .blob
        default: self = .null
        }
    }
}

// MARK: - Literals

extension DBBValue: ExpressibleByNilLiteral {
    /// `nil` is `NULL`.
    public init(nilLiteral: ()) { self = .null }
}

extension DBBValue: ExpressibleByIntegerLiteral {
    /// An integer literal is an ``integer(_:)``.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension DBBValue: ExpressibleByFloatLiteral {
    /// A floating-point literal is a ``real(_:)``.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension DBBValue: ExpressibleByStringLiteral {
    /// A string literal is a ``text(_:)``.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension DBBValue: ExpressibleByBooleanLiteral {
    /// `true` and `false` are the integers 1 and 0, as SQLite stores booleans.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension DBBValue: CustomStringConvertible {
    /// The value as an SQL literal would show it, e.g. `NULL`, `42`, `'text'`, `x'00ff'`.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): SQLQuoting.literal(value)
        case .blob(let value): "x'" + value.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
