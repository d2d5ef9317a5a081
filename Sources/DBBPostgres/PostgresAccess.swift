#if Postgres
@_spi(DBBBackend) import DBBBuilder
import DBBCore
import Dispatch
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The connections of a PostgreSQL database: a pool of up to `poolSize` postgres-nio
/// connections. A write holds one connection for its whole body (one writer at a time per
/// manager, like SQLite's; other managers and processes write alongside), a read takes any.
///
/// Writes never wait behind reads: of `poolSize` connections, one is kept for the writer and
/// the others serve reads (a pool of one is shared; a replica's pool serves reads only). A read
/// waits at most `poolTimeout` for one of its connections, then fails naming the pool. A thread
/// that holds a connection never waits for another (a fetch in `forEachRow`'s closure would
/// wait for itself): it opens one more, above `poolSize`, for as long as it needs it; so does a
/// synchronous call from a task when no connection is free (see ``holding(_:writing:_:)``).
/// The `async` fetches wait for a connection without a thread (``read(_:)``).
///
/// The synchronous forms block the calling thread on an `EventLoopFuture` while connecting and
/// for each statement until the server answers. That never needs a Swift concurrency thread,
/// so it is safe from tasks too (postgres-nio's `PostgresClient` would need one to hand out a
/// connection, and blocking the cooperative pool while waiting for it deadlocks when the pool
/// is narrow). On an event loop, where waiting would block the loop that must answer, they
/// throw instead. The `async` fetches await the same futures, suspending their task.
final class PostgresAccess: AsyncReadingAccess, @unchecked Sendable {
    // @unchecked Sendable: `writer` is used only under `writerLock`; `idle` and `opened` under `poolLock`.
    let place: PostgresPlace
    let tracing: TraceSwitch
    /// Where new connections go.
    private let servers: ServerChoice
    private let logger: Logger
    private let numberedSQL = NumberedSQLCache()
    /// How long a read waits for a connection.
    private let poolTimeout: Duration
    /// How long a statement waits for its answer (`nil`: as long as the server takes).
    private let answerTimeout: Duration?
    private let poolSize: Int
    /// The connections reads may hold at once.
    private let readSlots: FairSemaphore
    private let readCapacity: Int
    /// Whether the writer takes a read slot too (a pool of one connection).
    private let writerShares: Bool
    let isReadOnly: Bool
    /// Whether the server is reached through a transaction pooler (what stays in the session is refused).
    private let transactionPooling: Bool
    private let poolLock = NSLock()
    private var idle: [PooledConnection] = []
    private var opened = 0
    private let writerLock = NSRecursiveLock()
    private var writer: PostgresBackend?
    private let writerThread = WriterThread()
    /// How many pooled connections each thread holds now (by ``WriterThread/current()``).
    /// (A `Locked`, not a `Mutex`: ThreadSanitizer sees its lock, and reports the futex-based
    /// `Mutex`'s guarded accesses as races.)
    private let holders = Locked<[UInt: Int]>([:])
    private let closed = Atomic<Bool>(false)
    /// The pool's metrics, or `nil` when no metrics backend is bootstrapped.
    private let instruments: PoolInstruments?

    var dialect: any DBBDialect { PostgresDialect() }

    /// - Parameters:
    ///   - tracing: shared with the other servers of a replicated manager.
    ///   - readsOnly: a replica's: no connection is kept for writes.
    init(configuration: DBBPostgresConfiguration, tracing: TraceSwitch = TraceSwitch(), readsOnly: Bool = false) throws
    {
        self.tracing = tracing
        servers = try ServerChoice(configuration)
        place = configuration.place
        logger = configuration.logger
        poolTimeout = configuration.poolTimeout
        answerTimeout = configuration.answerTimeout
        poolSize = configuration.poolSize
        writerShares = !readsOnly && configuration.poolSize == 1
        readCapacity = readsOnly || writerShares ? configuration.poolSize : configuration.poolSize - 1
        readSlots = FairSemaphore(readCapacity)
        isReadOnly = configuration.readOnly
        transactionPooling = configuration.transactionPooling
        instruments = PoolInstruments.resolve(
            database: configuration.place.database, role: readsOnly ? "replica" : "primary")
    }

    var databaseName: String? { place.database }

    func knowRendered(_ sql: String, parameterCount: Int, isQuery: Bool) {
        numberedSQL.keepRendered(sql, parameterCount: parameterCount, isQuery: isQuery)
    }

