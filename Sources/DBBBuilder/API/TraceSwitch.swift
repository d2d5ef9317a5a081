import DBBCore
import DBBSQLite
import Logging
import Synchronization

/// The manager's trace handler and logging, installed on each connection the next time it is
/// used.
@_spi(DBBBackend)
public final class TraceSwitch: Sendable {
    /// What the connections get. A struct, not a tuple: a closure in a tuple kept in generic
    /// storage gets a conversion thunk around it at each read-modify-write, so setting the
    /// logging over and over would nest the trace handler ever deeper.
    private struct State {
        var handler: DBBTraceHandler?
        var logging: StatementLogging?
    }

    private let generation = Atomic<Int>(0)
    private let state = Locked(State())

    public init() {}

    func set(_ handler: DBBTraceHandler?) {
        state.withLock { $0.handler = handler }
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    func set(_ logging: StatementLogging?) {
        state.withLock { $0.logging = logging }
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    /// The logging the manager was given.
    public var logging: StatementLogging? { state.withLock { $0.logging } }

    /// Installs the current handler and logging on `connection` when `installed` (the
    /// generation it has) is behind: one atomic load per operation when nothing changed.
    public func apply(to connection: any DatabaseConnection, installed: inout Int) {
        let current = generation.load(ordering: .sequentiallyConsistent)
        guard current != installed else { return }
        let now = state.withLock { $0 }
        connection.observe(trace: now.handler, logging: now.logging)
        installed = current
    }
}
