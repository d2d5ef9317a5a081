import DBBLocale
import DBBSQLite
import Foundation

/// How the ORM reaches its database: the small internal seam between persistence code and
/// SQLite connections (a PostgreSQL backend would implement it too).
protocol DatabaseAccess: Sendable {
    /// Runs `body` with exclusive use of the connection that writes. Nested calls from the
    /// same thread (a save hook that saves) reuse it.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T
    /// Runs `body` with a connection that reads.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T
    /// Closes every connection.
    func close()
}

/// Opens connections the way the manager wants them: WAL, busy timeout, foreign keys (from
/// ``SQLiteConfiguration``), and the locale date functions on every one.
enum ConnectionFactory {
    static func open(path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.addLocaleFunctions()
        return connection
    }
}

/// One connection, used under a recursive lock: reads and writes are serialized.
final class SerializedAccess: DatabaseAccess, @unchecked Sendable {
    // @unchecked Sendable: `connection` is only touched inside `lock.withLock`.
    private let lock = RecursiveLock()
    private let connection: SQLiteConnection

    init(connection: SQLiteConnection) { self.connection = connection }

    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try lock.withLock { try body(connection) }
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try lock.withLock { try body(connection) }
    }

    func close() {
        lock.withLock { connection.close() }
    }
}

/// Stands in when the database could not be opened: every operation fails with that error.
struct UnavailableAccess: DatabaseAccess {
    let error: DBBError

    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T { throw error }
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T { throw error }
    func close() {}
}
