import DBBLocale
import DBBSQLite

/// The SQLite backend: an ``SQLiteConnection`` seen through ``DatabaseConnection``, with the
/// locale date functions installed. The raw connection stays reachable (`sqlite`) for what
/// only SQLite has: attachments, file maintenance.
final class SQLiteBackend: DatabaseConnection {
    let sqlite: SQLiteConnection

    /// Opens the database at `path` (`:memory:` for a private in-memory one) the way the
    /// manager wants it: WAL, busy timeout, foreign keys (from ``SQLiteConfiguration``), and
    /// the locale date functions.
    init(path: String) throws {
        sqlite = try SQLiteConnection(path: path)
        try sqlite.addLocaleFunctions()
    }

    var dialect: any DBBDialect { SQLiteDialect() }

    @inline(__always)
    func statement(_ sql: String, clearing: Bool) throws -> any DatabaseStatement {
        try sqlite.cachedStatement(sql, clearingBindings: clearing)
    }

    func execute(_ sql: String, _ arguments: [DBBValue]) throws { try sqlite.execute(sql, arguments) }

    var lastInsertedRowID: Int64 { sqlite.lastInsertedRowID }
    var changes: Int { sqlite.changes }

    func atomically<T>(_ mode: DatabaseTransactionMode, _ body: () throws -> T) throws -> T {
        try sqlite.atomically(mode == .immediate ? .immediate : .deferred, body)
    }

    func savepoint<T>(_ body: () throws -> T) throws -> T { try sqlite.savepoint(body) }

    var hasOpenTransaction: Bool { sqlite.isInTransaction }

    func observe(trace handler: DBBTraceHandler?, logging: StatementLogging?) {
        sqlite.trace(handler)
        sqlite.logging = logging
    }

    func close() { sqlite.close() }
}

@_spi(DBBBackend)
extension SQLiteStatement: DatabaseStatement {
    public var reader: DBBColumnReader { DBBColumnReader(row) }
}

@_spi(DBBBackend)
extension SQLiteError: DatabaseFailure {
    public func dbbError(table: String?, columns: [(property: String, column: String)]) -> DBBError {
        // "NOT NULL constraint failed: Person.firstName", "UNIQUE constraint failed: Person.email"
        let property = columns.first { message.hasSuffix(".\($0.column)") || message.contains(".\($0.column),") }?
            .property
        return DBBError(.sqlite, table: table, property: property, message, sqliteError: self)
    }
}
