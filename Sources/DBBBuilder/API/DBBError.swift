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
    /// What kind of failure a ``DBBError`` is.
    ///
    /// A set of values, not a closed `enum`: a later version may add kinds without breaking a
    /// `switch` over them, which needs a `default:` case. Match a kind with `==` or a `case`
    /// pattern (`case .rowNotFound:`); ask the error's predicates
    /// (``DBBError/isConstraintViolation``, ``DBBError/isConnectionLost``, ``DBBError/isTimeout``…)
    /// for what a backend's detail means, on either backend.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case sqlite, server, unknownProperty, invalidOption, invalidMapping, nonHomogeneousBatch, unavailable,
                commitOutcomeUnknown, timedOut, foreignObject, rowNotFound, rowChanged, invalidValue, migrationRefused,
                readOnly
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The kind's name, as in `.rowNotFound`: `rowNotFound`.
        public var description: String { base.rawValue }

        /// SQLite refused a statement; see ``DBBError/sqliteError``.
        public static let sqlite = Kind(.sqlite)

        /// The database server refused a statement; see ``DBBError/serverError`` (SQLSTATE,
        /// the server's message, the SQL).
        public static let server = Kind(.server)

        /// An options item or an indexer names a property the class does not map.
        public static let unknownProperty = Kind(.unknownProperty)

        /// A query option cannot be used (e.g. a sort item that is not a property).
        public static let invalidOption = Kind(.invalidOption)

        /// A mapping is inconsistent (two properties on one column, a reserved name…).
        public static let invalidMapping = Kind(.invalidMapping)

        /// A batch mixes objects of different classes; nothing was written.
        public static let nonHomogeneousBatch = Kind(.nonHomogeneousBatch)

        /// The database could not be used: it could not be opened or reached, was closed, its
        /// connection was lost before a transaction committed, or no pooled connection came
        /// free in time. Nothing of the operation was stored.
        public static let unavailable = Kind(.unavailable)

        /// The connection was lost while `COMMIT` was on its way to the server or its answer on
        /// its way back: the transaction may or may not have been committed, and only the
        /// database can tell. The objects are as they were before the save (a new object has
        /// no id). Look for the write (by a unique key, or the row's `modifiedTime`) before
        /// repeating it, or repeat it in a form that cannot apply twice: a conditional save
        /// (``DBBTableObject/save(ifModifiedTimeIs:)-jirm``), an insert refused by a `UNIQUE`
        /// key. PostgreSQL only: SQLite's commit is in the process.
        public static let commitOutcomeUnknown = Kind(.commitOutcomeUnknown)

        /// A deadline passed. The server cancelled a statement that ran past its
        /// `statement_timeout` or `lock_timeout` (SQLSTATE `57014`, `55P03`): the statement's
        /// transaction rolled back, nothing of it was stored, and the connection goes on. Or the
        /// server answered nothing within the manager's `answerTimeout`: its connection was
        /// closed, and nothing was stored (were a `COMMIT` on its way, the kind would be
        /// ``commitOutcomeUnknown``). Safe to retry; ``DBBError/serverError`` has the server's
        /// words when it gave them. PostgreSQL only.
        public static let timedOut = Kind(.timedOut)

        /// An object was saved, deleted or referred to through a manager other than the one
        /// that created or fetched it. Use ``DBBManager/copy(_:)`` to put objects into another database.
        public static let foreignObject = Kind(.foreignObject)

        /// The object's row is gone (deleted by another copy, manager, process or raw SQL):
        /// the save is refused rather than insert the row again under its old id.
        public static let rowNotFound = Kind(.rowNotFound)

        /// A conditional save (``DBBTableObject/save(ifModifiedTimeIs:)-jirm``) found the row written
        /// since the `modifiedTime` it expected: another writer got there first. Nothing was
        /// written; fetch the object again to see the row as it is.
        public static let rowChanged = Kind(.rowChanged)

        /// A value SQLite cannot store or that does not read back as the property's type
        /// (`NaN`, a `NULL` element in a number array); ``DBBError/property`` names the property.
        public static let invalidValue = Kind(.invalidValue)

        /// A migration that cannot be applied without changing or losing stored data: a column
        /// whose declared type no longer matches its property, a property whose new type would
        /// not give a stored value back (300 for an `Int8`: ``DBBError/rowID`` names the row),
        /// a `NOT NULL UNIQUE` property
        /// added to a table with rows, `UNIQUE` added to a property whose rows share a value or
        /// `NOT NULL` to one whose rows hold `NULL`, a table (not made by DBBBuilder) whose `id`
        /// is not an `INTEGER PRIMARY KEY`; or a read-only manager registering a class whose
        /// table or columns do not exist. Nothing was changed.
        public static let migrationRefused = Kind(.migrationRefused)

        /// The manager was opened read-only (``DBBManager/isReadOnly``) and the call would
        /// write: a save, a delete, a copy into its database, a change of its version or
        /// indexes. It was refused before any SQL was sent; nothing was written, and the
        /// objects are as they were. Open the database through a manager that may write.
        public static let readOnly = Kind(.readOnly)
    }

    /// What kind of failure.
    public let kind: Kind
    /// The table (class short name) involved, if any.
    public private(set) var table: String?
    /// The property involved, if known.
    public private(set) var property: String?
    /// What went wrong, in words.
    public private(set) var message: String
    /// The SQLite error underneath, with its code, message and SQL.
    public let sqliteError: SQLiteError?
    /// The id of the row involved (``Kind/rowNotFound``, ``Kind/foreignObject``, a fetch's or a
    /// type change's value that does not fit the property), if any.
    public private(set) var rowID: Int64?
    /// The server's error underneath (``Kind/server``, and ``Kind/unavailable`` when the server
    /// answered): SQLSTATE, message, SQL, host and database.
    public let serverError: DBBServerError?
    /// What the backend knew of the failure beyond its kind (see ``Conditions``).
    var conditions: Conditions = []

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
        var error = self
        (error.table, error.property, error.rowID) = (
            self.table ?? table, self.property ?? property, self.rowID ?? rowID
        )
        return error
    }

    /// The same error about the value a fetch read from row `rowID` of `type`'s table, saying
    /// so in its message: which row to change, or that the property needs a wider type.
    func reading(row rowID: Int64, of type: DBBTableObject.Type) -> DBBError {
        var error = self
        error.message +=
            ", in row id \(rowID) of \(String(reflecting: type)): change that row, or give the property a type that "
            + "holds its value"
        return error
    }

    /// The same error, after which `note` stays stored (statements of the same SQL text that
    /// ran before it on their own): ``DBBError/isRetryable`` is then `false`.
    func leaving(_ note: String) -> DBBError {
        var error = self
        error.message += " — " + note
        error.conditions.insert(.leftSomethingStored)
        return error
    }

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
    /// An error of a backend module, about `table` and `property` when known, with what the
    /// backend knows of it beyond its kind.
    @_spi(DBBBackend)
    public init(
        backend kind: Kind, table: String? = nil, property: String? = nil, _ message: String,
        serverError: DBBServerError? = nil, conditions: Conditions = []
    ) {
        self.init(kind, table: table, property: property, message, serverError: serverError)
        self.conditions = conditions
    }

    /// What a backend knows of a failure beyond its kind and its SQLSTATE, which the
    /// predicates (``DBBError/isConnectionLost``, ``DBBError/isTimeout``,
    /// ``DBBError/isRetryable``) read.
    @_spi(DBBBackend)
    public struct Conditions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The connection to the server could not be opened, or broke during the operation.
        public static let connectionLost = Conditions(rawValue: 1 << 0)
        /// A deadline passed: a statement or lock timeout, no answer in time, no pooled
        /// connection free in time.
        public static let timeout = Conditions(rawValue: 1 << 1)
        /// Part of the call stays stored despite the failure (statements of the same text that
        /// committed before it): repeating the call as it is repeats that part.
        public static let leftSomethingStored = Conditions(rawValue: 1 << 2)
        /// A lock the statement needed was not granted within the lock timeout (PostgreSQL's
        /// `lock_timeout`, SQLSTATE `55P03`): another session held it.
        public static let lockNotGranted = Conditions(rawValue: 1 << 3)
    }
}
