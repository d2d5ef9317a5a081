import CSQLite

/// A prepared SQL statement: bind arguments by index or name, step through rows, reset, reuse.
///
/// Get one from ``SQLiteConnection/cachedStatement(_:clearingBindings:)`` (kept and reused by
/// the connection, the usual choice) or ``SQLiteConnection/prepare(_:)`` (owned by you).
/// Parameters are numbered from 1, as in SQLite; result columns from 0.
///
/// ```swift
/// let insert = try connection.cachedStatement("INSERT INTO point (x, y) VALUES (?, ?)")
/// for (x, y) in points {
///     try insert.bind(x, at: 1)
///     try insert.bind(y, at: 2)
///     try insert.execute()
/// }
/// ```
///
/// A statement belongs to one connection and, like it, is used by one thread at a time.
/// When the connection closes, the statement is finalized and further use throws
/// ``SQLiteResultCode/misuse``.
///
/// See [Prepared Statement Object](https://www.sqlite.org/c3ref/stmt.html).
public final class SQLiteStatement {
    /// The SQL text of this statement, as prepared.
    public let sql: String

    /// The `sqlite3_stmt*`, or `nil` once finalized.
    ///
    /// Every bind, step and read loads it: it skips Swift's run-time exclusivity check (a call
    /// into the runtime each time), which could only catch an access overlapping a write on
    /// the same thread, and the only write is ``finalize()``, which calls nothing back.
    @exclusivity(unchecked) @usableFromInline private(set) var handle: OpaquePointer?

    /// The connection, told when this statement goes away.
    weak var connection: SQLiteConnection?
    /// Shared with the connection: what runs, and a close requested meanwhile.
    let activity: ConnectionActivity

    /// When the connection's statement cache last handed this statement out (its LRU clock).
    var lastUse: UInt64 = 0

    /// The number of result columns.
    public let columnCount: Int

    /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`).
    public let parameterCount: Int

    init(handle: OpaquePointer, sql: String, connection: SQLiteConnection) {
        self.handle = handle
        self.sql = sql
        self.connection = connection
        self.activity = connection.activity
        self.columnCount = Int(sqlite3_column_count(handle))
        self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
    }

    deinit {
        if let handle {
            sqlite3_finalize(handle)
            connection?.statementDidFinalize(ObjectIdentifier(self))
        }
    }

    /// Finalizes the statement now (the connection calls this when it closes).
    func finalize() {
        guard let handle else { return }
        sqlite3_finalize(handle)
        self.handle = nil
    }

    /// The names of the result columns, in order (none once the connection is closed).
    public var columnNames: [String] {
        guard handle != nil else { return [] }
        return (0..<columnCount).map { SQLiteRow(statement: handle).columnName(at: $0) }
    }

    /// The current row; valid after ``step()`` returned `true`, until the next step, the reset,
    /// or the connection's close.
    @inlinable
    public var row: SQLiteRow { SQLiteRow(statement: handle) }

    /// Whether the statement has started stepping and was not reset since.
    public var isBusy: Bool { handle.map { sqlite3_stmt_busy($0) != 0 } ?? false }

    /// Whether the statement does not write to the database (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { handle.map { sqlite3_stmt_readonly($0) != 0 } ?? true }

    // MARK: - Stepping

    /// Runs the statement to its next row.
    ///
    /// - Returns: `true` when a row is available in ``row``, `false` when the statement is done.
    /// - Throws: ``SQLiteError`` naming this statement's SQL; the statement is reset.
    @discardableResult
    public func step() throws -> Bool {
        let handle = try liveHandle()
        guard !activity.closeRequested else {
            sqlite3_reset(handle)
            throw SQLiteError.misuse("the connection was closed while this statement ran", sql: sql)
        }
        activity.running += 1
        defer { stopped() }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        case let code:
            let error = SQLiteError.from(sqlite3_db_handle(handle), resultCode: code, sql: sql)
            connection?.logFailure(error, statement: handle)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring rows, then resets it (bindings are kept).
    public func execute() throws {
        defer { reset() }
        while try step() {}
    }

    /// Steps through every row, calling `body` with each, then resets the statement. A
    /// ``SQLiteConnection/close()`` inside `body` takes effect when this returns (the next step
    /// throws ``SQLiteResultCode/misuse``).
    public func forEachRow(_ body: (SQLiteRow) throws -> Void) throws {
        activity.running += 1
        defer {
            reset()
            stopped()
        }
        while try step() { try body(row) }
    }

    /// Runs `body` as user code reading this statement's current row: a
    /// ``SQLiteConnection/close()`` inside it waits until it returns.
    func whileRunning<T>(_ body: () throws -> T) rethrows -> T {
        activity.running += 1
        defer { stopped() }
        return try body()
    }

    /// Ends one step or callback; the last to end completes a close requested meanwhile.
    @inline(__always)
    private func stopped() {
        activity.running -= 1
        if activity.closeRequested && activity.running == 0 { connection?.statementStopped() }
    }

    /// Makes the statement ready to run again from the start. Bindings are kept.
    public func reset() {
        if let handle { sqlite3_reset(handle) }
    }

    /// Sets every parameter to `NULL`.
    public func clearBindings() {
        if let handle { sqlite3_clear_bindings(handle) }
    }

    // MARK: - Internals

    @usableFromInline
    func liveHandle() throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError.misuse("statement used after its connection was closed", sql: sql)
        }
        return handle
    }

    @usableFromInline
    func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            let error = SQLiteError.from(sqlite3_db_handle(handle), resultCode: code, sql: sql)
            connection?.logFailure(error, statement: handle)
            throw error
        }
    }
}
