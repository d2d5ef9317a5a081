import DBBSQLite
import Synchronization

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
    /// manager.trace { sql in logger.debug("\(sql)") }
    /// ```
    public func trace(_ handler: DBBTraceHandler?) {
        access.tracing.set(handler)
    }
}

/// The manager's trace handler, installed on each connection the next time it is used.
@_spi(DBBBackend)
public final class TraceSwitch: Sendable {
    private let generation = Atomic<Int>(0)
    private let handler = Locked<DBBTraceHandler?>(nil)

    public init() {}

    func set(_ newHandler: DBBTraceHandler?) {
        handler.withLock { $0 = newHandler }
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    /// Installs the current handler on `connection` when `installed` (the generation it has)
    /// is behind: one atomic load per operation when nothing changed.
    public func apply(to connection: any DatabaseConnection, installed: inout Int) {
        let current = generation.load(ordering: .sequentiallyConsistent)
        guard current != installed else { return }
        connection.trace(handler.withLock { $0 })
        installed = current
    }
}
