import DBBSQLite
import Logging

/// Receives the SQL text of each statement a manager's connections start to run (see
/// ``DBBManager/trace(_:)``).
public typealias DBBTraceHandler = @Sendable (String) -> Void

extension DBBManager {
    /// Calls `handler` with the SQL of every statement the manager runs, on any of its
    /// connections, as it starts: the text with its `?` placeholders (never the bound values),
    /// and `-- TRIGGER name` when a schema trigger fires. `nil` stops tracing. The handler runs
    /// on the thread that runs the statement, so it must be quick and thread-safe; a connection
    /// in the middle of an operation picks up a change at its next one.
    ///
    /// ```swift
    /// manager.trace { sql in print("SQL:", sql) }
    /// ```
    public func trace(_ handler: DBBTraceHandler?) {
        access.tracing.set(handler)
    }

    /// How the manager logs through swift-log, on every connection it has or opens: each
    /// statement at `.trace` with its duration, slow ones at `.warning`, failed ones at
    /// `.error` with their SQL (see `StatementLogging`), and each table, column or trigger
    /// that creating or migrating the schema adds (and each `NOT NULL` it drops), at `.notice`,
    /// once committed. `nil` (the default)
    /// logs nothing and costs nothing. A connection in the middle of an operation picks up a
    /// change at its next one.
    ///
    /// ```swift
    /// var logger = Logger(label: "app.db")
    /// logger.logLevel = .notice
    /// manager.logging = StatementLogging(logger: logger, slowStatementThreshold: .milliseconds(100))
    /// ```
    public var logging: StatementLogging? {
        get { access.tracing.logging }
        set { access.tracing.set(newValue) }
    }
}
