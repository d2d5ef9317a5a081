import DBBSQLite

/// What a database server said when it refused a statement or a connection.
public struct DBBServerError: Sendable, Hashable {
    /// The SQLSTATE code (`23505` for a unique violation), when the server sent one.
    public let sqlState: String?
    /// The server's message, and its detail when it sent one.
    public let message: String
    /// The SQL the server refused, when it was a statement.
    public let sql: String?
    /// The server's host (or socket) and port.
    public let host: String
    /// The database.
    public let database: String

    public init(sqlState: String?, message: String, sql: String?, host: String, database: String) {
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.host = host
        self.database = database
    }

    /// `database app on db.example.com:5432`.
    public var location: String { "database \(database) on \(host)" }
}
