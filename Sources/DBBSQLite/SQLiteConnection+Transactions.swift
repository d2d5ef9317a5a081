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
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfNeeded("ROLLBACK TRANSACTION")
            throw error
        }
        do {
            try execute("COMMIT TRANSACTION")
        } catch {
            rollbackIfNeeded("ROLLBACK TRANSACTION")
            throw error
        }
        return result
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
        try execute("SAVEPOINT \(name)")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackIfNeeded("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            throw error
        }
        do {
            try execute("RELEASE SAVEPOINT \(name)")
        } catch {
            rollbackIfNeeded("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
            throw error
        }
        return result
    }

    /// Undoes work after a failure. Some errors (`SQLITE_FULL`, `SQLITE_IOERR`…) make SQLite
    /// roll back by itself; then there is nothing left to undo and the caller's error is the news.
    private func rollbackIfNeeded(_ sql: String) {
        guard isInTransaction else { return }
        try? execute(sql)
    }
}
