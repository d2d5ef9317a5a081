import DBBCore
import DBBLocale
import DBBSQLite
import Foundation

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
    var dialect: any DBBDialect { SQLiteDialect() }
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

    /// Whether the file was opened read-only: asked for (``DBBManager/init(url:readOnly:logger:)``),
    /// or the only way the process may open it (SQLite falls back to reading a file it may not
    /// write). Its readers are opened read-only too.
    let isReadOnly: Bool

    init(path: String, writer: SQLiteBackend, maximumReaders: Int = 4) {
        self.path = path
        self.writer = writer
        isReadOnly = writer.sqlite.isReadOnly
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
        let connection = try SQLiteBackend(path: path, readOnly: isReadOnly)
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
