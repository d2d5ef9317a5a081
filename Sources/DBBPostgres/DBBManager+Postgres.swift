@_spi(DBBBackend) import DBBBuilder
import Logging
import PostgresNIO

extension DBBManager {
    /// Opens a PostgreSQL database: the same table objects, mappings, query options and
    /// relations as on SQLite, in the same tables (see the README, "Scaling out with
    /// PostgreSQL").
    ///
    /// ```swift
    /// let manager = try DBBManager(postgres: "postgres://app:secret@db.internal:5432/shop")
    /// try manager.register([Person.self, Project.self])
    /// ```
    ///
    /// The synchronous forms (`save()`, `instances(…)`) block the calling thread until the
    /// server answers; on a SwiftNIO event loop they throw instead — use the `async` forms there.
    /// - Throws: ``DBBError/Kind/unavailable`` naming host and database when the server
    ///   cannot be reached, refuses the credentials, or has no such database;
    ///   ``DBBError/Kind/invalidOption`` for a malformed URL.
    public convenience init(postgres url: String) throws {
        try self.init(postgres: DBBPostgresConfiguration(url: url))
    }

    /// Opens a PostgreSQL database described by `configuration` (TLS, pool size, timeouts).
    public convenience init(postgres configuration: DBBPostgresConfiguration) throws {
        let access = try PostgresAccess(configuration: configuration)
        do {
            // Fail now, with the server's reason, rather than at the first save.
            try access.read { try $0.execute("SELECT 1", []) }
            try PostgresLocaleInstaller.installIfNeeded(access)
        } catch {
            access.close()
            throw error
        }
        self.init(access: access, label: "database \(configuration.database) on \(configuration.place.host)")
    }

    /// Adds the week rules of locale identifiers with `@keywords` (`de_DE@fw=sun`) to a
    /// PostgreSQL database's locale functions, which know every identifier of
    /// `Locale.availableIdentifiers` without them. Nothing to do on SQLite, whose functions
    /// read any identifier Foundation reads.
    /// - Throws: ``DBBError/Kind/invalidOption`` naming an identifier Foundation does not know.
    public func addLocaleRules(for identifiers: [String]) throws {
        guard let access = backendAccess as? PostgresAccess else { return }
        try PostgresLocaleInstaller.addRules(for: identifiers, access)
    }

    /// Removes the locale date functions and their table from a PostgreSQL database (a
    /// manager opened on it later installs them again). Nothing to do on SQLite.
    public func uninstallLocaleFunctions() throws {
        guard let access = backendAccess as? PostgresAccess else { return }
        try PostgresLocaleInstaller.translated {
            try access.write { connection in
                try connection.atomically(.immediate) {
                    for statement in PostgresLocaleSQL.uninstall { try connection.execute(statement, []) }
                }
            }
        }
    }
}
