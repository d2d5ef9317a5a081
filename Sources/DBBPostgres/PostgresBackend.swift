@_spi(DBBBackend) import DBBBuilder
import Logging
import NIOCore
import PostgresNIO

/// One leased PostgreSQL connection seen through the ORM's ``DatabaseConnection``: each
/// statement is one round trip (the extended protocol: parse, bind, execute), run
/// synchronously on the calling thread, which is never an event loop (see ``PostgresAccess``).
final class PostgresBackend: DatabaseConnection {
    let connection: PostgresConnection
    private let watch: SessionWatch
    let place: PostgresPlace
    private let logger: Logger
    private let numberedSQL: NumberedSQLCache
    private var statements: [String: PostgresStatement] = [:]
    private var traceHandler: DBBTraceHandler?
    private var savepoints = 0
    private(set) var isInTransaction = false
    /// The failure that ended the session (the server went away, a FATAL error), after which
    /// nothing more is sent on this connection: postgres-nio may never answer a query sent
    /// to a connection the server closed mid-query, and the pool must not lend it again.
    private(set) var lostWith: PostgresFailure?
    var lastInsertedRowID: Int64 = 0
    var changes = 0

    init(_ pooled: PooledConnection, place: PostgresPlace, logger: Logger, numberedSQL: NumberedSQLCache) {
        connection = pooled.connection
        watch = pooled.watch
        self.numberedSQL = numberedSQL
        self.place = place
        self.logger = logger
    }

    var dialect: DBBDialect { .postgresql }

    func statement(_ sql: String) throws -> any DatabaseStatement {
        if let statement = statements[sql] { return statement }
        let statement = PostgresStatement(sql: sql, numbered: numberedSQL.numbered(sql), backend: self)
        statements[sql] = statement
        return statement
    }

    func execute(_ sql: String, _ arguments: [DBBValue]) throws {
        _ = try run(numberedSQL.numbered(sql), original: sql, arguments)
    }

    /// Runs one statement and returns its rows; records the rows changed and, for an INSERT
    /// that returns one `id`, that id.
    func run(_ numbered: String, original: String, _ arguments: [DBBValue]) throws -> [[DBBValue]] {
        traceHandler?(original)
        if let lostWith { throw lostWith.later(sql: original) }
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { bindings.append(dbbValue: argument) }
        let answer: PostgresQueryResult?
        do {
            answer = try watch.answer(on: connection) {
                connection.query(PostgresQuery(unsafeSQL: numbered, binds: bindings), logger: logger)
            }
        } catch let error as PSQLError {
            let failure = PostgresFailure(error, sql: original, place: place)
            if failure.endsSession { lostWith = failure }
            throw failure
        }
        guard let result = answer else {
            let failure = PostgresFailure.closedUnanswered(sql: original, place: place)
            lostWith = failure
            throw failure
        }
        var rows: [[DBBValue]] = []
        rows.reserveCapacity(result.rows.count)
        for row in result.rows {
            var values: [DBBValue] = []
            values.reserveCapacity(row.count)
            for cell in row { values.append(try DBBValue(cell: cell)) }
            rows.append(values)
        }
        changes = result.metadata.rows ?? 0
        if result.metadata.command == "INSERT", rows.count == 1, rows[0].count == 1, case .integer(let id) = rows[0][0] {
            lastInsertedRowID = id
        }
        return rows
    }

    func atomically<T>(_ mode: DatabaseTransactionMode, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        // A read transaction must see one committed state across its statements (a fetch's rows,
        // join rows and referenced objects), as SQLite's does: READ COMMITTED, PostgreSQL's
        // default, takes a new snapshot per statement.
        try execute(mode == .deferred ? "BEGIN ISOLATION LEVEL REPEATABLE READ" : "BEGIN", [])
        isInTransaction = true
        do {
            let result = try body()
            isInTransaction = false
            try execute("COMMIT", [])
            return result
        } catch {
            isInTransaction = false
            try? execute("ROLLBACK", [])
            throw error
        }
    }

    func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepoints += 1
        let name = "dbb_\(savepoints)"
        defer { savepoints -= 1 }
        try execute("SAVEPOINT \(name)", [])
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT \(name)", [])
            return result
        } catch {
            try? execute("ROLLBACK TO SAVEPOINT \(name)", [])
            try? execute("RELEASE SAVEPOINT \(name)", [])
            throw error
        }
    }

    func trace(_ handler: DBBTraceHandler?) { traceHandler = handler }

    func close() { statements.removeAll() }
}

/// A statement of ``PostgresBackend``: its bindings, and the rows of its last run, which
/// ``step()`` walks.
final class PostgresStatement: DatabaseStatement {
    let sql: String
    private let numbered: String
    private unowned let backend: PostgresBackend
    private var arguments: [DBBValue] = []
    private var rows: [[DBBValue]] = []
    private var position = -1
    private var ran = false
    /// The current row, which ``reader`` points at: one place for the statement's life.
    private let current: UnsafeMutablePointer<DBBValueRow>
    private var capacity = 0

    init(sql: String, numbered: String, backend: PostgresBackend) {
        self.sql = sql
        self.numbered = numbered
        self.backend = backend
        current = UnsafeMutablePointer.allocate(capacity: 1)
        current.initialize(to: DBBValueRow(values: UnsafeMutablePointer.allocate(capacity: 0), count: 0))
    }

    deinit {
        clearRow()
        current.pointee.values.deallocate()
        current.deallocate()
    }

    private func clearRow() {
        current.pointee.values.deinitialize(count: current.pointee.count)
        current.pointee.count = 0
    }

    func bind(_ value: DBBValue, at index: Int) throws {
        if arguments.count < index { arguments.append(contentsOf: repeatElement(.null, count: index - arguments.count)) }
        arguments[index - 1] = value
    }

    func bind(_ values: [DBBValue]) throws { arguments = values }

    func step() throws -> Bool {
        if !ran { try run() }
        position += 1
        guard position < rows.count else { return false }
        let row = rows[position]
        clearRow()
        if row.count > capacity {
            current.pointee.values.deallocate()
            current.pointee.values = UnsafeMutablePointer.allocate(capacity: row.count)
            capacity = row.count
        }
        current.pointee.values.initialize(from: row, count: row.count)
        current.pointee.count = row.count
        return true
    }

    func execute() throws {
        try run()
        reset()
    }

    private func run() throws {
        rows = try backend.run(numbered, original: sql, arguments)
        ran = true
        position = -1
    }

    func reset() {
        clearRow()
        ran = false
        rows = []
        position = -1
    }

    var reader: DBBColumnReader { DBBColumnReader(row: current) }

    /// Known once the statement ran; the ORM reads columns by index.
    var columnNames: [String] { [] }
}
