#if Postgres
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
    /// Where the BEGIN of a writing transaction stands: it is sent before the transaction's
    /// first statement, not when the transaction starts, and not at all when that statement is
    /// its only one (``commitsWithNextStatement()``), which then commits on its own.
    private var begin = DeferredBegin.none
    private enum DeferredBegin {
        /// No writing transaction, or its BEGIN was sent.
        case none
        /// The transaction has sent nothing yet.
        case pending
        /// It has sent nothing yet, and its next statement is its only one.
        case pendingAlone
        /// Its only statement was sent on its own: it commits itself.
        case alone
        /// Its only statement was answered (it committed or failed): what follows is a query
        /// that writes nothing, so losing it loses no commit.
        case answeredAlone
    }
    /// Whether the manager is read-only: every transaction is `READ ONLY` and rolled back, and a
    /// statement outside one runs in one of its own (see ``run(_:original:_:)``).
    private let readOnly: Bool
    /// Whether the session goes to other clients between transactions (a transaction pooler):
    /// a statement that would leave something in it is refused (see ``run(_:original:_:)``).
    private let transactionPooling: Bool

    var hasOpenTransaction: Bool { isInTransaction || rawTransactionOpen }
    /// The failure that ended the session (the server went away, a FATAL error), after which
    /// nothing more is sent on this connection: postgres-nio may never answer a query sent
    /// to a connection the server closed mid-query, and the pool must not lend it again.
    private(set) var lostWith: PostgresFailure?
    /// How many statements other than transaction control and `SET` the server has answered
    /// on this lease: a read lost before the first answer handed nothing on, and may run again on
    /// another connection.
    private(set) var answers = 0

    /// Whether a statement reached the server on this lease outside a read-only transaction.
    /// Any may have written — a `SELECT` can call a function that inserts, directly, through a
    /// view or an operator, which no reading of its text sees — so the lease is not run again.
    private(set) var sentPossibleWrite = false
    /// Whether the last statement handed to ``SessionWatch`` was not sent at all (the session
    /// had already ended).
    private var lastNotSent = false

    /// Whether the connection was lost before the server answered anything on this lease, and
    /// nothing that may have written was sent: running the lease's work again elsewhere
    /// cannot apply anything twice.
    var isLostBeforeAnswer: Bool { lostWith != nil && answers == 0 && !sentPossibleWrite }
    var lastInsertedRowID: Int64 = 0
    var changes = 0
    /// The column names of the last statement's rows (none when it returned no row).
    private(set) var lastColumnNames: [String] = []

    init(
        _ pooled: PooledConnection, place: PostgresPlace, logger: Logger, numberedSQL: NumberedSQLCache,
        readOnly: Bool, transactionPooling: Bool
    ) {
        self.transactionPooling = transactionPooling
        connection = pooled.connection
        watch = pooled.watch
        self.numberedSQL = numberedSQL
        self.place = place
        self.logger = logger
        self.readOnly = readOnly
    }

    var dialect: any DBBDialect { PostgresDialect() }

    func statement(_ sql: String, clearing: Bool) throws -> any DatabaseStatement {
        if let statement = statements[sql] {
            if clearing { statement.clearBindings() }
            return statement
        }
        let statement = PostgresStatement(sql: sql, numbered: try single(sql), backend: self)
        statements[sql] = statement
        return statement
    }

    /// The one statement of `sql`, numbered.
    /// - Throws: when `sql` holds more than one.
    private func single(_ sql: String) throws -> PlaceholderSQL.Statement {
        let numbered = numberedSQL.numbered(sql).statements
        guard numbered.count == 1 else {
            throw DBBError(
                backend: .invalidOption,
                "a statement to run or query must be one statement; this SQL holds "
                    + "\(numbered.count): \(sql)")
        }
        return numbered[0]
    }

    /// Runs each statement of `sql` in turn, each taking as many of `arguments` as it has
    /// placeholders (as SQLite's `execute` does).
    func execute(_ sql: String, _ arguments: [DBBValue]) throws {
        let numbered = numberedSQL.numbered(sql).statements
        if numbered.count == 1 {
            _ = try run(numbered[0], original: sql, arguments)
            return
        }
        // Checked before anything runs: a mismatch or a refused statement writes nothing.
        for statement in numbered { try refuseSessionState(statement, original: sql) }
        let parameters = numbered.reduce(0) { $0 + $1.parameterCount }
        guard parameters == arguments.count else {
            throw DBBError(
                backend: .invalidOption,
                "\(arguments.count) argument(s) given, but the SQL has \(parameters) "
                    + "parameter(s): \(sql)")
        }
        var remaining = arguments[...]
        // Whether an earlier statement of the text committed on its own (outside a transaction,
        // or by its COMMIT): then a lost connection later leaves something stored. And whether
        // an earlier query ran on its own: a function it called may have written and committed.
        var committed = false
        var queriedAlone = false
        for statement in numbered {
            let commits = mayCommit(statement)
            let alone = !hasOpenTransaction && !readOnly && statement.isQuery
            do {
                _ = try run(statement, original: statement.text, Array(remaining.prefix(statement.parameterCount)))
            } catch let failure as PostgresFailure where committed && failure.endsSession {
                throw failure.commitInFlight()
            } catch let failure as PostgresFailure where committed {
                throw failure.afterEarlierCommit()
            } catch let failure as PostgresFailure where queriedAlone {
                throw failure.leaving(
                    "queries before it in the same SQL text ran on their own, and a function they called may have "
                        + "stored something that stays: repeating the text repeats them")
            }
            committed = committed || commits
            queriedAlone = queriedAlone || alone
            remaining = remaining.dropFirst(statement.parameterCount)
        }
    }

    /// Whether `statement`, run now, may commit a write of its own: the `COMMIT` of a
    /// transaction that may write, or a statement outside a transaction that is not a query
    /// (each commits on its own) — never on a read-only manager.
    private func mayCommit(_ statement: PlaceholderSQL.Statement) -> Bool {
        if begin == .alone { return true }
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
            if let deadline = StatementDeadline.current { try execute(Self.limit(deadline), []) }
        } else {
            try body()
        }
    }

    /// The statement that bounds the statements of the transaction that just began.
    private static func limit(_ deadline: StatementDeadline) -> String {
        "SET LOCAL statement_timeout = \(deadline.milliseconds)"
    }

    /// Runs one statement and returns its answer; records the rows changed and, for an INSERT
    /// that returns one `id`, that id.
    ///
    /// On a read-only manager a statement outside a transaction runs in a `READ ONLY`
    /// transaction of its own, rolled back: what it could change of the session
    /// (`set_config(…)`) is undone with it, and the next statement on the connection is as
    /// read-only as the first.
    func run(_ statement: PlaceholderSQL.Statement, original: String, _ arguments: [DBBValue]) throws
        -> PostgresQueryResult
    {
        if readOnly && !hasOpenTransaction && !statement.controlsTransactions {
            try execute("BEGIN READ ONLY", [])
            do {
                let answer = try send(statement, original: original, arguments)
                try execute("ROLLBACK", [])
                return answer
            } catch {
                try? execute("ROLLBACK", [])
                throw error
            }
        }
        if let deadline = StatementDeadline.current, !hasOpenTransaction, !statement.controlsTransactions {
            if statement.mayCommitInside || statement.runsOnlyOutsideTransactions {
                return try bounded(statement, by: deadline) { try alone(statement, original: original, arguments) }
            }
            return try inTransactionOfItsOwn(statement, original: original, arguments)
        }
        return try alone(statement, original: original, arguments)
    }

    /// Runs `statement` as it is — in the transaction open, or on its own — its failure
    /// carrying what it leaves behind when run outside a transaction (``PlaceholderSQL/Statement/whatFailureLeaves``).
    private func alone(_ statement: PlaceholderSQL.Statement, original: String, _ arguments: [DBBValue]) throws
        -> PostgresQueryResult
    {
        let outside = !hasOpenTransaction
        let readOnlyTransaction = !outside && !transactionMayWrite
        defer { if !readOnlyTransaction { noteSent(statement) } }
        var answer: PostgresQueryResult?
        do {
            try running(statement) { answer = try send(statement, original: original, arguments) }
        } catch let failure as PostgresFailure where outside {
            guard let leaves = statement.whatFailureLeaves else { throw failure }
            throw failure.leaving(leaves)
        }
        return answer!
    }

    /// Records that `statement`, sent outside a read-only transaction, reached the server
    /// (unless it was not sent at all): see ``sentPossibleWrite``.
    private func noteSent(_ statement: PlaceholderSQL.Statement) {
        guard !readOnly, !lastNotSent, !statement.controlsTransactions else { return }
        sentPossibleWrite = true
    }

    /// Runs `statement` in a transaction of its own, which the deadline bounds (see
    /// ``running(_:_:)``): `READ ONLY` for a query, so that a `COMMIT` whose answer is lost
    /// stored nothing — and again writable should the query write after all (a function it
    /// calls; refused with SQLSTATE 25006, its transaction rolled back).
    private func inTransactionOfItsOwn(
        _ statement: PlaceholderSQL.Statement, original: String, _ arguments: [DBBValue], readOnly: Bool? = nil
    ) throws -> PostgresQueryResult {
        let reading = readOnly ?? statement.isQuery
        try execute(reading ? "BEGIN READ ONLY" : "BEGIN", [])
        do {
            var answer: PostgresQueryResult?
            try running(statement) { answer = try send(statement, original: original, arguments) }
            try execute("COMMIT", [])
            return answer!
        } catch {
            if lostWith == nil && hasOpenTransaction { try? execute("ROLLBACK", []) }
            if reading, lostWith == nil, (error as? PostgresFailure)?.server?.sqlState == "25006" {
                return try inTransactionOfItsOwn(statement, original: original, arguments, readOnly: false)
            }
            throw error
        }
    }

    /// Runs `body`, `statement` outside a transaction — one PostgreSQL refuses in a transaction
    /// block (`VACUUM`, `CREATE INDEX CONCURRENTLY`…), or a procedure or `DO` block that may
    /// commit, which a transaction block would forbid — under the deadline's
    /// `statement_timeout` for the session, set back to what it was afterwards (in the round
    /// trip that sets it, the value before is read). Behind a transaction pooler, which would
    /// hand the setting to another client, only the client-side deadline bounds it.
    private func bounded(
        _ statement: PlaceholderSQL.Statement, by deadline: StatementDeadline, _ body: () throws -> PostgresQueryResult
    ) throws -> PostgresQueryResult {
        guard !transactionPooling else { return try body() }
        // (Sent as they are: the deadline's own transaction would end with them.)
        let before = try alone(
            Self.settingTimeout.statement, original: Self.settingTimeout.text, [.text("\(deadline.milliseconds)")]
        ).rows.first.map { try $0.decode((String, String).self).0 }
        defer {
            let (changed, columns) = (changes, lastColumnNames)
            do {
                if lostWith == nil {
                    _ = try alone(
                        Self.restoringTimeout.statement, original: Self.restoringTimeout.text, [.text(before ?? "0")])
                }
            } catch {
                // A session that may keep the timeout is not used again.
                lostWith = lostWith ?? PostgresFailure.closedUnanswered(sql: Self.restoringTimeout.text, place: place)
            }
            (changes, lastColumnNames) = (changed, columns)
        }
        return try body()
    }

    /// Sets the session's `statement_timeout` to `$1` milliseconds, answering the value before.
    private static let settingTimeout = numbered(
        "SELECT current_setting('statement_timeout'), set_config('statement_timeout', $1, false)")
    private static let restoringTimeout = numbered("SELECT set_config('statement_timeout', $1, false)")

    private static func numbered(_ text: String) -> (text: String, statement: PlaceholderSQL.Statement) {
        (text, PlaceholderSQL(text).statements[0])
    }

    private func send(_ statement: PlaceholderSQL.Statement, original: String, _ arguments: [DBBValue]) throws
        -> PostgresQueryResult
    {
        try send(statement, original: original, Self.bindings(arguments), count: arguments.count) { "\(arguments)" }
    }

    private static func bindings(_ arguments: [DBBValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments { bindings.append(dbbValue: argument) }
        return bindings
    }

    /// Sends `statement` with `bindings`, `count` of them, described by `arguments` in the
    /// log, and waits for the answer on the calling thread.
    private func send(
        _ statement: PlaceholderSQL.Statement, original: String, _ bindings: PostgresBindings, count: Int,
        arguments: () -> String
    ) throws -> PostgresQueryResult {
        try beginIfPending(statement)
        let started = starting(original)
        let outcome = Result {
            try sendable(statement, original: original, count: count)
            return try watch.answer(on: connection, within: answerLimit.timeout) { query(statement, bindings) }
        }
        return try settle(outcome, statement, original: original, started: started, arguments: arguments)
    }

    /// Sends `statement` as the synchronous form does, and awaits the answer: the calling task
    /// suspends, and no thread waits for the server.
    private func send(
        _ statement: PlaceholderSQL.Statement, original: String, _ arguments: [DBBValue]
    ) async throws -> PostgresQueryResult {
        try beginIfPending(statement)
        let started = starting(original)
        let outcome: Result<SessionWatch.Outcome, any Error>
        do {
            try sendable(statement, original: original, count: arguments.count)
            let bindings = Self.bindings(arguments)
            outcome = .success(
                try await watch.answer(on: connection, within: answerLimit.timeout) { query(statement, bindings) })
        } catch {
            outcome = .failure(error)
        }
        return try settle(outcome, statement, original: original, started: started) { "\(arguments)" }
    }

    private func query(_ statement: PlaceholderSQL.Statement, _ bindings: PostgresBindings)
        -> EventLoopFuture<PostgresQueryResult>
    {
        connection.query(PostgresQuery(unsafeSQL: statement.text, binds: bindings), logger: logger)
    }

    /// How long a statement waits for its answer now: the manager's `answerTimeout`, or the
    /// call's statement timeout and a grace for the server's own cancel to arrive
    /// (``DBBManager/withStatementTimeout(_:_:)-(_,()->T)``), whichever is shorter; and its words.
    private var answerLimit: (timeout: Duration?, description: String) {
        let configured = watch.answerTimeout
        guard let deadline = StatementDeadline.current else {
            return (configured, "answerTimeout (\(configured ?? .zero))")
        }
        let grace = max(.seconds(1), deadline.timeout / 10)
        if let configured, configured <= deadline.timeout + grace {
            return (configured, "answerTimeout (\(configured))")
        }
        return (deadline.timeout + grace, "the statement timeout (\(deadline.timeout)) and \(grace) of grace")
    }

    /// Traces `original`, about to be sent, and returns when it started if its time is logged.
    private func starting(_ original: String) -> ContinuousClock.Instant? {
        traceHandler?(original)
        return logging != nil && plan != nil ? ContinuousClock.now : nil
    }

    /// Checks that `statement` can be sent with `count` arguments on this connection; behind a
    /// transaction pooler, that it leaves nothing in the session
    /// (``PlaceholderSQL/Statement/sessionState``).
    private func sendable(_ statement: PlaceholderSQL.Statement, original: String, count: Int) throws {
        if let lostWith { throw lostWith.later(sql: original) }
        try refuseSessionState(statement, original: original)
        guard count == statement.parameterCount else {
            throw DBBError(
                backend: .invalidOption,
                "the statement has \(statement.parameterCount) parameter(s) but "
                    + "\(count) argument(s) were given: \(original)")
        }
    }

    /// Refuses `statement` behind a transaction pooler when it would leave state in the session.
    private func refuseSessionState(_ statement: PlaceholderSQL.Statement, original: String) throws {
        guard transactionPooling, let kept = statement.sessionState else { return }
        throw DBBError(
            backend: .invalidOption,
            "\(kept) would stay in the server session after the transaction, and this manager is configured "
                + "for a transaction pooler (transactionPooling), which then hands that session to another "
                + "client: use what ends with the transaction (SET LOCAL, pg_advisory_xact_lock, CREATE TEMP "
                + "TABLE … ON COMMIT DROP) inside one, or connect to the server directly: \(original)")
    }

    /// The answer of a statement sent (`outcome`), logged; records the rows it changed, its
    /// column names and the id an INSERT returned.
    private func settle(
        _ outcome: Result<SessionWatch.Outcome, any Error>, _ statement: PlaceholderSQL.Statement, original: String,
        started: ContinuousClock.Instant?, arguments: () -> String
    ) throws -> PostgresQueryResult {
        let result: PostgresQueryResult
        do {
            result = try answer(outcome, statement, original: original)
        } catch {
            if let logging {
                let description =
                    (error as? PostgresFailure)?.logText(includingValues: logging.includesArgumentValues) ?? "\(error)"
                logging.failed(original, error: description, arguments: "arguments") { arguments() }
            }
            throw error
        }
        if let started, let plan, let logging {
            let elapsed = (ContinuousClock.now - started).nanosecondCount
            if plan.logs(elapsed) {
                logging.finished(original, nanoseconds: elapsed, arguments: "arguments") { arguments() }
            }
        }
        // Transaction control leaves the answer of the statement before it as it was: the
        // ROLLBACK that ends a read-only manager's statement, a COMMIT after the last write.
        guard !statement.controlsTransactions else { return result }
        if statement.leadingWord != "SET" { answers += 1 }
        lastColumnNames = result.rows.first.map { $0.map(\.columnName) } ?? []
        changes = result.metadata.rows ?? 0
        if result.metadata.command == "INSERT", result.rows.count == 1, let cell = result.rows[0].first,
            result.rows[0].count == 1, case .integer(let id) = try DBBValue(cell: cell)
        {
            lastInsertedRowID = id
        }
        return result
    }

    /// The answer in `outcome`, or the failure it stands for.
    private func answer(
        _ outcome: Result<SessionWatch.Outcome, any Error>, _ statement: PlaceholderSQL.Statement, original: String
    ) throws -> PostgresQueryResult {
        // The statement sent alone has its outcome once this returns: answered, or lost (and
        // reported as such by lost(_:_:)).
        defer { if begin == .alone { begin = .answeredAlone } }
        lastNotSent = false
        switch outcome {
        case .success(.answered(let answer)):
            return answer
        case .success(.notSent):
            lastNotSent = true
            // The session had ended: a transaction it held was rolled back, COMMIT or not.
            let failure = PostgresFailure.closedUnanswered(sql: original, place: place)
            lostWith = failure
            throw failure
        case .success(.unanswered):
            throw lost(PostgresFailure.closedUnanswered(sql: original, place: place), statement)
        case .success(.timedOut):
            throw lost(
                PostgresFailure.unansweredWithin(answerLimit.description, sql: original, place: place), statement)
        case .failure(let error as PSQLError):
            throw lost(PostgresFailure(error, sql: original, place: place), statement)
        case .failure(let error):
            throw error
        }
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
        let cursor = PostgresRowCursor()
        try running(numbered[0]) {
            cursor.start(
                try send(numbered[0], original: sql, bindings, count: arrays.count) { "\(arrays.map(\.values))" }.rows)
        }
        return try cursor.remaining()
    }

    /// Sends the BEGIN of the writing transaction before its first statement, `statement`,
    /// unless that statement is its only one.
    /// - Throws: when a statement that may write follows the one that committed on its own (a
    ///   query may: what the save reads after a refused UPDATE, to say why).
    private func beginIfPending(_ statement: PlaceholderSQL.Statement) throws {
        switch begin {
        case .none: return
        case .pendingAlone: begin = .alone
        case .pending:
            begin = .none
            try execute("BEGIN", [])
        case .alone, .answeredAlone:
            guard statement.isQuery else {
                throw DBBError(
                    backend: .invalidOption,
                    "a statement followed the one that was to be its transaction's only one, which has committed: "
                        + statement.text)
            }
        }
    }

    func commitsWithNextStatement() {
        // A statement bounded by a deadline needs the transaction that carries it.
        if begin == .pending && StatementDeadline.current == nil { begin = .pendingAlone }
    }

    func atomically<T>(_ mode: DatabaseTransactionMode, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        if mode == .immediate && !readOnly { return try writing(body) }
        // A read transaction must see one committed state across its statements (a fetch's rows,
        // join rows and referenced objects), as SQLite's does: READ COMMITTED, PostgreSQL's
        // default, takes a new snapshot per statement. It is READ ONLY, so that a COMMIT of it
        // whose answer is lost stored nothing; so is every transaction of a read-only manager,
        // which ends it with ROLLBACK, undoing whatever its statements changed of the session.
        let (begin, reads) = beginning(mode)
        try execute(begin, [])
        isInTransaction = true
        transactionMayWrite = !reads
        do {
            let result = try body()
            isInTransaction = false
            try execute(ending, [])
            return result
        } catch {
            isInTransaction = false
            try? execute("ROLLBACK", [])
            throw error
        }
    }

    /// Runs `body` in a writing transaction whose BEGIN waits for its first statement (see
    /// ``begin``): a transaction that sends nothing sends neither BEGIN nor COMMIT, and one
    /// whose only statement commits on its own, no COMMIT.
    private func writing<T>(_ body: () throws -> T) throws -> T {
        begin = .pending
        isInTransaction = true
        transactionMayWrite = true
        defer { (begin, isInTransaction) = (.none, false) }
        let result: T
        do {
            result = try body()
        } catch {
            isInTransaction = false
            if begin == .none { try? execute("ROLLBACK", []) }
            throw error
        }
        isInTransaction = false
        if begin == .none { try execute(ending, []) }
        return result
    }

    /// The statement that begins a transaction of `mode`, and whether the transaction only reads.
    private func beginning(_ mode: DatabaseTransactionMode) -> (sql: String, reads: Bool) {
        let reads = mode == .deferred || readOnly
        return switch (mode, reads) {
        case (.deferred, _): ("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", true)
        case (_, true): ("BEGIN READ ONLY", true)
        case (_, false): ("BEGIN", false)
        }
    }

    /// The statement that ends a transaction that succeeded.
    private var ending: String { readOnly ? "ROLLBACK" : "COMMIT" }

    /// Runs `plan` as one read. A plan whose first statement may be all of it
    /// (``RoundTripPlan/firstStatementMayBeAll``) sends that statement alone, outside a
    /// transaction — one statement sees one committed state, and BEGIN and COMMIT would be two
    /// more round trips; should the plan then ask for another, it starts again in a read
    /// transaction. Any other plan runs in a read transaction (or the one open), and so does
    /// every read of a read-only manager (see ``sendsAlone(_:)``).
    func read(_ plan: any RoundTripPlan) throws {
        if sendsAlone(plan) {
            guard let first = try plan.nextStatement() else { return }
            let statement = try single(first.sql)
            let answer: PostgresQueryResult
            do {
                answer = try send(statement, original: first.sql, first.arguments)
            } catch {
                noteSent(statement)
                throw error
            }
            try consume(answer, of: first, by: plan)
            guard try plan.nextStatement() != nil else { return }
            plan.restart()
        }
        try atomically(.deferred) {
            while let next = try plan.nextStatement() {
                try consume(try run(try single(next.sql), original: next.sql, next.arguments), of: next, by: plan)
            }
        }
    }

    /// Runs `plan` as the synchronous ``read(_:)-(RoundTripPlan)`` does, awaiting each answer:
    /// the calling task suspends while the server works, and makes what the rows become when
    /// it resumes.
    func read(_ plan: any RoundTripPlan) async throws {
        if sendsAlone(plan) {
            guard let first = try plan.nextStatement() else { return }
            let statement = try single(first.sql)
            let answer: PostgresQueryResult
            do {
                answer = try await send(statement, original: first.sql, first.arguments)
            } catch {
                noteSent(statement)
                throw error
            }
            try consume(answer, of: first, by: plan)
            guard try plan.nextStatement() != nil else { return }
            plan.restart()
        }
        try await send(beginning(.deferred).sql)
        isInTransaction = true
        transactionMayWrite = false
        do {
            if let deadline = StatementDeadline.current { try await send(Self.limit(deadline)) }
            while let next = try plan.nextStatement() {
                try consume(
                    try await send(try single(next.sql), original: next.sql, next.arguments), of: next, by: plan)
            }
            isInTransaction = false
            try await send(ending)
        } catch {
            isInTransaction = false
            if lostWith == nil { _ = try? await send("ROLLBACK") }
            throw error
        }
    }

    /// Whether `plan`'s first statement is sent alone, outside a transaction: never on a
    /// read-only manager, whose statements all run in a `READ ONLY` transaction rolled back —
    /// sent alone, a fetch's condition could change the session for good
    /// (`set_config('default_transaction_read_only', 'off', false)`), and the next statement
    /// on the pooled connection could write.
    private func sendsAlone(_ plan: any RoundTripPlan) -> Bool {
        plan.firstStatementMayBeAll && !hasOpenTransaction && !readOnly && StatementDeadline.current == nil
    }

    /// Hands the rows of `answer`, the answer to `statement`, to `plan`.
    private func consume(_ answer: PostgresQueryResult, of statement: PlannedStatement, by plan: any RoundTripPlan)
        throws
    {
        let cursor = PostgresRowCursor()
        cursor.start(answer.rows, arraysFrom: statement.arraysFrom)
        defer { cursor.clear() }
        try plan.consume(cursor)
    }

    /// Sends `sql`, one statement without arguments, awaiting its answer.
    private func send(_ sql: String) async throws {
        _ = try await send(try single(sql), original: sql, [])
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
    private let rows = PostgresRowCursor()
    private var ran = false

    init(sql: String, numbered: PlaceholderSQL.Statement, backend: PostgresBackend) {
        self.sql = sql
        self.numbered = numbered
        self.backend = backend
    }

    func bind(_ value: DBBValue, at index: Int) throws {
        if arguments.count < index {
            arguments.append(contentsOf: repeatElement(.null, count: index - arguments.count))
        }
        arguments[index - 1] = value
    }

    func bind(_ values: [DBBValue]) throws { arguments = values }

    func bind(contentsOf values: UnsafeBufferPointer<DBBValue>, from first: Int) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: first + offset) }
    }

    /// Forgets the arguments bound so far (a parameter left unbound is sent as `NULL`).
    func clearBindings() { arguments.removeAll(keepingCapacity: true) }

    func step() throws -> Bool {
        if !ran { try run() }
        return try rows.step()
    }

    func execute() throws {
        try run()
        reset()
    }

    private func run() throws {
        rows.start(try backend.run(numbered, original: sql, arguments).rows)
        columnNames = backend.lastColumnNames
        ran = true
    }

    func reset() {
        rows.clear()
        ran = false
    }

    var reader: DBBColumnReader { rows.reader }

    /// The names of the columns of the rows the last run returned: known once the statement
    /// ran and returned a row (the ORM itself reads columns by index).
    private(set) var columnNames: [String] = []
}
#endif
