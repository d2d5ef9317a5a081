#if Postgres
@_spi(DBBBackend) import DBBBuilder
@_spi(DBBBackend) import DBBSQLite
import Foundation
import Logging
import PostgresNIO

/// Where and how a manager reaches a PostgreSQL database: server, credentials, TLS and the
/// size of its connection pool.
///
/// ```swift
/// var configuration = try DBBPostgresConfiguration(url: "postgres://app:secret@db.internal:5432/shop")
/// configuration.poolSize = 16
/// configuration.tls = .require(.makeClientConfiguration())
/// let manager = try DBBManager(postgres: configuration)
/// ```
public struct DBBPostgresConfiguration: Sendable {
    /// The servers to try, in order, as libpq tries the hosts of a URL
    /// (`postgres://h1:5432,h2:5433/db`): the first that answers and is the kind
    /// ``targetSessionAttributes`` asks for takes the connection. One server for most
    /// deployments; a primary and its standbys to follow the primary across a failover.
    public var servers: [Server]
    /// The first server's host (see ``servers``).
    public var host: String {
        get { servers.first?.host ?? "" }
        set {
            if servers.isEmpty {
                servers.append(Server(host: newValue))
            } else {
                servers[0].host = newValue
            }
        }
    }
    /// The first server's port (see ``servers``).
    public var port: Int {
        get { servers.first?.port ?? 5432 }
        set {
            if servers.isEmpty {
                servers.append(Server(host: "", port: newValue))
            } else {
                servers[0].port = newValue
            }
        }
    }
    /// Which of ``servers`` a connection may use, as libpq's `target_session_attrs`: `.any`
    /// (the default: the first that answers), `.readWrite` or `.primary` (the primary, to follow
    /// it across a failover), `.readOnly`, `.standby` or `.preferStandby` (for replicas).
    public var targetSessionAttributes: TargetSessionAttributes = .any
    public var username: String
    public var password: String?
    public var database: String
    /// TLS: `.disable`, `.prefer(…)` (the default, as libpq's `sslmode=prefer`) or `.require(…)`.
    public var tls: TLS
    /// The most connections the manager opens to this server, at least 1. One is kept for
    /// writes (one write at a time per manager, as on SQLite), so that writes never wait behind
    /// reads; the others serve reads, several at once. A pool of one connection serves both in
    /// turn, and a replica's pool serves reads with all of its connections.
    public var poolSize: Int = 8
    /// How long a read waits for one of the pool's read connections when all are busy, before
    /// it fails with `DBBError.Kind.unavailable` naming the pool; above zero.
    public var poolTimeout: Duration = .seconds(10)
    /// How long opening a connection to the server may take before it fails with
    /// `DBBError.Kind.unavailable`; above zero.
    public var connectTimeout: Duration = .seconds(10)
    /// How long a statement may wait for the server's answer before the manager gives up on
    /// its connection, or `nil` (the default) to wait as long as the server takes. A server
    /// that answers nothing at all — a stopped or frozen process, a network that drops packets
    /// without closing the connection — otherwise holds the statement until it comes back.
    ///
    /// When the time is up, the connection is closed and the statement fails as one whose
    /// connection was lost: `DBBError.Kind.unavailable` (nothing was stored: a read, or a
    /// write inside a transaction that had not committed), or
    /// `DBBError.Kind.commitOutcomeUnknown` (a `COMMIT`, or a write that commits on its own,
    /// was on its way); the message says the time ran out. The pool opens a new connection
    /// for the next call. Set it above the longest statement you run (and above the server's
    /// `statement_timeout`, which ends a slow statement with an answer and keeps the
    /// connection); above zero.
    public var answerTimeout: Duration?
    /// TCP keepalive on each connection, so that an idle pooled connection whose server or
    /// network went away without a word (a machine that died, a dropped route) is found dead
    /// and closed by the system, not lent to the next call: after `idle` without traffic, a
    /// probe every `interval`, and the connection closed after `count` unanswered ones — about
    /// 90 seconds with the defaults. `nil` leaves the system's setting (off on Linux). (A
    /// statement waiting for its answer is bounded by ``answerTimeout`` instead.) The URL may set
    /// it as libpq does: `keepalives=0` turns it off, `keepalives_idle`, `keepalives_interval`
    /// (seconds) and `keepalives_count`.
    public var keepalive: Keepalive? = Keepalive()
    /// The server's `statement_timeout` for the manager's sessions, or `nil` (the default) for
    /// the server's own setting: a statement that runs longer is cancelled by the server, and
    /// fails as `DBBError.Kind.timedOut` — its transaction rolled back, nothing of it stored,
    /// the connection kept (or as `.server` naming what stays, for a statement that leaves
    /// something: a `CALL` that committed, a `CREATE INDEX CONCURRENTLY`'s invalid index). A
    /// `COMMIT` waiting for a synchronous standby is not cancelled: ``answerTimeout`` ends it.
    /// Whole milliseconds, at least one. It is a startup parameter of each
    /// connection, which PgBouncer refuses: with ``transactionPooling`` it is refused too, and
    /// the role's setting does the same (`ALTER ROLE app SET statement_timeout = '5s'`).
    /// `DBBManager.withStatementTimeout(_:_:)` bounds the statements of one call.
    public var statementTimeout: Duration?
    /// Opens the database without changing anything in it, for read-only tools, read-only
    /// roles and standbys: the manager installs no locale functions (a query that calls one
    /// that is not installed fails saying how to install it), `DBBManager.register(_:)`
    /// only checks that the tables and columns it maps exist and that the role may read
    /// them, the table objects' writes (saves, deletes…) are refused with
    /// `DBBError.Kind.readOnly` before any SQL is sent (`DBBManager.isReadOnly`), and
    /// everything it runs is read-only, so the server refuses raw SQL that writes: every
    /// transaction is `READ ONLY` and rolled back, a raw statement outside one runs in a
    /// read-only transaction of its own (so what it changes of the session, `set_config(…)`, is
    /// undone), and raw transaction control and `SET`/`RESET` are refused. None of this is a
    /// setting of the session, so it holds behind a transaction-pooling PgBouncer too.
    /// PostgreSQL's read-only mode cannot stop functions whose effects ignore transactions
    /// (`pg_stat_reset()`, replication slots, advisory locks): for a strict read-only client,
    /// connect as a role granted only reading (`pg_read_all_data`, or `SELECT` on the
    /// tables), neither superuser nor `REPLICATION`.
    public var readOnly = false
    /// The manager reaches the server through a pooler in transaction mode (PgBouncer's
    /// `pool_mode = transaction`), which hands the server session to another client each time
    /// a transaction ends. The ORM keeps nothing in the session, so everything it does works
    /// there; what raw SQL would leave in the session for later statements is refused, naming
    /// it, instead of reaching another client or missing from the next statement: `SET` (use
    /// `SET LOCAL` in a transaction), `RESET`, `LISTEN`, `PREPARE`/`EXECUTE`, `DECLARE … WITH
    /// HOLD`, `CREATE TEMP TABLE` (unless `ON COMMIT DROP`), the session advisory lock functions
    /// (use `pg_advisory_xact_lock`). `set_config(name, value, false)` is one it cannot see:
    /// pass `true`. The server's ``statementTimeout`` cannot be a startup parameter there
    /// (PgBouncer refuses them): set it on the role instead
    /// (`ALTER ROLE app SET statement_timeout = '5s'`).
    public var transactionPooling = false
    /// Where postgres-nio logs (nothing by default).
    public var logger = Logger(label: "DBBPostgres", factory: { _ in SwiftLogNoOpLogHandler() })

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLS = .prefer(.makeClientConfiguration())
    ) {
        servers = [Server(host: host, port: port)]
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Reads `postgres://user:password@host:port/database` (also `postgresql://`), as libpq
    /// does: user, password and database percent-decoded, an IPv6 host in brackets
    /// (`[::1]`), the port 5432 unless given, the user name the database's unless given;
    /// several hosts separated by commas (`postgres://app@h1:5432,h2:5433/shop`), tried in turn;
    /// a host that starts with `/` (percent-encoded before the `/database`, or in the `host`
    /// parameter: `postgres://app@/shop?host=/var/run/postgresql`) is the directory of the
    /// server's Unix-domain socket (see ``Server/isUnixSocket``). The `host` and `port`
    /// parameters replace the hosts and ports before the `/database`, as in libpq.
    /// The query may set `sslmode` (`disable`; `allow` and `prefer`, TLS when the server offers it;
    /// `require`, `verify-ca` and `verify-full`, TLS or no connection), `connect_timeout`
    /// (seconds, per host) and `target_session_attrs` (`any`, `read-write`, `read-only`,
    /// `primary`, `standby`, `prefer-standby`: see ``targetSessionAttributes``).
    /// - Throws: `DBBError.Kind.invalidOption` naming the part of the URL that is wrong — a
    ///   scheme other than postgres, a port outside 1…65535, an unknown or repeated parameter —
    ///   with the URL shown without its password.
    public init(url: String) throws {
        let parsed = try PostgresURL(url)
        let tls: TLS
        switch parsed.sslmode ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode:
            throw DBBError(
                backend: .invalidOption,
                "sslmode=\(mode) in the PostgreSQL URL '\(PostgresURL.redacted(url))' "
                    + "is not disable, allow, prefer, require, verify-ca or verify-full")
        }
        self.init(
            host: parsed.servers[0].host, port: parsed.servers[0].port, username: parsed.user ?? parsed.database,
            password: parsed.password, database: parsed.database, tls: tls)
        servers = parsed.servers
        if let seconds = parsed.connectTimeout { connectTimeout = .seconds(seconds) }
        if let target = parsed.targetSessionAttributes { targetSessionAttributes = target }
        if parsed.keepalives == false { keepalive = nil }
        if var keepalive {
            if let seconds = parsed.keepalivesIdle { keepalive.idle = .seconds(seconds) }
            if let seconds = parsed.keepalivesInterval { keepalive.interval = .seconds(seconds) }
            if let count = parsed.keepalivesCount { keepalive.count = count }
            self.keepalive = keepalive
        }
    }

    /// `url` with its password replaced by `***`, for logs and messages; the rest as written,
    /// even when the URL does not parse.
    public static func withoutPassword(_ url: String) -> String { PostgresURL.redacted(url) }

    /// TCP keepalive probes (see ``keepalive``).
    public struct Keepalive: Sendable, Equatable {
        /// How long a connection is idle before the first probe: 1 second or more.
        public var idle: Duration
        /// The time between probes: 1 second or more.
        public var interval: Duration
        /// How many probes go unanswered before the connection is closed: 1 or more.
        public var count: Int

        public init(idle: Duration = .seconds(60), interval: Duration = .seconds(10), count: Int = 3) {
            self.idle = idle
            self.interval = interval
            self.count = count
        }

        /// The whole seconds of `idle` and `interval`, checked.
        func seconds(for host: String) throws -> (idle: Int, interval: Int, count: Int) {
            let values = [("idle", idle.components.seconds), ("interval", interval.components.seconds)]
            for (name, seconds) in values where !(1...32767).contains(seconds) {
                throw DBBError(
                    backend: .invalidOption, "keepalive.\(name) for \(host) is not from 1 to 32767 seconds")
            }
            guard (1...127).contains(count) else {
                throw DBBError(backend: .invalidOption, "keepalive.count \(count) for \(host) is not from 1 to 127")
            }
            return (Int(values[0].1), Int(values[1].1), count)
        }
    }

    /// One server of ``servers``: host name or address, and port — or, as libpq reads a host
    /// that starts with `/`, the directory of the server's Unix-domain socket and the port that
    /// names the socket file (`/var/run/postgresql` and 5432: `/var/run/postgresql/.s.PGSQL.5432`).
    public struct Server: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int = 5432) {
            self.host = host
            self.port = port
        }

        /// Whether ``host`` is the directory of a Unix-domain socket: it starts with `/`. Such a
        /// connection uses no TLS, whatever ``DBBPostgresConfiguration/tls`` says (as libpq
        /// ignores `sslmode` there), and no TCP keepalive.
        public var isUnixSocket: Bool { host.hasPrefix("/") }

        /// The socket file of a Unix-domain socket server: `<host>/.s.PGSQL.<port>`.
        var socketPath: String { (host.hasSuffix("/") ? host : host + "/") + ".s.PGSQL.\(port)" }

        /// `host:port`, an IPv6 address in brackets (`[::1]:5432`); a Unix-domain socket's
        /// file (`/var/run/postgresql/.s.PGSQL.5432`).
        public var description: String {
            isUnixSocket ? socketPath : "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    /// Which kind of server a connection may use (libpq's `target_session_attrs`). A server's
    /// kind is asked once per new connection (`pg_is_in_recovery()` and
    /// `default_transaction_read_only`), not per statement; a server that is not of the kind is
    /// passed over for the next of ``servers``.
    public enum TargetSessionAttributes: String, Sendable, CaseIterable {
        /// The first server that answers.
        case any
        /// One that accepts writes: not a standby, and `default_transaction_read_only` off.
        case readWrite = "read-write"
        /// One that does not: a standby, or `default_transaction_read_only` on.
        case readOnly = "read-only"
        /// One that is not a standby (not in recovery).
        case primary
        /// A standby (in recovery).
        case standby
        /// A standby if any answers, else any server.
        case preferStandby = "prefer-standby"
    }

    /// Whether and how connections use TLS.
    public enum TLS: Sendable {
        /// Plain connections.
        case disable
        /// TLS when the server offers it, plain otherwise.
        case prefer(TLSConfiguration)
        /// TLS or no connection.
        case require(TLSConfiguration)
    }

    /// postgres-nio's configuration of a connection to each of ``servers``, in their order.
    /// - Throws: `DBBError.Kind.invalidOption` when the TLS configuration cannot be used.
    func connectionConfigurations() throws -> [PostgresConnection.Configuration] {
        guard !servers.isEmpty else {
            throw DBBError(
                backend: .invalidOption, "no server to connect to for database \(database): servers is empty")
        }
        guard poolSize >= 1 else {
            throw DBBError(
                backend: .invalidOption,
                "poolSize \(poolSize) for \(place.host): a manager needs at least one connection")
        }
        for server in servers where !(1...65535).contains(server.port) {
            throw DBBError(
                backend: .invalidOption, "port \(server.port) for \(server.host) is not a number from 1 to 65535")
        }
        let timeouts = [
            ("connectTimeout", connectTimeout), ("poolTimeout", poolTimeout), ("answerTimeout", answerTimeout),
            ("statementTimeout", statementTimeout),
        ]
        for case (let name, let value?) in timeouts where value <= .zero {
            throw DBBError(backend: .invalidOption, "\(name) \(value) for \(place.host) is not above zero")
        }
        let statementTimeout = try statementTimeout.map { try StatementDeadline($0).milliseconds }
        if statementTimeout != nil && transactionPooling {
            throw DBBError(
                backend: .invalidOption,
                "statementTimeout for \(place.host) is a startup parameter, which a transaction pooler refuses: "
                    + "set it on the role (ALTER ROLE \(username) SET statement_timeout = …), or bound calls with "
                    + "DBBManager.withStatementTimeout")
        }
        let connectionTLS: PostgresConnection.Configuration.TLS
        do {
            switch tls {
            case .disable: connectionTLS = .disable
            case .prefer(let configuration): connectionTLS = .prefer(try NIOSSLContext(configuration: configuration))
            case .require(let configuration): connectionTLS = .require(try NIOSSLContext(configuration: configuration))
            }
        } catch {
            throw DBBError(backend: .invalidOption, "the TLS configuration for \(place.host) cannot be used: \(error)")
        }
        return servers.map { server in
            var configuration =
                server.isUnixSocket
                ? PostgresConnection.Configuration(
                    unixSocketPath: server.socketPath, username: username, password: password, database: database)
                : PostgresConnection.Configuration(
                    host: server.host, port: server.port, username: username, password: password,
                    database: database, tls: connectionTLS)
            configuration.options.connectTimeout = .nanoseconds(Int64(clamping: connectTimeout.nanosecondCount))
            if let statementTimeout {
                configuration.options.additionalStartupParameters.append(("statement_timeout", "\(statementTimeout)"))
            }
            return configuration
        }
    }

    var place: PostgresPlace {
        PostgresPlace(host: servers.map(\.description).joined(separator: ","), database: database, role: username)
    }
}

