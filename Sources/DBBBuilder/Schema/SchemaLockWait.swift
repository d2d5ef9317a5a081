import Foundation

/// A session holding a lock on a table a registration waited for.
struct LockHolder {
    let table: String
    let pid: Int64
    let state: String
    /// Seconds since its transaction began.
    let seconds: Int64
    /// The beginning of its query.
    let query: String

    var description: String {
        "session \(pid) (\(state.isEmpty ? "" : state + ", ")its transaction open for \(seconds) s: `\(query)`)"
    }
}

extension DBBManager {
    /// Runs `attempt` — a registration's transaction, or a step of it that holds writers off —
    /// trying again while a lock it needed was not granted within the lock bound (the attempt's
    /// transaction rolled back, keeping nothing) and `retryable()` says so: after a pause that
    /// doubles from the lock bound up to 2 s, with jitter, each try logged at `notice`.
    /// - Throws: ``DBBError/Kind/timedOut`` naming the table, the statement and the sessions
    ///   holding locks on `tables` once `deadline` would pass.
    func retryingLockWaits<T>(
        on tables: [String], until deadline: ContinuousClock.Instant, _ settings: DBBSchemaChanges,
        _ attempt: () throws -> T, retryable: () -> Bool
    ) throws -> T {
        let started = ContinuousClock.now
        var pause = settings.lockTimeout
        var tries = 0
        while true {
            tries += 1
            do {
                return try attempt()
            } catch let error as DBBError where error.conditions.contains(.lockNotGranted) && retryable() {
                let holders = (try? lockHolders(of: tables)) ?? []
                let wait = pause * Double.random(in: 0.5...1)
                let statement = error.serverError?.sql.map { "`\($0)`" } ?? "a statement"
                let held = holders.isEmpty ? "" : " held by " + holders.map(\.description).joined(separator: "; ")
                let table = holders.first?.table ?? tables.first
                guard ContinuousClock.now + wait < deadline else {
                    let waited = (ContinuousClock.now - started) / .seconds(1)
                    throw DBBError(
                        backend: .timedOut, table: table,
                        "registration gave up after \(tries) tries in \(String(format: "%.1f", waited)) s "
                            + "(schemaChanges.waitLimit): \(statement) waited longer than "
                            + "\(settings.lockTimeoutMilliseconds) ms for a lock on \(table.map { "\"\($0)\"" } ?? "its table")"
                            + "\(held). Nothing of that step was kept. Register again once that session is done, or raise "
                            + "schemaChanges.waitLimit",
                        serverError: error.serverError, conditions: .timeout)
                }
                let note =
                    "schema: try \(tries): \(statement) waited \(settings.lockTimeoutMilliseconds) ms for a lock\(held); "
                    + "trying again in \(Int(wait / .milliseconds(1))) ms"
                logging?.logger.notice("\(note)")
                Thread.sleep(forTimeInterval: wait / .seconds(1))
                pause = min(pause * 2, .seconds(2))
            }
        }
    }

    /// The sessions holding locks on `tables`, longest-running first (none on SQLite), asked on
    /// the primary.
    func lockHolders(of tables: [String]) throws -> [LockHolder] {
        try write(nil) { connection in
            guard let sql = connection.dialect.lockHolders(of: tables) else { return [] }
            return try connection.fetchAll(sql) { row in
                LockHolder(
                    table: row.string(at: 0) ?? "", pid: row.int64(at: 1), state: row.string(at: 2) ?? "",
                    seconds: row.int64(at: 3), query: row.string(at: 4) ?? "")
            }
        }
    }
}
