extension DBBManager {
    /// Whether the spans of this manager's raw SQL carry the statement's text
    /// (`db.query.text` and `db.statement`). `false` unless set: SQL text can hold what
    /// an application would rather not send to its tracing backend (literals written into it).
    /// Bound values (`arguments:`) are never recorded, whatever this says. See
    /// <doc:MetricsAndTraces>.
    public var recordsStatementText: Bool {
        get { statementText.load(ordering: .relaxed) }
        set { statementText.store(newValue, ordering: .relaxed) }
    }

    /// Runs `body`, one call of `operation` on `table`'s rows (or raw `sql`), observed when a
    /// metrics or tracing backend was bootstrapped before the manager opened; otherwise just
    /// runs it.
    @inline(__always)
    func observing<T>(
        _ operation: DatabaseOperation, table: String? = nil, sql: String? = nil, _ body: () throws -> T
    ) throws -> T {
        guard let observer else { return try body() }
        return try observer.run(operation, table: table, sql: sql, queryText: recordsStatementText) { _ in try body() }
    }

    /// ``observing(_:table:sql:_:)`` for an `async` call.
    @inline(__always)
    func observing<T>(
        _ operation: DatabaseOperation, table: String? = nil, sql: String? = nil, _ body: () async throws -> T
    ) async throws -> T {
        guard let observer else { return try await body() }
        return try await observer.run(operation, table: table, sql: sql, queryText: recordsStatementText, body)
    }
}
