import DBBLocale
import DBBSQLite
import Foundation

/// Stands in when the database could not be opened: every operation fails with that error.
struct UnavailableAccess: DatabaseAccess {
    let error: DBBError
    let tracing = TraceSwitch()
    var dialect: any DBBDialect { SQLiteDialect() }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T { throw error }
    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T { throw error }
    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws { throw error }
    func close() {}
}
