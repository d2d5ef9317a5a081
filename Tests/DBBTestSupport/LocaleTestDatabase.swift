import DBBLocale
import DBBSQLite

extension SQLiteTestDatabase {
    /// A new test database file whose connection has the locale date functions.
    public static func withLocaleFunctions() throws -> SQLiteTestDatabase {
        let database = try SQLiteTestDatabase()
        try database.connection.addLocaleFunctions()
        return database
    }

    /// The text result of a one-value query, `"NULL"` for NULL.
    public func text(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> String {
        try connection.fetchOne(sql, arguments) { $0.string(at: 0) ?? "NULL" } ?? "no row"
    }
}
