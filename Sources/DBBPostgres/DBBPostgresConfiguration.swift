@_spi(DBBBackend) import DBBBuilder
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
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// TLS: `.disable`, `.prefer(…)` (the default, as libpq's `sslmode=prefer`) or `.require(…)`.
    public var tls: TLS
    /// The most connections the manager opens (reads run on several at once; writes on one).
    public var poolSize: Int = 8
    /// How long an operation waits for a connection before it fails with
    /// ``DBBError/Kind/unavailable``.
    public var connectTimeout: Duration = .seconds(10)
    /// Where postgres-nio logs (nothing by default).
    public var logger = Logger(label: "DBBPostgres", factory: { _ in SwiftLogNoOpLogHandler() })

    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
                tls: TLS = .prefer(.makeClientConfiguration())) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Reads `postgres://user:password@host:port/database` (also `postgresql://`); the query
    /// may set `sslmode` (`disable`, `prefer`, `require`). The user name defaults to the
    /// database's, the port to 5432.
    /// - Throws: ``DBBError/Kind/invalidOption`` naming the part of the URL that is wrong.
    public init(url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? "") else {
            throw DBBError(backend: .invalidOption, "'\(url)' is not a PostgreSQL URL: write postgres://user:password@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw DBBError(backend: .invalidOption, "the URL '\(Self.redacted(components))' names no host")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else {
            throw DBBError(backend: .invalidOption, "the URL '\(Self.redacted(components))' names no database (…/database)")
        }
        let tls: TLS
        switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case let mode:
            throw DBBError(backend: .invalidOption, "sslmode=\(mode) in '\(Self.redacted(components))' is not disable, prefer or require")
        }
        self.init(host: host, port: components.port ?? 5432, username: components.user ?? database,
                  password: components.password, database: database, tls: tls)
    }

    /// The URL without its password, for messages.
    private static func redacted(_ components: URLComponents) -> String {
        var copy = components
        if copy.password != nil { copy.password = "***" }
        return copy.string ?? ""
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

    /// postgres-nio's configuration of one connection.
    /// - Throws: ``DBBError/Kind/invalidOption`` when the TLS configuration cannot be used.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
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
        var configuration = PostgresConnection.Configuration(host: host, port: port, username: username, password: password,
                                                             database: database, tls: connectionTLS)
        configuration.options.connectTimeout = .nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000
                                                            + connectTimeout.components.attoseconds / 1_000_000_000)
        return configuration
    }

    var place: PostgresPlace { PostgresPlace(host: "\(host):\(port)", database: database) }
}