extension DBBPostgresConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The configuration without its password:
    /// `postgres://app:***@db.internal:5432/shop (pool 8, TLS prefer)`, and `read-only` when it is.
    public var description: String {
        let user = username + (password == nil ? "" : ":***")
        let tls =
            switch tls {
            case .disable: "disable"
            case .prefer: "prefer"
            case .require: "require"
            }
        let target = targetSessionAttributes == .any ? "" : ", target_session_attrs \(targetSessionAttributes.rawValue)"
        return
            "postgres://\(user)@\(place.host)/\(database) (pool \(poolSize), TLS \(tls)\(target)\(readOnly ? ", read-only" : "")\(transactionPooling ? ", transaction pooling" : ""))"
    }

    public var debugDescription: String { description }

    /// What `dump` and the debugger show: the fields, the password hidden.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "servers": servers.map(\.description), "targetSessionAttributes": targetSessionAttributes.rawValue,
                "username": username, "password": password == nil ? "nil" : "***",
                "database": database, "poolSize": poolSize, "poolTimeout": poolTimeout,
                "connectTimeout": connectTimeout, "answerTimeout": answerTimeout as Any,
                "statementTimeout": statementTimeout as Any, "keepalive": keepalive as Any, "readOnly": readOnly,
                "transactionPooling": transactionPooling,
            ],
            displayStyle: .struct)
    }
}
#endif
