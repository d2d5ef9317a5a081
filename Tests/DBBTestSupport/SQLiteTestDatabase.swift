import DBBSQLite
import Foundation

/// A connection to a new database file in its own temporary directory: the usual starting
/// point of a test. The directory (and so the file) lives as long as this value, so keep the
/// value itself in a local, not just its connection:
///
/// ```swift
/// let database = try SQLiteTestDatabase()   // not `try SQLiteTestDatabase().connection`
/// let db = database.connection
/// ```
public struct SQLiteTestDatabase {
    /// The directory holding the database and any other files of the test.
    public let directory: TemporaryDirectory
    /// The database file's path.
    public let path: String
    /// An open connection to it.
    public let connection: SQLiteConnection

    /// Creates `test.sqlite` in a new temporary directory and opens it.
    public init(configuration: SQLiteConfiguration = SQLiteConfiguration()) throws {
        directory = try TemporaryDirectory()
        path = directory.path("test.sqlite")
        connection = try SQLiteConnection(path: path, configuration: configuration)
    }
}
