@_spi(DBBBackend) import DBBBuilder
@_spi(DBBBackend) import DBBSQLite
import Logging
import NIOCore
import PostgresNIO

/// One leased PostgreSQL connection seen through the ORM's ``DatabaseConnection``: each
/// statement is one round trip (the extended protocol: parse, bind, execute), run
/// synchronously on the calling thread, which is never an event loop (see ``PostgresAccess``).
final class PostgresBackend: SetWritingConnection {
    let connection: PostgresConnection
    private let watch: SessionWatch
    let place: PostgresPlace
    private let logger: Logger
    private let numberedSQL: NumberedSQLCache
    private var statements: [String: PostgresStatement] = [:]
    private var traceHandler: DBBTraceHandler?
    /// The manager's statement logging (see ``DBBManager/logging``).
    private var logging: StatementLogging?
    /// Which statements ``logging`` logs (`nil`: none is timed).
    private var plan: StatementLogging.Plan?
    private var savepoints = 0
    private(set) var isInTransaction = false
    /// Whether raw SQL began a transaction that it has not ended (BEGIN without COMMIT).
    private var rawTransactionOpen = false
    /// Whether the open transaction may write (it is not `READ ONLY`): a `COMMIT` of it whose
    /// answer is lost may have stored something.
    private var transactionMayWrite = false
    /// Whether the manager is read-only: every transaction is `READ ONLY` and rolled back, and a
    /// statement outside one runs in one of its own (see ``run(_:original:_:)``).
    private let readOnly: Bool

    var hasOpenTransaction: Bool { isInTransaction || rawTransactionOpen }
    /// The failure that ended the session (the server went away, a FATAL error), after which
    /// nothing more is sent on this connection: postgres-nio may never answer a query sent
    /// to a connection the server closed mid-query, and the pool must not lend it again.
    private(set) var lostWith: PostgresFailure?
    var lastInsertedRowID: Int64 = 0
    var changes = 0
    /// The column names of the last statement's rows (none when it returned no row).
    private(set) var lastColumnNames: [String] = []

    init(
        _ pooled: PooledConnection, place: PostgresPlace, logger: Logger, numberedSQL: NumberedSQLCache,
        readOnly: Bool
    ) {
        connection = pooled.connection
        watch = pooled.watch
        self.numberedSQL = numberedSQL
        self.place = place
        self.logger = logger
        self.readOnly = readOnly
    }

    var dialect: DBBDialect { .postgresql }

    func statement(_ sql: String, clearing: Bool) throws -> any DatabaseStatement {
        if let statement = statements[sql] {
            if clearing { statement.clearBindings() }
            return statement
        }
        let numbered = numberedSQL.numbered(sql).statements
        guard numbered.count == 1 else {
            throw DBBError(
                backend: .invalidOption,
                "a statement to run or query must be one statement; this SQL holds "
                    + "\(numbered.count): \(sql)")
        }
        let statement = PostgresStatement(sql: sql, numbered: numbered[0], backend: self)
        statements[sql] = statement
        return statement
    }

    /// Runs each statement of `sql` in turn, each taking as many of `arguments` as it has
    /// placeholders (as SQLite's `execute` does).
    func execute(_ sql: String, _ arguments: [DBBValue]) throws {
        let numbered = numberedSQL.numbered(sql).statements
        if numbered.count == 1 {
            _ = try run(numbered[0], original: sql, arguments)
            return
        }
        // Counted before anything runs: a mismatch writes nothing.
        let parameters = numbered.reduce(0) { $0 + $1.parameterCount }
        guard parameters == arguments.count else {
            throw DBBError(
                backend: .invalidOption,
                "\(arguments.count) argument(s) given, but the SQL has \(parameters) "
                    + "parameter(s): \(sql)")
        }
        var remaining = arguments[...]
        // Whether an earlier statement of the text committed on its own (outside a transaction,
        // or by its COMMIT): then a lost connection later leaves something stored.
        var committed = false
        for statement in numbered {
            let commits = mayCommit(statement)
            do {
                _ = try run(statement, original: statement.text, Array(remaining.prefix(statement.parameterCount)))
            } catch let failure as PostgresFailure where committed && failure.endsSession {
                throw failure.commitInFlight()
            }
            committed = committed || commits
            remaining = remaining.dropFirst(statement.parameterCount)
        }
    }

    /// Whether `statement`, run now, may commit a write of its own: the `COMMIT` of a
    /// transaction that may write, or a statement outside a transaction that is not a query
    /// (each commits on its own) — never on a read-only manager.
    private func mayCommit(_ statement: PlaceholderSQL.Statement) -> Bool {
        if statement.commits { return transactionMayWrite }
        return !hasOpenTransaction && !readOnly && !statement.controlsTransactions && !statement.isQuery
    }

