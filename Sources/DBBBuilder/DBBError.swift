import DBBSQLite

/// Why a DBBBuilder operation failed, naming the table, the property and the SQL involved.
///
/// ```swift
/// do {
///     try person.save()
/// } catch let error as DBBError {
///     print(error)   // Person.firstName: NOT NULL constraint failed: Person.firstName (SQLite error 1299 in `INSERT …`)
/// }
/// ```
public struct DBBError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Hashable {
        /// SQLite refused a statement; see ``DBBError/sqliteError``.
        case sqlite
        /// An options item or an indexer names a property the class does not map.
        case unknownProperty
        /// A query option cannot be used (e.g. a sort item that is not a property).
        case invalidOption
        /// A mapping is inconsistent (two properties on one column, a reserved name…).
        case invalidMapping
        /// A batch mixes objects of different classes; nothing was written.
        case nonHomogeneousBatch
        /// The database could not be opened, or was closed.
        case unavailable
    }

    /// What kind of failure.
    public let kind: Kind
    /// The table (class short name) involved, if any.
    public let table: String?
    /// The property involved, if known.
    public let property: String?
    /// What went wrong, in words.
    public let message: String
    /// The SQLite error underneath, with its code, message and SQL.
    public let sqliteError: SQLiteError?

    init(_ kind: Kind, table: String? = nil, property: String? = nil, _ message: String, sqliteError: SQLiteError? = nil) {
        self.kind = kind
        self.table = table
        self.property = property
        self.message = message
        self.sqliteError = sqliteError
    }

    /// An SQLite failure on `table`, naming the property when SQLite's message names its column.
    static func sqlite(_ error: SQLiteError, table: String?, mapping: TableMapping? = nil) -> DBBError {
        var property: String?
        if let mapping {
            // "NOT NULL constraint failed: Person.firstName", "UNIQUE constraint failed: Person.email"
            for column in mapping.columns where error.message.hasSuffix(".\(column.column)") || error.message.contains(".\(column.column),") {
                property = column.name
                break
            }
        }
        return DBBError(.sqlite, table: table, property: property, error.message, sqliteError: error)
    }

    public var description: String {
        var subject = table ?? ""
        if let property { subject += subject.isEmpty ? property : ".\(property)" }
        var text = subject.isEmpty ? message : "\(subject): \(message)"
        if let sqliteError {
            text += " (SQLite error \(sqliteError.extendedCode.rawValue)"
            if let sql = sqliteError.sql { text += " in `\(sql)`" }
            if let path = sqliteError.path, !path.isEmpty { text += ", file \(path)" }
            text += ")"
        }
        return text
    }
}
