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
        /// The database server refused a statement; see ``DBBError/serverError`` (SQLSTATE,
        /// the server's message, the SQL).
        case server
        /// An options item or an indexer names a property the class does not map.
        case unknownProperty
        /// A query option cannot be used (e.g. a sort item that is not a property).
        case invalidOption
        /// A mapping is inconsistent (two properties on one column, a reserved name…).
        case invalidMapping
        /// A batch mixes objects of different classes; nothing was written.
        case nonHomogeneousBatch
        /// The database could not be used: it could not be opened or reached, was closed, its
        /// connection was lost before a transaction committed, or no pooled connection came
        /// free in time. Nothing of the operation was stored.
        case unavailable
        /// The connection was lost while `COMMIT` was on its way to the server or its answer on
        /// its way back: the transaction may or may not have been committed, and only the
        /// database can tell. The objects are as they were before the save (a new object has
        /// no id). Look for the write (by a unique key, or the row's `modifiedTime`) before
        /// repeating it, or repeat it in a form that cannot apply twice: a conditional save
        /// (``DBBTableObject/save(ifModifiedTimeIs:)-jirm``), an insert refused by a `UNIQUE`
        /// key. PostgreSQL only: SQLite's commit is in the process.
        case commitOutcomeUnknown
        /// A deadline passed. The server cancelled a statement that ran past its
        /// `statement_timeout` or `lock_timeout` (SQLSTATE `57014`, `55P03`): the statement's
        /// transaction rolled back, nothing of it was stored, and the connection goes on. Or the
        /// server answered nothing within the manager's `answerTimeout`: its connection was
        /// closed, and nothing was stored (were a `COMMIT` on its way, the kind would be
        /// ``commitOutcomeUnknown``). Safe to retry; ``DBBError/serverError`` has the server's
        /// words when it gave them. PostgreSQL only.
        case timedOut
        /// An object was saved, deleted or referred to through a manager other than the one
        /// that created or fetched it. Use ``DBBManager/copy(_:)`` to put objects into another database.
        case foreignObject
        /// The object's row is gone (deleted by another copy, manager, process or raw SQL):
        /// the save is refused rather than insert the row again under its old id.
        case rowNotFound
        /// A conditional save (``DBBTableObject/save(ifModifiedTimeIs:)-jirm``) found the row written
        /// since the `modifiedTime` it expected: another writer got there first. Nothing was
        /// written; fetch the object again to see the row as it is.
        case rowChanged
        /// A value SQLite cannot store or that does not read back as the property's type
        /// (`NaN`, a `NULL` element in a number array); ``DBBError/property`` names the property.
        case invalidValue
        /// A migration that cannot be applied without changing or losing stored data: a column
        /// whose declared type no longer matches its property, a `NOT NULL UNIQUE` property
        /// added to a table with rows, `UNIQUE` added to a property whose rows share a value or
        /// `NOT NULL` to one whose rows hold `NULL`, a table (not made by DBBBuilder) whose `id`
        /// is not an `INTEGER PRIMARY KEY`; or a read-only manager registering a class whose
        /// table or columns do not exist. Nothing was changed.
        case migrationRefused
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
    /// The id of the row involved (``Kind/rowNotFound``, ``Kind/foreignObject``), if any.
    public let rowID: Int64?
    /// The server's error underneath (``Kind/server``, and ``Kind/unavailable`` when the server
    /// answered): SQLSTATE, message, SQL, host and database.
    public let serverError: DBBServerError?

    @usableFromInline
    init(
        _ kind: Kind, table: String? = nil, property: String? = nil, rowID: Int64? = nil, _ message: String,
        sqliteError: SQLiteError? = nil, serverError: DBBServerError? = nil
    ) {
        self.serverError = serverError
        self.kind = kind
        self.table = table
        self.property = property
        self.rowID = rowID
        self.message = message
        self.sqliteError = sqliteError
    }

    /// The same error about `table` and `property` where it names none yet: a value's error
    /// raised where only the value was known, completed by the code that knows whose it is.
    func about(table: String, property: String, rowID: Int64? = nil) -> DBBError {
        DBBError(
            kind, table: self.table ?? table, property: self.property ?? property, rowID: self.rowID ?? rowID, message,
            sqliteError: sqliteError, serverError: serverError)
    }

    /// An SQLite failure on `table`, naming the property when SQLite's message names its column.
    /// A backend's error about `mapping`'s table, naming the property of the column it names.
    static func backend(_ error: any DatabaseFailure, table: String?, mapping: TableMapping? = nil) -> DBBError {
        error.dbbError(table: table, columns: mapping?.columns.map { ($0.name, $0.column) } ?? [])
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
        if let serverError {
            var details = serverError.sqlState.map { ["SQLSTATE \($0)"] } ?? []
            if let sql = serverError.sql { details.append("in `\(sql)`") }
            text += " (" + (details + [serverError.location]).joined(separator: ", ") + ")"
        }
        return text
    }
}

extension DBBError {
    /// An error of a backend module, about `table` and `property` when known.
    @_spi(DBBBackend)
    public init(
        backend kind: Kind, table: String? = nil, property: String? = nil, _ message: String,
        serverError: DBBServerError? = nil
    ) {
        self.init(kind, table: table, property: property, message, serverError: serverError)
    }
}

/// What a database server said when it refused a statement or a connection.
public struct DBBServerError: Sendable, Hashable {
    /// The SQLSTATE code (`23505` for a unique violation), when the server sent one.
    public let sqlState: String?
    /// The server's message, and its detail when it sent one.
    public let message: String
    /// The SQL the server refused, when it was a statement.
    public let sql: String?
    /// The server's host (or socket) and port.
    public let host: String
    /// The database.
    public let database: String

    public init(sqlState: String?, message: String, sql: String?, host: String, database: String) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.host = host
        self.database = database
    }

    /// `database app on db.example.com:5432`.
    public var location: String { "database \(database) on \(host)" }
}