    /// Runs `body`, the execution of `statement`, keeping track of the transaction raw SQL
    /// opens and ends: a BEGIN opens one, a COMMIT, END, ROLLBACK or ABORT ends it (also when
    /// it fails: PostgreSQL has then ended the transaction anyway).
    private func running(_ statement: PlaceholderSQL.Statement, _ body: () throws -> Void) throws {
        if statement.endsTransaction {
            defer { (rawTransactionOpen, transactionMayWrite) = (false, false) }
            try body()
        } else if statement.leadingWord == "BEGIN" || statement.leadingWord == "START" {
            try body()
            rawTransactionOpen = true
            transactionMayWrite = !statement.text.uppercased().contains("READ ONLY")
        } else {
            try body()
        }
    }

    /// Runs one statement and returns its rows; records the rows changed and, for an INSERT
    /// that returns one `id`, that id.
    ///
    /// On a read-only manager a statement outside a transaction runs in a `READ ONLY`
    /// transaction of its own, rolled back: what it could change of the session
    /// (`set_config(…)`) is undone with it, and the next statement on the connection is as
    /// read-only as the first.
    func run(_ statement: PlaceholderSQL.Statement, original: String, _ arguments: [DBBValue]) throws -> [[DBBValue]] {
        if readOnly && !hasOpenTransaction && !statement.controlsTransactions {
            try execute("BEGIN READ ONLY", [])
            do {
                let rows = try send(statement, original: original, arguments)
                try execute("ROLLBACK", [])
                return rows
            } catch {
                try? execute("ROLLBACK", [])
                throw error
            }
        }
        var rows: [[DBBValue]] = []
        try running(statement) { rows = try send(statement, original: original, arguments) }
        return rows
    }

    private func send(_ statement: PlaceholderSQL.Statement, original: String, _ arguments: [DBBValue]) throws
        -> [[DBBValue]]
    {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { bindings.append(dbbValue: argument) }
        return try send(statement, original: original, bindings, count: arguments.count) { "\(arguments)" }
    }

    /// Sends `statement` with `bindings`, `count` of them, described by `arguments` in the log.
    private func send(
        _ statement: PlaceholderSQL.Statement, original: String, _ bindings: PostgresBindings, count: Int,
        arguments: () -> String
    ) throws -> [[DBBValue]] {
        traceHandler?(original)
        guard let logging else { return try sendUnlogged(statement, original: original, bindings, count: count) }
        let started = plan != nil ? ContinuousClock.now : nil
        do {
            let rows = try sendUnlogged(statement, original: original, bindings, count: count)
            if let started, let plan {
                let elapsed = (ContinuousClock.now - started).nanosecondCount
                if plan.logs(elapsed) {
                    logging.finished(original, nanoseconds: elapsed, arguments: "arguments") { arguments() }
                }
            }
            return rows
        } catch {
            let description =
                (error as? PostgresFailure)?.logText(includingValues: logging.includesArgumentValues) ?? "\(error)"
            logging.failed(original, error: description, arguments: "arguments") { arguments() }
            throw error
        }
    }

    private func sendUnlogged(
        _ statement: PlaceholderSQL.Statement, original: String, _ bindings: PostgresBindings, count: Int
    ) throws -> [[DBBValue]] {
        if let lostWith { throw lostWith.later(sql: original) }
        guard count == statement.parameterCount else {
            throw DBBError(
                backend: .invalidOption,
                "the statement has \(statement.parameterCount) parameter(s) but "
                    + "\(count) argument(s) were given: \(original)")
        }
        let numbered = statement.text
        let outcome: SessionWatch.Outcome
        do {
            outcome = try watch.answer(on: connection) {
                connection.query(PostgresQuery(unsafeSQL: numbered, binds: bindings), logger: logger)
            }
        } catch let error as PSQLError {
            throw lost(PostgresFailure(error, sql: original, place: place), statement)
        }
        let result: PostgresQueryResult
        switch outcome {
        case .answered(let answer):
            result = answer
        case .notSent:
            // The session had ended: a transaction it held was rolled back, COMMIT or not.
            let failure = PostgresFailure.closedUnanswered(sql: original, place: place)
            lostWith = failure
            throw failure
        case .unanswered:
            throw lost(PostgresFailure.closedUnanswered(sql: original, place: place), statement)
        }
        var rows: [[DBBValue]] = []
        rows.reserveCapacity(result.rows.count)
        lastColumnNames = result.rows.first.map { $0.map(\.columnName) } ?? []
        for row in result.rows {
            var values: [DBBValue] = []
            values.reserveCapacity(row.count)
            for cell in row { values.append(try DBBValue(cell: cell)) }
            rows.append(values)
        }
        changes = result.metadata.rows ?? 0
        if result.metadata.command == "INSERT", rows.count == 1, rows[0].count == 1, case .integer(let id) = rows[0][0]
        {
            lastInsertedRowID = id
        }
        return rows
    }

