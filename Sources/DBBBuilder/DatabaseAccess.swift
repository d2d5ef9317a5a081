import DBBLocale
import DBBSQLite
import Foundation
import Synchronization

/// How a manager reaches its database: the connections of one backend, handed out for a
/// write (one writer at a time) or a read. SQLite's are below; DBBPostgres has its own.
@_spi(DBBBackend)
public protocol DatabaseAccess: Sendable {
    /// Runs `body` with exclusive use of the connection that writes. Nested calls from the
    /// same thread (a save hook that saves) reuse it.
    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T
    /// Runs `body` with a connection that reads.
    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T
    /// Runs `setup` on every connection, now and whenever one is opened later.
    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws
    /// Closes every connection.
    func close()
    /// The statement trace handler, given to each connection before its next use.
    var tracing: TraceSwitch { get }
    /// The SQL spelling of the backend's connections.
    var dialect: DBBDialect { get }
    /// Whether the manager may change nothing in the database: registering only checks that
    /// the tables it needs exist (see `SchemaMigration`).
    var isReadOnly: Bool { get }
    /// The same connections as ones that read without a thread waiting, or `nil` (a protocol
    /// requirement, not a cast: see ``DatabaseConnection/setWriting``).
    var asyncReading: (any AsyncReadingAccess)? { get }
}

extension DatabaseAccess {
    /// Managers write unless their backend says otherwise.
    public var isReadOnly: Bool { false }
    /// Backends wait on a thread unless they say otherwise.
    public var asyncReading: (any AsyncReadingAccess)? { nil }
}

/// A file database in WAL mode: one writer connection, used under a recursive lock, and up to
/// `maximumReaders` reader connections, so reads go on while a long write runs. A read on the
/// thread that is inside a write uses the writer, and so sees that write's own changes.
final class PooledAccess: DatabaseAccess, @unchecked Sendable {
    // @unchecked Sendable: `writer` is only used while `writerLock` is held; a reader
    // connection is used only by the thread that took it from `idleReaders` (under its
    // mutex) until that thread puts it back.
    private let path: String
    private let writerLock = RecursiveLock()
    private let writer: SQLiteBackend
    /// The trace generation installed on `writer` (under `writerLock`).
    private var writerTraceGeneration = 0
    let tracing = TraceSwitch()
    var dialect: DBBDialect { .sqlite }
    private let writerThread = WriterThread()
    private let idleReaders = Locked<[Reader]>([])
    /// Steps run on every connection (attachments), and how many there are: a reader set up
    /// with fewer is closed rather than reused.
    private let setups = Locked<[@Sendable (any DatabaseConnection) throws -> Void]>([])

    /// A reader connection handed from thread to thread through `idleReaders`.
    /// `@unchecked Sendable`: one thread at a time holds it (see the class comment).
    private final class Reader: @unchecked Sendable {
        let connection: SQLiteBackend
        let setupCount: Int
        var traceGeneration = 0
        init(_ connection: SQLiteBackend, setupCount: Int) {
            self.connection = connection
            self.setupCount = setupCount
        }
    }
    private let readerSlots: DispatchSemaphore

    init(path: String, writer: SQLiteBackend, maximumReaders: Int = 4) {
        self.path = path
        self.writer = writer
        readerSlots = DispatchSemaphore(value: maximumReaders)
    }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try writerLock.withLock {
            try writerThread.marking {
                tracing.apply(to: writer, installed: &writerTraceGeneration)
                return try body(writer)
            }
        }
    }

    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        if writerThread.isCurrent {
            return try write(body)
        }
        readerSlots.wait()
        defer { readerSlots.signal() }
        let reader = try idleReaders.withLock { $0.popLast() } ?? openReader()
        defer {
            if reader.setupCount == setups.withLock({ $0.count }) {
                idleReaders.withLock { $0.append(reader) }
            } else {
                reader.connection.close()  // set up before an attachment was added
            }
        }
        tracing.apply(to: reader.connection, installed: &reader.traceGeneration)
        return try body(reader.connection)
    }

    private func openReader() throws -> Reader {
        let steps = setups.withLock { $0 }
        let connection = try SQLiteBackend(path: path)
        for step in steps { try step(connection) }
        return Reader(connection, setupCount: steps.count)
    }

    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws {
        try writerLock.withLock {
            try setup(writer)
            setups.withLock { $0.append(setup) }
        }
        let stale = idleReaders.withLock { readers in
            defer { readers.removeAll() }
            return readers
        }
        for reader in stale { reader.connection.close() }
    }

    func close() {
        idleReaders.withLock { readers in
            for reader in readers { reader.connection.close() }
            readers.removeAll()
        }
        writerLock.withLock { writer.close() }
    }
}

/// One connection, used under a recursive lock: reads and writes are serialized (an
/// in-memory database, which other connections cannot see).
final class SerializedAccess: DatabaseAccess, @unchecked Sendable {
    // @unchecked Sendable: `connection` is only touched inside `lock.withLock`.
    private let lock = RecursiveLock()
    private let connection: SQLiteBackend
    /// The trace generation installed on `connection` (under `lock`).
    private var traceGeneration = 0
    let tracing = TraceSwitch()
    var dialect: DBBDialect { .sqlite }

    init(connection: SQLiteBackend) { self.connection = connection }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try lock.withLock {
            tracing.apply(to: connection, installed: &traceGeneration)
            return try body(connection)
        }
    }

    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try write(body)
    }

    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws {
        try lock.withLock { try setup(connection) }
    }

    func close() {
        lock.withLock { connection.close() }
    }
}

/// Stands in when the database could not be opened: every operation fails with that error.
struct UnavailableAccess: DatabaseAccess {
    let error: DBBError
    let tracing = TraceSwitch()
    var dialect: DBBDialect { .sqlite }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T { throw error }
    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T { throw error }
    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws { throw error }
    func close() {}
}
