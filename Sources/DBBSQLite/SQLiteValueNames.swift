@_exported import DBBCore

// The value model is the package's, in DBBCore (`DBBValue`); the SQLite layer keeps its own
// names for it, and for the protocols around it, so that code written against DBBSQLite reads
// as it did.

/// The SQLite layer's name for `DBBValue`: one of SQLite's five storage classes.
public typealias SQLiteValue = DBBValue

/// The SQLite layer's name for `DBBValueType`: SQLite's storage classes, numbered as
/// `sqlite3_column_type` reports them.
public typealias SQLiteType = DBBValueType

/// The SQLite layer's name for `DBBValueConvertible`.
public typealias SQLiteValueConvertible = DBBValueConvertible

/// The SQLite layer's name for `DBBIntegerConvertible`.
public typealias SQLiteIntegerConvertible = DBBIntegerConvertible

/// The SQLite layer's name for `DBBValueReader`, implemented by ``SQLiteRow`` and
/// ``SQLiteFunctionArguments``.
public typealias SQLiteValueReader = DBBValueReader

/// The SQLite layer's name for `DBBArguments`.
public typealias SQLiteArguments = DBBArguments

extension DBBValueConvertible {
    /// `DBBValueConvertible/databaseValue`, by the name the SQLite layer gave it before 1.1.0.
    public var sqliteValue: SQLiteValue { databaseValue }

    /// `DBBValueConvertible/init(databaseValue:)`, by the name the SQLite layer gave it
    /// before 1.1.0.
    public init?(sqliteValue: SQLiteValue) { self.init(databaseValue: sqliteValue) }
}

extension Array where Element == (any DBBValueConvertible)? {
    /// `databaseValues`, by the name the SQLite layer gave it before 1.1.0.
    public var sqliteValues: [SQLiteValue] { databaseValues }
}