    deinit { close() }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try refuseOnEventLoop()
        // A pool of one: the connection first, then the writer lock — the other way round, a
        // writer waiting for the connection would hold the lock that its holder's own write
        // (in a forEachRow closure) waits for.
        return try holding(writerShares ? readSlots : nil, writing: true) {
            let began = instruments == nil ? 0 : PoolInstruments.now
            writerLock.lock()
            instruments?.waited(since: began)
            defer { writerLock.unlock() }
            if let writer { return try body(writer) }
            return try withConnection { backend in
                writer = backend
                defer { writer = nil }
                return try writerThread.marking { try body(backend) }
            }
        }
    }

    /// Whether the calling thread is inside a write of this access.
    var isWriting: Bool { writerThread.isCurrent }

    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try refuseOnEventLoop()
        if writerThread.isCurrent { return try write(body) }
        return try holding(readSlots, writing: false) { try withConnection(retryingLostRead: true, body) }
    }

    var asyncReading: (any AsyncReadingAccess)? { self }

    /// Runs `plan` in one read transaction on a pooled connection, the calling task suspended
    /// (no thread held) while it waits for the connection and for each answer. It counts
    /// against the pool as a synchronous read does, and waits at most `poolTimeout` for it.
    func read(_ plan: any RoundTripPlan) async throws {
        let began = instruments == nil ? 0 : PoolInstruments.now
        let placed = try await readSlots.wait(timeout: poolTimeout)
        instruments?.waited(since: began)
        guard placed else { throw poolBusy(writing: false) }
        defer { readSlots.signal() }
        // Once more after a connection lost before any answer, as a synchronous read
        // (``withConnection(retryingLostRead:_:)``), when the plan can start again.
        var retries = plan.firstStatementMayBeAll && servers.count > 1 ? 1 : 0
        var avoiding: String?
        while true {
            let pooled = try await pooledConnection(avoiding: avoiding)
            let backend = lent(pooled)
            defer { putBack(pooled, lost: backend.lostWith != nil) }
            do {
                return try await backend.read(plan)
            } catch  where retries > 0 && backend.isLostBeforeAnswer {
                retries -= 1
                avoiding = pooled.server
                plan.restart()
            }
        }
    }

    /// An idle connection, or a new one (to a server other than `avoiding` if one answers), awaited.
    private func pooledConnection(avoiding: String? = nil) async throws -> PooledConnection {
        if avoiding == nil, let pooled = try reusedConnection() { return pooled }
        let connection = connecting(avoiding: avoiding)
        let outcome: Result<ServerChoice.Connected, any Error>
        do {
            outcome = .success(try await connection.get())
        } catch {
            outcome = .failure(error)
        }
        return try opened(outcome)
    }

    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws {
        try write { try setup($0) }
    }

    func close() {
        guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let connections = poolLock.withLock {
            defer { idle.removeAll() }
            return idle
        }
        for pooled in connections { pooled.connection.closeKeepingAlive() }
    }

    // MARK: - The pool

    /// Runs `body` once `slot` (when given) has room, counting the calling thread as one
    /// that holds a connection meanwhile. A thread that holds one already does not wait: it
    /// would wait for itself. Nor does a synchronous call from a task, when no place is free
    /// at once: it would block a thread of the cooperative pool, which the `async` fetches
    /// holding the places need to go on and free them (with every pool thread so blocked,
    /// nothing moves until `poolTimeout`). It takes one more connection, above `poolSize`,
    /// for as long as the call lasts — at most one per thread of the cooperative pool.
    private func holding<T>(_ slot: FairSemaphore?, writing: Bool, _ body: () throws -> T) throws -> T {
        let thread = WriterThread.current()
        var slot = holders.withLock { ($0[thread] ?? 0) > 0 } ? nil : slot
        if let place = slot {
            let began = instruments == nil ? 0 : PoolInstruments.now
            if Self.isInTask {
                // Taken at once, or passed over for a connection above poolSize: no wait.
                if place.take() { instruments?.waited(since: began) } else { slot = nil }
            } else {
                let placed = place.wait(timeout: poolTimeout)
                instruments?.waited(since: began)
                guard placed else { throw poolBusy(writing: writing) }
            }
        }
        holders.withLock { $0[thread, default: 0] += 1 }
        defer {
            holders.withLock { holders in
                let left = (holders[thread] ?? 1) - 1
                holders[thread] = left > 0 ? left : nil
            }
            slot?.signal()
        }
        return try body()
    }

    /// Runs `body` with a pooled connection, on the calling thread. A connection that failed
    /// (the server went away, a statement broke the protocol) is closed, not pooled again.
    ///
    /// A read (`retryingLostRead`) of a manager given several servers, whose connection was
    /// lost (closed, reset, or unanswered within `answerTimeout`) before the server answered
    /// anything, has handed nothing on: it runs once more, on a new connection to another of
    /// the servers that answers now (after a failover, the new primary; the lost one last) —
    /// only if nothing reached the server outside a read-only transaction
    /// (``PostgresBackend/sentPossibleWrite``: a `SELECT` can call a function that writes, and a
    /// slow server may have run it). A write never runs twice, and a manager of one server
    /// reports the loss.
    private func withConnection<T>(retryingLostRead: Bool = false, _ body: (PostgresBackend) throws -> T) throws -> T {
        var retries = retryingLostRead && servers.count > 1 ? 1 : 0
        var avoiding: String?
        while true {
            let reused = avoiding == nil ? try reusedConnection() : nil
            let pooled = try reused ?? opened(Result { try connecting(avoiding: avoiding).wait() })
            let backend = lent(pooled)
            defer { putBack(pooled, lost: backend.lostWith != nil) }
            do {
                return try body(backend)
            } catch  where retries > 0 && backend.isLostBeforeAnswer {
                retries -= 1
                avoiding = pooled.server
            }
        }
    }

    /// `pooled` as a connection of the ORM, with the manager's statement trace.
    private func lent(_ pooled: PooledConnection) -> PostgresBackend {
        let backend = PostgresBackend(
            pooled, place: PostgresPlace(host: pooled.server, database: place.database, role: place.role),
            logger: logger, numberedSQL: numberedSQL, readOnly: isReadOnly, transactionPooling: transactionPooling)
        var generation = 0
        tracing.apply(to: backend, installed: &generation)
        reportConnections()
        return backend
    }

    /// Records the pool's open and idle connections (when it has metrics).
    private func reportConnections() {
        guard let instruments else { return }
        let (open, idleCount) = poolLock.withLock { (opened, idle.count) }
        instruments.connections(opened: open, idle: idleCount)
    }

    /// An idle connection that is still open, or `nil` when a new one is to be opened.
    /// - Throws: when the manager was closed.
    private func reusedConnection() throws -> PooledConnection? {
        guard !closed.load(ordering: .sequentiallyConsistent) else {
            throw DBBError(backend: .unavailable, "the manager of \(location) was closed")
        }
        while let pooled = poolLock.withLock({ idle.popLast() }) {
            if !pooled.connection.isClosed && !pooled.watch.isClosed { return pooled }
            poolLock.withLock { opened -= 1 }
        }
        return nil
    }

    /// A new connection to the server, counted as opened until ``opened(_:)`` takes its outcome.
    private func connecting(avoiding: String? = nil) -> EventLoopFuture<ServerChoice.Connected> {
        let id = poolLock.withLock {
            opened += 1
            return opened
        }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        return servers.connect(on: loop, id: id, logger: logger, avoiding: avoiding)
    }

    /// The connection ``connecting()`` opened, watched, or the failure to open it.
    private func opened(_ outcome: Result<ServerChoice.Connected, any Error>) throws -> PooledConnection {
        do {
            let connected = try outcome.get()
            return PooledConnection(
                connection: connected.connection, server: connected.server,
                watch: SessionWatch(connected.connection, answerTimeout: answerTimeout))
        } catch {
            poolLock.withLock { opened -= 1 }
            throw PostgresFailure.connecting(error, place: place).dbbError(table: nil, columns: [])
        }
    }

    /// Pools `connection` again, or closes it when it failed. A connection whose session
    /// ended (the server restarted, or ended it) takes the idle ones with it: they were
    /// opened to the same server, and the next operation should not meet their failure.
    private func putBack(_ connection: PooledConnection, lost: Bool) {
        if lost || connection.connection.isClosed || closed.load(ordering: .sequentiallyConsistent) {
            let discarded = poolLock.withLock {
                let discarded = lost ? idle : []
                if lost { idle.removeAll() }
                opened -= 1 + discarded.count
                return discarded
            }
            for other in [connection] + discarded { other.connection.closeKeepingAlive() }
            reportConnections()
            return
        }
        poolLock.withLock { idle.append(connection) }
        reportConnections()
    }

    private var location: String { "database \(place.database) on \(place.host)" }

    /// The error of an operation that waited `poolTimeout` for a connection.
    private func poolBusy(writing: Bool) -> DBBError {
        let split =
            writerShares
            ? "its one connection serves reads and writes in turn"
            : readCapacity == poolSize
                ? "all \(poolSize) serve reads" : "\(readCapacity) serve reads, 1 is kept for writes"
        return DBBError(
            backend: .unavailable,
            "cannot use \(location): no pooled connection for \(writing ? "a write" : "reads") came free within "
                + "poolTimeout (\(poolTimeout)); the pool has poolSize \(poolSize) connections (\(split)), all busy: "
                + "raise poolSize or poolTimeout, or shorten the reads", conditions: .timeout)
    }

    /// Whether the calling code runs in a task (on a thread of the cooperative pool, or of an
    /// actor's executor).
    private static var isInTask: Bool { withUnsafeCurrentTask { $0 != nil } }

    private func refuseOnEventLoop() throws {
        if MultiThreadedEventLoopGroup.currentEventLoop != nil {
            throw DBBError(
                backend: .invalidOption,
                "a synchronous DBBBuilder call on a SwiftNIO event loop would block the loop that must answer it: "
                    + "call the async form (try await object.save()), or run it on another thread")
        }
    }
}

/// A pooled connection and the watch that answers its queries when it closes unasked.
extension PostgresConnection {
    /// Closes the connection, keeping it alive until it is closed (postgres-nio asserts a
    /// connection is closed before it goes away).
    func closeKeepingAlive() {
        let closing: EventLoopFuture<Void> = close()
        closing.whenComplete { _ in withExtendedLifetime(self) {} }
    }
}

struct PooledConnection {
    let connection: PostgresConnection
    /// Its server's `host:port`.
    let server: String
    let watch: SessionWatch
}

extension PostgresAccess: CustomReflectable {
    /// What `dump(manager)` shows: where, not the connection settings (which hold the password).
    var customMirror: Mirror {
        Mirror(self, children: ["host": place.host, "database": place.database], displayStyle: .class)
    }
}
#endif