    /// `failure` of `statement`, sent to the server; when it ended the session, remembered as
    /// the end of this connection — and reported as a commit whose outcome is unknown when the
    /// server may have committed something before the session ended: the `COMMIT` of a
    /// transaction that may write, or a statement outside a transaction (which commits on its
    /// own) that is not a query. (An error the server answered with, after which the session
    /// goes on, means the statement or transaction rolled back.)
    private func lost(_ failure: PostgresFailure, _ statement: PlaceholderSQL.Statement) -> PostgresFailure {
        guard failure.endsSession else { return failure }
        let mayHaveCommitted = mayCommit(statement)
        lostWith = failure
        return mayHaveCommitted ? failure.commitInFlight() : failure
    }

    /// Runs `sql`, one statement of a set-based write inside the save's transaction, each of
    /// its parameters an array (see ``PostgresValueArray``).
    func execute(_ sql: String, arrays: [DBBValueArray]) throws -> [[DBBValue]] {
        let numbered = numberedSQL.numbered(sql).statements
        guard numbered.count == 1 else {
            throw DBBError(backend: .invalidOption, "a set-based write must be one statement: \(sql)")
        }
        var bindings = PostgresBindings(capacity: arrays.count)
        for array in arrays { bindings.append(PostgresValueArray(array)) }
        var rows: [[DBBValue]] = []
        try running(numbered[0]) {
            rows = try send(numbered[0], original: sql, bindings, count: arrays.count) {
                "\(arrays.map(\.values))"
            }
        }
        return rows
    }

    func atomically<T>(_ mode: DatabaseTransactionMode, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        // A read transaction must see one committed state across its statements (a fetch's rows,
        // join rows and referenced objects), as SQLite's does: READ COMMITTED, PostgreSQL's
        // default, takes a new snapshot per statement. It is READ ONLY, so that a COMMIT of it
        // whose answer is lost stored nothing; so is every transaction of a read-only manager,
        // which ends it with ROLLBACK, undoing whatever its statements changed of the session.
        let reads = mode == .deferred || readOnly
        let begin =
            switch (mode, reads) {
            case (.deferred, _): "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
            case (_, true): "BEGIN READ ONLY"
            case (_, false): "BEGIN"
            }
        try execute(begin, [])
        isInTransaction = true
        transactionMayWrite = !reads
        do {
            let result = try body()
            isInTransaction = false
            try execute(readOnly ? "ROLLBACK" : "COMMIT", [])
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

    func observe(trace handler: DBBTraceHandler?, logging: StatementLogging?) {
        traceHandler = handler
        self.logging = logging
        plan = logging.map(\.plan).flatMap { $0.timesStatements ? $0 : nil }
    }

    func close() { statements.removeAll() }
}

/// A statement of ``PostgresBackend``: its bindings, and the rows of its last run, which
/// ``step()`` walks.
final class PostgresStatement: DatabaseStatement {
    let sql: String
    private let numbered: PlaceholderSQL.Statement
    private unowned let backend: PostgresBackend
    private var arguments: [DBBValue] = []
    private var rows: [[DBBValue]] = []
    private var position = -1
    private var ran = false
    /// The current row, which ``reader`` points at: one place for the statement's life.
    private let current: UnsafeMutablePointer<DBBValueRow>
    private var capacity = 0

    init(sql: String, numbered: PlaceholderSQL.Statement, backend: PostgresBackend) {
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
        if arguments.count < index {
            arguments.append(contentsOf: repeatElement(.null, count: index - arguments.count))
        }
        arguments[index - 1] = value
    }

    func bind(_ values: [DBBValue]) throws { arguments = values }

    /// Forgets the arguments bound so far (a parameter left unbound is sent as `NULL`).
    func clearBindings() { arguments.removeAll(keepingCapacity: true) }

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
        columnNames = backend.lastColumnNames
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

    /// The names of the columns of the rows the last run returned: known once the statement
    /// ran and returned a row (the ORM itself reads columns by index).
    private(set) var columnNames: [String] = []
}
