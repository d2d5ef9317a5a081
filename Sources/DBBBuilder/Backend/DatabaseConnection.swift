import DBBSQLite

// The seam between the ORM and a database engine. Schema, persistence and query code use only
// these protocols and the SQL of their connection's dialect (`SQL/`); SQLite implements them
// here (`SQLiteBackend`), PostgreSQL in the DBBPostgres module. They are `public` only for
// backend modules (`@_spi(DBBBackend)`), not part of the API applications use.

/// How a transaction starts: ``immediate`` takes the write lock at once (SQLite's `BEGIN
/// IMMEDIATE`; a server's plain `BEGIN`); ``deferred`` is for reads, which must all see one
/// committed state (SQLite's `BEGIN DEFERRED`; PostgreSQL's `REPEATABLE READ`).
@_spi(DBBBackend)
public enum DatabaseTransactionMode: Sendable {
    case deferred, immediate
}

/// One connection of a backend, used by one thread at a time.
@_spi(DBBBackend)
public protocol DatabaseConnection: AnyObject {
    /// The SQL spelling this connection understands.
    var dialect: any DBBDialect { get }
    /// A prepared statement for `sql` (one statement, `?` placeholders), cached by the
    /// connection for the next call with the same text. `clearing: false` may leave the last
    /// use's bindings in place: only for a caller that binds every parameter.
    func statement(_ sql: String, clearing: Bool) throws -> any DatabaseStatement
    /// Runs one statement of `sql` with `arguments`, ignoring rows. Schema statements run
    /// once go through here, so a backend need not cache them.
    func execute(_ sql: String, _ arguments: [DBBValue]) throws
    /// The id of the row the last INSERT made on this connection.
    var lastInsertedRowID: Int64 { get }
    /// The rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { get }
    /// Runs `body` in a transaction, or in a savepoint when one is open: committed (released)
    /// when it returns, rolled back when it throws.
    func atomically<T>(_ mode: DatabaseTransactionMode, _ body: () throws -> T) throws -> T
    /// Runs `body` in a savepoint: released when it returns, rolled back to when it throws.
    func savepoint<T>(_ body: () throws -> T) throws -> T
    /// Runs `plan` in a read transaction (``atomically(_:_:)`` with `.deferred`), or in the
    /// transaction open on the connection: every statement sees one committed state.
    func read(_ plan: any RoundTripPlan) throws
    /// Says that the next statement is the only one of the writing transaction that
    /// ``atomically(_:_:)`` opened: a backend whose BEGIN and COMMIT cost round trips may send
    /// it alone, to commit on its own. A no-op once the transaction has sent a statement.
    func commitsWithNextStatement()
    /// Whether a transaction is open on the connection: one of ``atomically(_:_:)``, or one
    /// that raw SQL began.
    var hasOpenTransaction: Bool { get }
    /// Installs (or with `nil` removes) the statement trace handler and the statement logging.
    func observe(trace handler: DBBTraceHandler?, logging: StatementLogging?)
    /// Closes the connection.
    func close()
    /// The connection as one that writes sets of rows, or `nil` (a protocol requirement, not
    /// a cast: a cast looks the conformance up at every save).
    var setWriting: (any SetWritingConnection)? { get }
}

extension DatabaseConnection {
    @_spi(DBBBackend)
    public var setWriting: (any SetWritingConnection)? { nil }

    @_spi(DBBBackend)
    public func commitsWithNextStatement() {}

    @_spi(DBBBackend)
    public func read(_ plan: any RoundTripPlan) throws {
        try atomically(.deferred) { try run(plan) }
    }

    /// A prepared statement for `sql`, its bindings cleared.
    @_spi(DBBBackend)
    public func statement(_ sql: String) throws -> any DatabaseStatement { try statement(sql, clearing: true) }

    /// Runs `sql` without arguments.
    func execute(_ sql: String) throws { try execute(sql, []) }

    /// Runs `sql` with `arguments` and calls `body` with each row.
    func forEachRow(_ sql: String, _ arguments: [DBBValue] = [], _ body: (DBBColumnReader) throws -> Void) throws {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        let reader = statement.reader
        while try statement.step() { try body(reader) }
    }

    /// Every row of `sql`, transformed.
    func fetchAll<T>(_ sql: String, _ arguments: [DBBValue] = [], _ transform: (DBBColumnReader) throws -> T) throws
        -> [T]
    {
        var rows: [T] = []
        try forEachRow(sql, arguments) { rows.append(try transform($0)) }
        return rows
    }

    /// The first column of the first row of `sql` as `T`, or `nil` when there is no row or it is `NULL`.
    func fetchValue<T: DBBValueConvertible>(_ sql: String, _ arguments: [DBBValue] = [], as type: T.Type) throws -> T? {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        return T(databaseValue: statement.reader.value(at: 0))
    }
}
