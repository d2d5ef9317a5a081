import CSQLite
import Foundation
import Logging

/// One connection to an SQLite database: a file path, `:memory:`, or a `file:` URI.
///
/// ```swift
/// let connection = try SQLiteConnection(path: "/var/lib/app/app.sqlite")
/// try connection.execute("CREATE TABLE IF NOT EXISTS person (id INTEGER PRIMARY KEY, name TEXT)")
/// try connection.execute("INSERT INTO person (name) VALUES (?)", ["Zoë"])
/// let names = try connection.fetchAll("SELECT name FROM person") { $0.string(at: 0) ?? "" }
/// ```
///
/// Opening checks that the file really is a database (a file that is not fails with
/// ``SQLiteResultCode/notADatabase`` and is left byte for byte as it was), then applies the
/// ``SQLiteConfiguration``: WAL for writable files, busy timeout, foreign keys, extended
/// result codes.
///
/// A connection is not thread-safe: use it from one thread or task at a time (it is not
/// `Sendable`). ``close()`` finalizes every statement the connection prepared; `deinit` closes.
///
/// See [Database Connection Handle](https://www.sqlite.org/c3ref/sqlite3.html).
public final class SQLiteConnection {
    /// The path or URI the connection was opened with.
    public let path: String

    /// The configuration the connection was opened with.
    public let configuration: SQLiteConfiguration

    /// The `sqlite3*` handle, `nil` once closed: for C libraries and for
    /// `DBBLocale.registerFunctions(on:)`. Do not close it yourself.
    // The handle and the statement cache are touched by every statement run: they skip
    // Swift's run-time exclusivity check (a same-thread overlap detector; neither is
    // written while user code runs inside an access to it).
    @exclusivity(unchecked) public private(set) var handle: OpaquePointer?

    @exclusivity(unchecked) var cache: StatementCache
    /// Shared with the statements: a close requested while one of them runs.
    let activity = ConnectionActivity()
    private var liveStatements: [ObjectIdentifier: LiveStatement] = [:]
    var savepointCounter = 0
    /// The handler installed by ``trace(_:)``.
    var traceHandler: SQLiteTraceHandler?
    /// What SQLite's trace callback reaches: the trace handler and the logging, retained
    /// while SQLite points at it.
    var observer: StatementObserver?

    /// How the connection logs its statements (see ``StatementLogging``); `nil`, the default,
    /// logs nothing. Setting it reads the logger's level then.
    public var logging: StatementLogging? {
        didSet { installObserver() }
    }

