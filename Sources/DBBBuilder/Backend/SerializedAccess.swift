import DBBLocale
import DBBSQLite
import Foundation

/// One connection, used under a recursive lock: reads and writes are serialized (an
/// in-memory database, which other connections cannot see).
final class SerializedAccess: DatabaseAccess, @unchecked Sendable {
    // @unchecked Sendable: `connection` is only touched inside `lock.withLock`.
    private let lock = RecursiveLock()
    private let connection: SQLiteBackend
    /// The trace generation installed on `connection` (under `lock`).
    private var traceGeneration = 0
    let tracing = TraceSwitch()
    var dialect: any DBBDialect { SQLiteDialect() }

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
