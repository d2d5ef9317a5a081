import DBBLocale
import DBBSQLite
import Foundation

/// The SQLite backend: an ``SQLiteConnection`` seen through ``DatabaseConnection``, with the
/// locale date functions installed. The raw connection stays reachable (`sqlite`) for what
/// only SQLite has: attachments, file maintenance.
final class SQLiteBackend: DatabaseConnection {
    let sqlite: SQLiteConnection

    /// Opens the database at `path` (`:memory:` for a private in-memory one) the way the
    /// manager wants it: WAL, busy timeout, foreign keys (from ``SQLiteConfiguration``), the
    /// locale date functions, and the `dbb_decimal` collation (``SQLiteCollation/decimal``) that
    /// conditions and sorting on `Decimal` properties compare with. `readOnly`: an existing file,
    /// opened read-only (`SQLITE_OPEN_READONLY`), its journal mode left as it is.
    init(path: String, readOnly: Bool = false) throws {
        var configuration = SQLiteConfiguration()
        if readOnly { configuration.access = .readOnly }
        sqlite = try SQLiteConnection(path: path, configuration: configuration)
        try sqlite.addLocaleFunctions()
        try sqlite.add(SQLiteCollation.decimal)
    }

    var dialect: any DBBDialect { SQLiteDialect() }

    @inline(__always)
    func statement(_ sql: String, clearing: Bool) throws -> any DatabaseStatement {
        try sqlite.cachedStatement(sql, clearingBindings: clearing)
    }

    /// Runs `sql`. Outside a transaction each statement of a text commits on its own: when one
    /// after the first fails, what those before it stored stays, and the error says so.
    func execute(_ sql: String, _ arguments: [DBBValue]) throws {
        guard !sqlite.isInTransaction, sql.utf8.contains(UInt8(ascii: ";")) else {
            return try sqlite.execute(sql, arguments)
        }
        do {
            try sqlite.execute(sql, arguments)
        } catch let error as SQLiteError where !Self.isFirstStatement(error.sql, of: sql) {
            throw AfterEarlierStatements(error: error)
        }
    }

    /// Whether `failed`, the text of a statement that failed, is the first statement of `sql`.
    private static func isFirstStatement(_ failed: String?, of sql: String) -> Bool {
        guard let failed, let first = SQLTokenizer.statements(SQLTokenizer.tokens(sql)).first else { return false }
        // SQLite's text of a statement runs to its `;`; a leading comment makes them differ,
        // and the failure is then taken for a later statement's (the cautious answer).
        let trimmed = { (text: String) in
            text.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";")))
        }
        return trimmed(failed) == trimmed(first.drop { $0.kind == .space }.map(\.text).joined())
    }

    /// An SQLite failure of a statement that followed others of its text, which committed.
    struct AfterEarlierStatements: DatabaseFailure {
        let error: SQLiteError

        func dbbError(table: String?, columns: [(property: String, column: String)]) -> DBBError {
            error.dbbError(table: table, columns: columns).leaving(
                "statements before it in the same SQL text ran on their own, and what they stored stays: "
                    + "repeating the text repeats them")
        }
    }

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
