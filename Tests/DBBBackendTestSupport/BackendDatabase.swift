@_spi(DBBBackend) import DBBBuilder
import DBBTestSupport
import Foundation

#if Postgres
@_spi(DBBBackend) import DBBPostgres
#endif

/// A fresh database of `backend` with a manager on it; `reopen()` gives a second manager on
/// the same database (another "instance" of the service). `nil` when PostgreSQL is missing
/// (``TestPostgresServer/shared()`` printed why; with `DBB_REQUIRE_POSTGRES` set it throws).
/// Keep the value in a local while its managers are used: it owns the SQLite file's folder.
///
/// Raw SQL in tests quotes table and column names (`SELECT count(*) FROM "Person"`): PostgreSQL
/// folds unquoted names to lower case, and SQLite reads quoted names the same.
public struct BackendDatabase {
    public let backend: Backend
    public let manager: DBBManager
    private let directory: TemporaryDirectory?
    private let location: String

    /// A new database of `backend` with `classes` registered.
    public init?(_ backend: Backend, _ classes: [DBBTableObject.Type] = []) throws {
        self.backend = backend
        switch backend {
        case .sqlite:
            let directory = try TemporaryDirectory()
            self.directory = directory
            location = directory.url.appendingPathComponent("test.sqlite").path
            manager = try DBBManager(url: URL(fileURLWithPath: location))
        case .postgresql:
            guard let server = try Self.postgresServer() else { return nil }
            directory = nil
            location = try server.makeDatabase()
            manager = try Self.postgresManager(location)
        }
        if !classes.isEmpty { try manager.register(classes) }
    }

    /// Another manager on the same database, with `classes` registered (none: nothing is
    /// registered, so a test can register and see the error).
    public func reopen(_ classes: [DBBTableObject.Type] = []) throws -> DBBManager {
        let other =
            backend == .sqlite
            ? try DBBManager(url: URL(fileURLWithPath: location)) : try Self.postgresManager(location)
        if !classes.isEmpty { try other.register(classes) }
        return other
    }

    /// A read-only manager on the same database (``DBBManager/isReadOnly``: SQLite's
    /// `DBBManager(url:readOnly:)`, PostgreSQL's `readOnly` configuration), with `classes`
    /// registered (they must exist).
    public func readOnly(_ classes: [DBBTableObject.Type] = []) throws -> DBBManager {
        let reader =
            backend == .sqlite
            ? try DBBManager(url: URL(fileURLWithPath: location), readOnly: true)
            : try Self.postgresManager(location, readOnly: true)
        if !classes.isEmpty { try reader.register(classes) }
        return reader
    }

    /// Where this database is: a file path or a PostgreSQL URL.
    public var place: String { location }
}

extension BackendDatabase {
    /// The test server; `nil` in a build without the package trait `Postgres` (no PostgreSQL
    /// client), which fails instead when `DBB_REQUIRE_POSTGRES` is set.
    static func postgresServer() throws -> TestPostgresServer? {
        #if !Postgres
        if ProcessInfo.processInfo.environment["DBB_REQUIRE_POSTGRES"] != nil {
            throw TestPostgresError(
                message: "this build holds no PostgreSQL client (built without the package trait Postgres: run "
                    + "`swift test --traits Postgres`), and DBB_REQUIRE_POSTGRES is set")
        }
        return nil
        #else
        return try TestPostgresServer.shared()
        #endif
    }

    static func postgresManager(_ url: String, readOnly: Bool = false) throws -> DBBManager {
        #if !Postgres
        throw TestPostgresError(message: "this build holds no PostgreSQL client (without the package trait Postgres)")
        #else
        var configuration = try DBBPostgresConfiguration(url: url)
        configuration.readOnly = readOnly
        return try DBBManager(postgres: configuration)
        #endif
    }
}

extension Backend {
    /// The backend's SQL dialect, for tests of its text without a database; `nil` for
    /// PostgreSQL in a build without the package trait `Postgres` (no PostgreSQL module).
    @_spi(DBBBackend)
    public var dialect: (any DBBDialect)? {
        switch self {
        case .sqlite: return SQLiteDialect()
        case .postgresql:
            #if !Postgres
            return nil
            #else
            return PostgresDialect()
            #endif
        }
    }
}
