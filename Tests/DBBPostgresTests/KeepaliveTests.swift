#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// TCP keepalive on the manager's connections, seen where the kernel keeps it: the timer of the
/// connection's socket in `/proc/self/net/tcp`.
@Suite("TCP keepalive on PostgreSQL connections")
struct KeepaliveTests {
    /// The timer of the socket whose local port is `port`: whether the keepalive timer is armed
    /// (`tr` 2), and the seconds until it fires.
    private static func timer(localPort port: Int) throws -> (keepalive: Bool, seconds: Double) {
        // Read to its end: a /proc file has no size to read up to.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/net/tcp"))
        defer { try? file.close() }
        let table = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        for line in table.split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when …
            let fields = line.split(separator: " ")
            guard fields.count > 5, Int(fields[1].split(separator: ":")[1], radix: 16) == port else { continue }
            let timer = fields[5].split(separator: ":")
            return (Int(timer[0], radix: 16) == 2, Double(Int(timer[1], radix: 16) ?? 0) / ticks)
        }
        throw TestPostgresError(message: "no socket with local port \(port) in /proc/self/net/tcp")
    }

    @Test(
        "keepalives_idle=7: an idle pooled connection has the keepalive timer armed within 7 s; keepalives=0 leaves it off"
    )
    func armed() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        // On the server itself: through PgBouncer, the server would see PgBouncer's port.
        let url = server.direct(try server.makeDatabase())
        for (query, idle) in [
            ("keepalives_idle=7&keepalives_interval=2&keepalives_count=2", 7.0), ("keepalives=0", nil),
        ] {
            var configuration = try DBBPostgresConfiguration(url: url + "&" + query)
            configuration.poolSize = 1
            let manager = try DBBManager(postgres: configuration)
            let port = try manager.query("SELECT inet_client_port()")[0].decode(Int.self, at: 0)
            let timer = try Self.timer(localPort: port)
            if let idle {
                #expect(timer.keepalive && timer.seconds > 0 && timer.seconds <= idle, "\(query): \(timer)")
            } else {
                #expect(!timer.keepalive, "\(query): \(timer)")
            }
            #expect(try manager.query("SELECT 1")[0].decode(Int.self, at: 0) == 1)
        }
        let defaults = try DBBPostgresConfiguration(url: url)
        #expect(
            defaults.keepalive
                == DBBPostgresConfiguration.Keepalive(idle: .seconds(60), interval: .seconds(10), count: 3))
        for bad in [
            "keepalives=2", "keepalives_idle=0", "keepalives_count=x", "keepalives_count=200", "keepalives_idle=40000",
        ] {
            let error = #expect(throws: DBBError.self) { _ = try DBBPostgresConfiguration(url: url + "&" + bad) }
            #expect(
                error?.kind == .invalidOption && error?.message.contains(bad) == true, "\(String(describing: error))")
        }
        var zero = defaults
        zero.keepalive?.interval = .milliseconds(500)
        let error = #expect(throws: DBBError.self) { _ = try DBBManager(postgres: zero) }
        #expect(error?.message.contains("keepalive.interval") == true, "\(String(describing: error))")
    }

    @Test(
        "the connection keepalive opens still asks for TLS: prefer connects in plain to a server without it, require is refused"
    )
    func tlsNegotiation() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let url = try server.makeDatabase()
        let preferring = url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=prefer")
        let manager = try DBBManager(postgres: preferring)
        #expect(
            try manager.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")[0].decode(Int.self, at: 0)
                == 0)
        let requiring = url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
        let error = #expect(throws: DBBError.self) { _ = try DBBManager(postgres: requiring) }
        #expect(error?.kind == .unavailable, "\(String(describing: error))")
    }
}
#endif
