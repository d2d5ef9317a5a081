extension DBBManager {
    /// Runs `body` with each statement it sends to a PostgreSQL server bounded by `timeout`,
    /// on the server and on the client, whichever manager sends it:
    /// - the server cancels a statement that runs longer (`SET LOCAL statement_timeout` in its
    ///   transaction; a statement outside one runs in a transaction of its own, `READ ONLY` for
    ///   a query; what cannot — `VACUUM`, `CREATE INDEX CONCURRENTLY`, a `CALL` or `DO` block
    ///   that commits — runs with the session's `statement_timeout` set for it, reset after),
    ///   and the call fails with ``DBBError/Kind/timedOut``: nothing of that transaction
    ///   stored, the connection kept — or with `.server` naming what stays, for a statement
    ///   that leaves something behind (a procedure's commits, an invalid index);
    /// - should the server answer nothing at all, the client gives up a second (or a tenth of
    ///   `timeout`, if more) later, closes the connection and fails the call the same way —
    ///   or with ``DBBError/Kind/commitOutcomeUnknown`` if a `COMMIT` was on its way.
    ///
    /// A fetch bounded this way runs in a read transaction (two round trips more than alone).
    /// Nested calls take the shortest timeout: an inner one cannot lift an outer one. SQLite runs in the calling process and never
    /// goes silent: there the timeout bounds nothing.
    ///
    /// ```swift
    /// let recent = try DBBManager.withStatementTimeout(.seconds(2)) {
    ///     try Order.instances(matching: options, manager: manager)
    /// }
    /// ```
    /// - Throws: what `body` throws; `DBBError.Kind.invalidOption` for a timeout not above zero
    ///   or above 24 days (the server's most), before `body` runs.
    public static func withStatementTimeout<T>(_ timeout: Duration, _ body: () throws -> T) throws -> T {
        try StatementDeadline.$current.withValue(StatementDeadline(timeout).within(.current), operation: body)
    }

    /// ``withStatementTimeout(_:_:)-(_,()->T)`` for `async` calls: the timeout goes with the task
    /// (and with the blocking threads the `async` forms hand their work to).
    public static func withStatementTimeout<T>(
        _ timeout: Duration, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        try await StatementDeadline.$current.withValue(StatementDeadline(timeout).within(.current), operation: body)
    }
}
