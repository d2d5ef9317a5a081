import CSQLite

/// How a transaction takes its locks. See [BEGIN TRANSACTION](https://www.sqlite.org/lang_transaction.html).
public enum SQLiteTransactionKind: String, Sendable, Hashable {
    /// Locks are taken when first needed: a read lock on the first read, a write lock on the first write.
    case deferred = "DEFERRED"
    /// The write lock is taken at once, so the transaction cannot fail later with `SQLITE_BUSY`
    /// when it starts writing.
    case immediate = "IMMEDIATE"
    /// Like immediate; in rollback-journal mode also keeps readers out.
    case exclusive = "EXCLUSIVE"
}

extension SQLiteConnection {
    /// Runs `body` in a transaction: committed when `body` returns, rolled back when it throws
    /// (the error is rethrown, nothing of the transaction stays).
    ///
    /// ```swift
    /// try connection.transaction(.immediate) {
    ///     try connection.execute("INSERT INTO account (balance) VALUES (?)", [100])
    ///     try connection.execute("UPDATE ledger SET total = total + ?", [100])
    /// }
    /// ```
    ///
    /// Transactions do not nest; use ``savepoint(_:)`` inside one.
    public func transaction<T>(_ kind: SQLiteTransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try run(
            body, begin: "BEGIN \(kind.rawValue) TRANSACTION", commit: "COMMIT TRANSACTION",
            rollback: "ROLLBACK TRANSACTION")
    }

    /// Runs `body` inside a savepoint: released when `body` returns, rolled back to when it
    /// throws (the error is rethrown). Savepoints nest, inside or outside a transaction.
    ///
    /// ```swift
    /// try connection.transaction {
    ///     try connection.execute("INSERT INTO log (line) VALUES ('kept')")
    ///     try? connection.savepoint {
    ///         try connection.execute("INSERT INTO log (line) VALUES ('undone')")
    ///         throw CancellationError()
    ///     }
    /// }
    /// ```
    ///
    /// See [SAVEPOINT](https://www.sqlite.org/lang_savepoint.html).
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointCounter += 1
        let name = "dbb_savepoint_\(savepointCounter)"
        return try run(
            body, begin: "SAVEPOINT \(name)", commit: "RELEASE SAVEPOINT \(name)",
            rollback: "ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
    }

    /// Runs `body` atomically: in a new transaction of `kind`, or, when a transaction is open
    /// already, in a savepoint inside it, so that code which may be called from inside a
    /// transaction (a save hook that saves) joins it instead of failing to begin another.
    ///
    /// ```swift
    /// try connection.transaction(.immediate) {
    ///     try connection.atomically(.immediate) { try connection.execute("INSERT …") }  // a savepoint
    /// }
    /// ```
    public func atomically<T>(_ kind: SQLiteTransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        isInTransaction ? try savepoint(body) : try transaction(kind, body)
    }

    /// Runs `begin`, `body`, then `commit`; when `body` or `commit` throws, runs `rollback`
    /// and rethrows.
    private func run<T>(_ body: () throws -> T, begin: String, commit: String, rollback: String) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute(commit)
            return result
        } catch {
            rollbackIfNeeded(rollback)
            throw error
        }
    }

    /// Undoes work after a failure. Some errors (`SQLITE_FULL`, `SQLITE_IOERR`…) make SQLite
    /// roll back by itself; then there is nothing left to undo and the caller's error is the news.
    private func rollbackIfNeeded(_ sql: String) {
        guard isInTransaction else { return }
        try? execute(sql)
    }
}
