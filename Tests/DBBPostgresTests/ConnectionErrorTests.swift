#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// Opening a PostgreSQL database: what fails for the configuration is never retryable and says
/// what to change, in words without the client library's type names; Unix-domain sockets as libpq
/// reads them (`host=/directory`).
@Suite("Opening PostgreSQL: configuration errors, connection failures in words, Unix-domain sockets")
struct ConnectionErrorTests {
    /// Names of postgres-nio's and SwiftNIO's types, which a message must not show.
    private static let typeNames = [
        "SingleConnectionFailure", "NIOConnectionError", "PSQLError", "IOError", "ChannelError", "NIOSSLError",
        "BoringSSLError", "SocketAddress", "errno", "target:",
    ]

    private static func expectNoTypeNames(_ error: DBBError, sourceLocation: SourceLocation = #_sourceLocation) {
        let named = typeNames.filter { error.description.contains($0) }
        #expect(named.isEmpty, "\(named) in \(error)", sourceLocation: sourceLocation)
    }

    /// The error of opening a manager of `url` within `seconds`.
    private static func opening(_ url: String, seconds: Int = 60) throws -> DBBError {
        try #require(throws: DBBError.self) {
            var configuration = try DBBPostgresConfiguration(url: url)
            configuration.connectTimeout = .seconds(seconds)
            _ = try DBBManager(postgres: configuration)
        }
    }

    @Test("sslmode=require against a server without TLS: a configuration error, never retryable, saying what to change")
    func tlsRequiredButNotOffered() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let url = server.direct(try server.makeDatabase()).replacingOccurrences(
            of: "sslmode=disable", with: "sslmode=require")
        let error = try Self.opening(url)
        #expect(error.kind == .unavailable && !error.isRetryable && !error.isConnectionLost, "\(error)")
        #expect(
            error.message.contains("the server offers no TLS") && error.message.contains("sslmode=prefer")
                && error.message.contains("ssl = on"), "\(error)")
        Self.expectNoTypeNames(error)
        // prefer connects without TLS.
        let preferring = url.replacingOccurrences(of: "sslmode=require", with: "sslmode=prefer")
        #expect(try DBBManager(postgres: preferring).query("SELECT 1")[0].decode(Int.self, at: 0) == 1)
    }

    @Test("a refused connection is retryable and says where, in words; a wrong password or database is not retryable")
    func refusedAndRefusedLogins() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        _ = try server.makeDatabase()
        let port = try TestPostgresServer.freePort()
        for keepalive in ["", "&keepalives=0"] {
            let refused = try Self.opening(
                "postgres://dbb@127.0.0.1:\(port)/nowhere?sslmode=disable\(keepalive)", seconds: 5)
            #expect(refused.kind == .unavailable && refused.isRetryable, "\(refused)")
            #expect(refused.message.contains("connection refused at 127.0.0.1:\(port)"), "\(refused)")
            Self.expectNoTypeNames(refused)
        }
        guard !TestPostgresServer.throughPooler else { return }  // (PgBouncer answers logins itself)
        let wrongPassword = try Self.opening(server.direct(server.url(database: "postgres", password: "wrong")))
        #expect(!wrongPassword.isRetryable && wrongPassword.message.contains("check the user name and password"))
        let missing = try Self.opening(server.direct(server.url(database: "no_such_db")))
        #expect(!missing.isRetryable && missing.message.contains("check the database name"), "\(missing)")
        for error in [wrongPassword, missing] { Self.expectNoTypeNames(error) }
    }

    @Test("host=/directory and a %2F host reach the server's Unix-domain socket, as libpq; a missing socket is named")
    func unixSocket() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let name = String(server.direct(try server.makeDatabase()).split(separator: "/").last!.prefix { $0 != "?" })
        let directory = server.socketDirectory
        let encoded = directory.replacingOccurrences(of: "/", with: "%2F")
        for url in [
            "postgres://dbb@/\(name)?host=\(directory)&port=\(server.port)",
            "postgresql://dbb@\(encoded):\(server.port)/\(name)",
            // As libpq, sslmode does not apply to a Unix-domain socket.
            "postgres://dbb@/\(name)?host=\(directory)&port=\(server.port)&sslmode=require",
        ] {
            let configuration = try DBBPostgresConfiguration(url: url)
            #expect(configuration.servers.map(\.isUnixSocket) == [true], "\(url)")
            #expect(configuration.servers[0].description == "\(directory)/.s.PGSQL.\(server.port)")
            let manager = try DBBManager(postgres: configuration)
            try manager.register([Ticket.self])
            let ticket = Ticket(dbManager: manager)
            ticket.code = url
            try ticket.save()
            // The server saw a local connection: no client address.
            #expect(try manager.query("SELECT inet_client_addr() IS NULL")[0].decode(Bool.self, at: 0), "\(url)")
        }
        #expect(try Ticket.all(manager: DBBManager(postgres: server.direct(server.url(database: name)))).count == 3)

        let missing = try Self.opening("postgres://dbb@/\(name)?host=\(directory)/nowhere&port=\(server.port)")
        #expect(missing.kind == .unavailable, "\(missing)")
        #expect(
            missing.message.contains("\(directory)/nowhere/.s.PGSQL.\(server.port)")
                && missing.message.contains("no such file or directory"), "\(missing)")
        Self.expectNoTypeNames(missing)
    }

    @Test("the host and port parameters, as libpq reads them")
    func hostAndPortParameters() throws {
        let cases: [(url: String, servers: [String])] = [
            ("postgres://app@/shop?host=/var/run/postgresql", ["/var/run/postgresql/.s.PGSQL.5432"]),
            ("postgres://app@/shop?host=/tmp/&port=5433", ["/tmp/.s.PGSQL.5433"]),
            ("postgres://app@%2Fvar%2Frun%2Fpostgresql:6000/shop", ["/var/run/postgresql/.s.PGSQL.6000"]),
            ("postgres://app@h1/shop?host=h2,h3&port=5433", ["h2:5433", "h3:5433"]),
            ("postgres://app@h1:1,h2:2/shop?host=a,b", ["a:1", "b:2"]),
            ("postgres://app@h1,h2/shop?port=7,8", ["h1:7", "h2:8"]),
        ]
        for (url, servers) in cases {
            #expect(try DBBPostgresConfiguration(url: url).servers.map(\.description) == servers, "\(url)")
        }
        let refused: [(url: String, names: String)] = [
            ("postgres://app:Zq7xK@/shop", "host=/directory"),
            ("postgres://app:Zq7xK@/shop?host=", "no host"),
            ("postgres://app:Zq7xK@h1,h2,h3/shop?port=1,2", "2 ports for 3 hosts"),
            ("postgres://app:Zq7xK@h/shop?port=x", "'x'"),
            ("postgres://app:Zq7xK@h/shop?host=a&host=b", "host given twice"),
        ]
        for (url, names) in refused {
            let error = try #require(throws: DBBError.self, "\(url)") { _ = try DBBPostgresConfiguration(url: url) }
            #expect(error.kind == .invalidOption && !error.isRetryable && error.message.contains(names), "\(error)")
            #expect(!error.description.contains("Zq7xK"))
        }
    }
}
#endif
