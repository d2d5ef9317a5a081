import DBBSQLite

/// One stored value, as both backends hold it: `NULL`, a 64-bit integer, a double, text or
/// bytes.
///
/// It is the value model SQLite's five storage classes define, and PostgreSQL's `bigint`,
/// `double precision`, `text` and `bytea` columns (which DBBBuilder's tables use there) map
/// to one to one; so it is the same type as `SQLiteValue`, the raw SQLite layer's name, and
/// costs no conversion on the SQLite path. Write `DBBValue` in code that should run on either.
public typealias DBBValue = SQLiteValue

/// A Swift type that converts to and from a ``DBBValue``: `Bool`, the integers, `Double`,
/// `Float`, `String`, `Date` (seconds since 2001), `Data`, and optionals of them.
public typealias DBBValueConvertible = SQLiteValueConvertible

/// Arguments of SQL and of query options, written as Swift values (`[ada.id, "Doe", nil]`).
public typealias DBBArguments = SQLiteArguments