    /// Opens (and, by default, creates) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: a file path, `":memory:"` for a private in-memory database, or a `file:` URI
    ///     (`file:data.sqlite?mode=ro`; see [URI filenames](https://www.sqlite.org/uri.html)).
    ///   - configuration: access, journal mode, busy timeout, foreign keys, cache size.
    ///   - logger: where to log statements (see ``StatementLogging``, whose defaults this
    ///     uses); `nil` logs nothing.
    /// - Throws: ``SQLiteError`` naming the file: ``SQLiteResultCode/cantOpen`` for a missing
    ///   file or folder, ``SQLiteResultCode/notADatabase`` for a file that is not a database.
    public init(
        path: String, configuration: SQLiteConfiguration = SQLiteConfiguration(), logger: Logger? = nil
    ) throws {
        self.path = path
        self.configuration = configuration
        self.cache = StatementCache(capacity: configuration.statementCacheCapacity)

        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        switch configuration.access {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            var error = SQLiteError.from(db, resultCode: code)
            error = SQLiteError(code: error.extendedCode, message: error.message, path: path)
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        do {
            try configure(db)
        } catch let error as SQLiteError {
            close()
            throw SQLiteError(code: error.extendedCode, message: error.message, sql: error.sql, path: path)
        }
        if let logger {
            logging = StatementLogging(logger: logger)
            installObserver()  // property observers do not run in an initializer
        }
    }

    /// Opens a private in-memory database, gone when the connection closes.
    public static func inMemory(configuration: SQLiteConfiguration = SQLiteConfiguration()) throws -> SQLiteConnection {
        try SQLiteConnection(path: ":memory:", configuration: configuration)
    }

    deinit { closeNow() }

    private func configure(_ db: OpaquePointer) throws {
        sqlite3_extended_result_codes(db, 1)
        let quotes: Int32 = configuration.doubleQuotedStrings ? 1 : 0
        _ = dbb_sqlite_db_config_flag(db, SQLITE_DBCONFIG_DQS_DML, quotes)
        _ = dbb_sqlite_db_config_flag(db, SQLITE_DBCONFIG_DQS_DDL, quotes)
        let milliseconds =
            configuration.busyTimeout.components.seconds * 1000
            + configuration.busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(db, Int32(clamping: milliseconds))
        let deadline = ContinuousClock.now + configuration.busyTimeout
        // A read of the schema: the first real look at the file, before anything may write.
        // A file that is not a database fails here, untouched.
        try retryingWhileBusy(until: deadline) { try execute("SELECT count(*) FROM sqlite_master") }
        if let mode = configuration.journalMode, !isInMemory, !isReadOnly {
            // Switching to WAL takes an exclusive lock and SQLite does not call the busy
            // handler for it: another connection opening the same file at this moment makes
            // it fail at once. Retried here for as long as the busy timeout allows.
            try retryingWhileBusy(until: deadline) { try execute("PRAGMA journal_mode = \(mode.rawValue)") }
        }
        try execute(configuration.foreignKeys ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
    }

    /// Runs `body` again while it fails with `SQLITE_BUSY` or `SQLITE_LOCKED`, sleeping a
    /// little longer each time (1 ms up to 20 ms), until `deadline`; then the last error stands.
    private func retryingWhileBusy(until deadline: ContinuousClock.Instant, _ body: () throws -> Void) throws {
        var pause = Duration.milliseconds(1)
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.code == .busy || error.code == .locked {
                guard ContinuousClock.now + pause < deadline else { throw error }
                Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
                pause = min(pause * 2, .milliseconds(20))
            }
        }
    }

    // MARK: - State

    /// The file of the main database: an absolute path, or `""` for in-memory databases.
    public var filename: String { handle.map(databasePath) ?? "" }

    /// Whether the main database lives in memory.
    public var isInMemory: Bool { filename.isEmpty }

    /// Whether the main database is read-only.
    public var isReadOnly: Bool { handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? true }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { handle == nil || activity.closeRequested }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// The rowid of the latest successful `INSERT` on this connection.
    public var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Rows changed by the latest `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }

    /// Rows changed since the connection opened.
    public var totalChanges: Int { handle.map { Int(sqlite3_total_changes64($0)) } ?? 0 }

    /// How many statements the cache holds.
    public var cachedStatementCount: Int { cache.count }

    // MARK: - Closing

    /// Finalizes every statement of this connection (cached or not) and closes the database.
    /// Statements still referenced elsewhere throw ``SQLiteResultCode/misuse`` afterwards. A row
    /// is valid until the next step, the reset or the close: do not keep one across a close.
    /// Calling it again does nothing.
    ///
    /// Called while one of the connection's statements runs — from the closure of
    /// ``forEachRow(_:_:_:)`` or ``fetchAll(_:_:_:)``, a SQL function, a trace handler — it does not
    /// pull that statement from under its caller: the connection counts as closed at once
    /// (``isClosed``, and preparing throws), the running statement's next step throws
    /// ``SQLiteResultCode/misuse`` (the current row stays readable), and the database is closed
    /// when the statement stops.
    public func close() {
        guard handle != nil, !activity.closeRequested else { return }
        guard activity.running == 0 else {
            activity.closeRequested = true
            return
        }
        closeNow()
    }

    /// Completes a ``close()`` requested while a statement ran, once none runs.
    func statementStopped() {
        if activity.closeRequested && activity.running == 0 { closeNow() }
    }

    private func closeNow() {
        guard let db = handle else { return }
        // Every statement first, while each is alive: emptying the cache may end a statement,
        // and one ending inside the connection's `deinit` cannot reach the connection to leave
        // ``liveStatements`` (its weak reference is nil by then).
        for entry in liveStatements.values { entry.statement.finalize() }
        liveStatements.removeAll()
        cache.removeAll()
        sqlite3_close_v2(db)
        handle = nil
        traceHandler = nil
        observer = nil
        activity.closeRequested = false
    }

    // MARK: - Preparing

    /// Prepares one statement that you own. Prefer ``cachedStatement(_:clearingBindings:)`` for
    /// SQL run repeatedly.
    /// - Parameter sql: one SQL statement, with `?` or `:name` placeholders.
    /// - Throws: ``SQLiteError`` naming the SQL, e.g. for a syntax error or several statements.
    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try requireOne(prepareFirst(sql, persistent: false), sql: sql)
    }

    /// The connection's prepared statement for `sql`, prepared on first use and then reused
    /// (reset, bindings cleared). While that statement is in the middle of stepping, a
    /// separate statement is prepared instead, so nested queries never disturb each other.
    ///
    /// - Parameters:
    ///   - sql: one SQL statement, with `?` or `:name` placeholders; the cache's key.
    ///   - clearingBindings: `false` keeps the previous use's bindings: for a caller that binds
    ///     every parameter anyway, it saves SQLite going through them.
    public func cachedStatement(_ sql: String, clearingBindings: Bool = true) throws -> SQLiteStatement {
        if let statement = idleCachedStatement(sql, clearingBindings: clearingBindings) { return statement }
        return try requireOne(cachedOrPrepared(sql), sql: sql)
    }

    /// The cached statement for `sql` when it is not stepping: the common case, without the
    /// outcome enum of ``cachedOrPrepared(_:)``.
    private func idleCachedStatement(_ sql: String, clearingBindings: Bool) -> SQLiteStatement? {
        guard let statement = cache.statement(for: sql), !statement.isBusy else { return nil }
        if clearingBindings { statement.clearBindings() }
        return statement
    }

    /// The cached statement for `sql`, or the outcome of preparing it (cached when it is one statement).
    func cachedOrPrepared(_ sql: String) throws -> Preparation {
        if let statement = idleCachedStatement(sql, clearingBindings: true) { return .one(statement) }
        // Cached but stepping (a nested query): a statement of its own, not cached.
        if cache.contains(sql) { return try prepareFirst(sql, persistent: false) }
        let outcome = try prepareFirst(sql, persistent: true)
        if case .one(let statement) = outcome { cache.insert(statement) }
        return outcome
    }

    private func requireOne(_ outcome: Preparation, sql: String) throws -> SQLiteStatement {
        switch outcome {
        case .one(let statement):
            return statement
        case .several:
            throw loggedFailure(
                SQLiteError.misuse(
                    "expected one SQL statement, found more; use execute(_:) to run several", sql: sql, path: filename))
        case .none:
            throw loggedFailure(SQLiteError.misuse("no SQL statement to prepare", sql: sql, path: filename))
        }
    }

    func liveHandle(sql: String? = nil) throws -> OpaquePointer {
        guard let handle, !activity.closeRequested else {
            throw SQLiteError.misuse("the connection is closed", sql: sql, path: path)
        }
        return handle
    }

    /// What SQL text turned out to hold.
    enum Preparation {
        /// Exactly one statement, prepared.
        case one(SQLiteStatement)
        /// More than one statement: nothing is kept prepared.
        case several
        /// Only spaces and comments.
        case none
    }

    /// Prepares the first statement of `sql` and looks whether more follow.
    private func prepareFirst(_ sql: String, persistent: Bool) throws -> Preparation {
        let db = try liveHandle(sql: sql)
        var utf8 = sql
        return try utf8.withUTF8 { buffer -> Preparation in
            try buffer.withMemoryRebound(to: CChar.self) { text -> Preparation in
                guard let base = text.baseAddress, !text.isEmpty else { return .none }
                var stmt: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
                let code = sqlite3_prepare_v3(db, base, Int32(text.count), flags, &stmt, &tail)
                guard code == SQLITE_OK else {
                    let error = SQLiteError.from(db, resultCode: code, sql: sql)
                    logFailure(error)
                    throw error
                }
                guard let stmt else { return .none }
                let consumed = tail.map { $0 - base } ?? text.count
                if hasStatement(in: text, from: consumed, db: db) {
                    sqlite3_finalize(stmt)
                    return .several
                }
                return .one(register(SQLiteStatement(handle: stmt, sql: sql, connection: self)))
            }
        }
    }

    /// Whether `text[offset...]` holds another statement (not just spaces, `;` or comments).
    private func hasStatement(in text: UnsafeBufferPointer<CChar>, from offset: Int, db: OpaquePointer) -> Bool {
        guard offset < text.count, let base = text.baseAddress else { return false }
        let rest = UnsafeBufferPointer(rebasing: text[offset...])
        if rest.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x3B }) { return false }
        var stmt: OpaquePointer?
        let code = sqlite3_prepare_v3(db, base + offset, Int32(rest.count), 0, &stmt, nil)
        sqlite3_finalize(stmt)
        return code != SQLITE_OK || stmt != nil
    }

    func register(_ statement: SQLiteStatement) -> SQLiteStatement {
        liveStatements[ObjectIdentifier(statement)] = LiveStatement(statement: statement)
        return statement
    }

    func statementDidFinalize(_ id: ObjectIdentifier) {
        liveStatements[id] = nil
    }
}

/// A statement the connection must finalize on close without keeping it alive.
///
/// `unowned`, not `weak`: a weak reference gives the statement a side table, and every retain
/// and release of it (each row a save binds) then takes the runtime's slow path. The entry
/// never outlives the statement: the statement's `deinit` removes it while the connection lives,
/// and ``SQLiteConnection/close()`` (also run by the connection's `deinit`) finalizes every
/// statement and removes them all before it releases the cached ones.
struct LiveStatement {
    unowned let statement: SQLiteStatement
}
