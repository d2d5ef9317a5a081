#if Postgres
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
    /// - Throws: `DBBError.Kind.unavailable` naming host and database when the server
    ///   cannot be reached (retryable: `DBBError.isRetryable`), or refuses the credentials,
    ///   has no such database or offers no TLS where `sslmode` requires it (not retryable: the
    ///   message says what to change); `DBBError.Kind.invalidOption` for a malformed URL.
    public convenience init(postgres url: String) throws {
        try self.init(postgres: DBBPostgresConfiguration(url: url))
    }

    /// Opens a PostgreSQL database described by `configuration` (TLS, pool size, timeouts).
    public convenience init(postgres configuration: DBBPostgresConfiguration) throws {
        let access = try Self.openPrimary(configuration, tracing: TraceSwitch())
        self.init(access: access, label: "database \(configuration.database) on \(configuration.place.host)")
    }

    /// Opens a PostgreSQL database and its read replicas (streaming standbys of it): writes,
    /// transactions and the reads inside them go to `primary`, other reads to the replicas in
    /// turn. A replica that cannot be reached is left out for 5 seconds, its reads going to the
    /// primary meanwhile; a read whose replica fails in the middle of it runs again on the
    /// primary. Only the primary must be reachable now.
    ///
    /// ```swift
    /// let manager = try DBBManager(postgres: "postgres://app:secret@db-primary/shop",
    ///                              replicas: ["postgres://app:secret@db-replica-1/shop"],
    ///                              readYourWrites: true)
    /// ```
    ///
    /// - Parameters:
    ///   - primary: the URL of the primary server, read as ``DBBPostgresConfiguration/init(url:)``
    ///     reads it.
    ///   - replicas: the URLs of streaming standbys of the primary; none is allowed.
    ///   - readYourWrites: after this manager writes, its reads go to a replica only once that
    ///     replica has replayed the write (else to the primary), so a fetch after a save sees
    ///     it. Without it (the default), a replica may answer a read from a moment before this
    ///     manager's last write, though never from before its last `register` (the tables it
    ///     made are read on the primary until a replica has them); other managers' writes are
    ///     never waited for either way.
    public convenience init(postgres primary: String, replicas: [String], readYourWrites: Bool = false) throws {
        try self.init(
            postgres: DBBPostgresConfiguration(url: primary),
            replicas: replicas.map(DBBPostgresConfiguration.init(url:)), readYourWrites: readYourWrites)
    }

    /// ``init(postgres:replicas:readYourWrites:)`` with configurations (TLS, pool sizes, timeouts).
    public convenience init(
        postgres primary: DBBPostgresConfiguration, replicas: [DBBPostgresConfiguration],
        readYourWrites: Bool = false
    ) throws {
        let tracing = TraceSwitch()
        let primaryAccess = try Self.openPrimary(primary, tracing: tracing)
        var replicaAccesses: [PostgresAccess] = []
        do {
            for replica in replicas {
                let access = try PostgresAccess(configuration: replica, tracing: tracing, readsOnly: true)
                replicaAccesses.append(access)
                try Self.checkReplica(access, replica)
            }
        } catch {
            primaryAccess.close()
            for access in replicaAccesses { access.close() }
            throw error
        }
        let access = ReplicatedAccess(
            primary: primaryAccess, replicas: replicaAccesses, readYourWrites: readYourWrites,
            tracing: tracing)
        let label =
            "database \(primary.database) on \(primary.place.host)"
            + (replicas.isEmpty ? "" : " (replicas on \(replicas.map(\.place.host).joined(separator: ", ")))")
        self.init(access: access, label: label)
    }

    /// Refuses a replica that answers but cannot serve: one that is not a standby (another
    /// database would answer the reads), or that refuses the credentials or has no such
    /// database (a configuration error, not a replica that is down). One that cannot be
    /// reached now is taken, and tried when reads come. A replica whose
    /// `targetSessionAttributes` names the kind of server it takes (`standby`, `read-only`,
    /// `prefer-standby`: a list of hosts that includes the primary) is not asked.
    private static func checkReplica(_ access: PostgresAccess, _ configuration: DBBPostgresConfiguration) throws {
        guard [.any, .readWrite, .primary].contains(configuration.targetSessionAttributes) else { return }
        let inRecovery: Bool
        do {
            inRecovery = try access.read { connection in
                let statement = try connection.statement("SELECT pg_is_in_recovery()")
                defer { statement.reset() }
                return try statement.step() && statement.reader.int64(at: 0) != 0
            }
        } catch let failure as PostgresFailure where failure.server == nil {
            return  // down: the reads will find out
        } catch let failure as PostgresFailure {
            throw failure.dbbError(table: nil, columns: [])
        } catch let error as DBBError where error.kind == .unavailable && error.serverError?.sqlState == nil {
            return
        }
        guard inRecovery else {
            throw DBBError(
                backend: .invalidOption,
                "the replica \(configuration.description) is not a standby "
                    + "(pg_is_in_recovery() is false): its reads would not be the primary's data")
        }
    }

    /// The connections of a primary, checked now: fail with the server's reason rather than at
    /// the first save; then the locale functions installed, unless the configuration is read-only.
    private static func openPrimary(_ configuration: DBBPostgresConfiguration, tracing: TraceSwitch) throws
        -> PostgresAccess
    {
        let access = try PostgresAccess(configuration: configuration, tracing: tracing)
        do {
            try PostgresLocaleInstaller.translated {
                try access.read { try $0.execute("SELECT 1", []) }
                if !configuration.readOnly { try PostgresLocaleInstaller.installIfNeeded(access) }
            }
        } catch {
            access.close()
            throw error
        }
        return access
    }

    /// Adds the week rules of locale identifiers with `@keywords` (`de_DE@fw=sun`) to a
    /// PostgreSQL database's locale functions, which know every identifier of
    /// `Locale.availableIdentifiers` without them. Nothing to do on SQLite, whose functions
    /// read any identifier Foundation reads.
    /// - Throws: `DBBError.Kind.invalidOption` naming an identifier Foundation does not know;
    ///   `DBBError.Kind.readOnly` on a read-only manager, before anything is sent.
    public func addLocaleRules(for identifiers: [String]) throws {
        guard let access = Self.primary(of: backendAccess) else { return }
        try refuseWriteIfReadOnly("addLocaleRules(for:)")
        try PostgresLocaleInstaller.addRules(for: identifiers, access)
    }

    /// Installs the locale date functions in a PostgreSQL database, or brings them up to this
    /// version of the library: what opening a manager does, unless its configuration is
    /// ``DBBPostgresConfiguration/readOnly`` (or the server refused it then: a standby, a role
    /// without `CREATE`). Nothing to do on SQLite, whose connections all have them.
    /// - Throws: `DBBError.Kind.readOnly` on a read-only manager, before anything is sent;
    ///   `DBBError` with the server's refusal (SQLSTATE `25006` on a standby, `42501` for a
    ///   role that may not create functions).
    public func installLocaleFunctions() throws {
        guard let access = Self.primary(of: backendAccess) else { return }
        try refuseWriteIfReadOnly("installLocaleFunctions()")
        try PostgresLocaleInstaller.installIfNeeded(access, reportingRefusal: true)
    }

    /// Removes the locale date functions and their table from a PostgreSQL database (a
    /// manager opened on it later installs them again). Nothing to do on SQLite.
    public func uninstallLocaleFunctions() throws {
        guard let access = Self.primary(of: backendAccess) else { return }
        try refuseWriteIfReadOnly("uninstallLocaleFunctions()")
        try PostgresLocaleInstaller.translated {
            try access.write { connection in
                try connection.atomically(.immediate) {
                    for statement in PostgresLocaleSQL.uninstall { try connection.execute(statement, []) }
                }
            }
        }
    }

    /// The primary's connections of a PostgreSQL manager's access; `nil` on SQLite.
    private static func primary(of access: any DatabaseAccess) -> PostgresAccess? {
        (access as? PostgresAccess) ?? (access as? ReplicatedAccess)?.primary
    }
}
#endif
