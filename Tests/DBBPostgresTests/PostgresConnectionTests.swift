#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import NIOPosix
import Testing

/// What only a server backend meets: connection failures, credentials, event loops.
@Suite("PostgreSQL connections: typed errors naming host and database")
struct PostgresConnectionTests {
    @Test("a port with no server, a wrong password and a missing database are `unavailable` errors naming them")
    func unreachable() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        _ = try server.makeDatabase()

        let refused = try #require(throws: DBBError.self) {
            var configuration = try DBBPostgresConfiguration(url: "postgres://dbb@127.0.0.1:1/nowhere?sslmode=disable")
            configuration.connectTimeout = .seconds(3)
            _ = try DBBManager(postgres: configuration)
        }
        #expect(refused.kind == .unavailable)
        // A server that cannot be reached may come back: a retry can succeed.
        #expect(refused.isConnectionLost && refused.isRetryable && !refused.isTimeout, "\(refused)")
        #expect(refused.description.contains("127.0.0.1:1") && refused.description.contains("nowhere"))

        let badPassword = try #require(throws: DBBError.self) {
            var configuration = try DBBPostgresConfiguration(url: server.url(database: "postgres", password: "wrong"))
            configuration.connectTimeout = .seconds(60)
            _ = try DBBManager(postgres: configuration)
        }
        #expect(badPassword.kind == .unavailable)
        // A refused login does not pass by itself (except through PgBouncer, whose refusal is a
        // protocol error, SQLSTATE 08P01, not told apart from a broken connection).
        #expect(badPassword.isConnectionLost == TestPostgresServer.throughPooler, "\(badPassword)")
        // PgBouncer answers a refused login with its own protocol error.
        let pooled = TestPostgresServer.throughPooler
        #expect(badPassword.serverError?.sqlState == (pooled ? "08P01" : "28P01"), "\(badPassword)")

        let missing = try #require(throws: DBBError.self) {
            var configuration = try DBBPostgresConfiguration(url: server.url(database: "no_such_db"))
            configuration.connectTimeout = .seconds(60)
            _ = try DBBManager(postgres: configuration)
        }
        #expect(missing.kind == .unavailable)
        #expect(missing.isConnectionLost == TestPostgresServer.throughPooler && !missing.isConstraintViolation)
        #expect(missing.serverError?.sqlState == (pooled ? "08P01" : "3D000"), "\(missing)")
        #expect(missing.description.contains("no_such_db"))
    }

    @Test("a malformed URL names what is wrong, without the password")
    func malformedURL() throws {
        let cases: [(url: String, names: String)] = [
            ("mysql://u:Zq7xK@h/db", "'mysql'"),
            ("http://u:Zq7xK@h/db", "'http'"),
            ("u:Zq7xK@h/db", "no scheme"),
            ("postgres://u:Zq7xK@/db", "no host"),
            ("postgres://u:Zq7xK@h", "no database"),
            ("postgres://u:Zq7xK@h/db?sslmode=maybe", "sslmode=maybe"),
            ("postgres://u:Zq7xK@h:notaport/db", "'notaport'"),
            ("postgres://u:Zq7xK@h:-1/db", "'-1'"),
            ("postgres://u:Zq7xK@h:0/db", "'0'"),
            ("postgres://u:Zq7xK@h:120968/db", "'120968'"),
            ("postgres://u:Zq7xK@h/db?sslmode=disable&sslmode=require", "sslmode given twice"),
            ("postgres://u:Zq7xK@h/db?sslmod=disable", "'sslmod'"),
            ("postgres://u:Zq7xK@h/db?connect_timeout=soon", "connect_timeout=soon"),
            ("postgres://u:Zq/7xK@h/db", "percent-encode"),
            ("postgres://u:Zq?7xK@h/db", "percent-encode"),
            ("postgres://u:Zq7xK@a,,b/db", "no host"),
            ("postgres://u:Zq7xK@a:1,b:x/db", "'x'"),
            ("postgres://u:Zq7xK@a,b/db?target_session_attrs=master", "target_session_attrs=master"),
            ("postgres://u@h/db?password=Zq7xK&bogus=1", "'bogus'"),
            ("postgres://u:Zq7xK@::1/db", "IPv6"),
            ("postgres://u:Zq7xK@h/d%00b", "control character"),
            ("postgres://u:Zq7xK@h/db%0A", "control character"),
        ]
        for (url, names) in cases {
            let error = #expect(throws: DBBError.self, "\(url)") { _ = try DBBPostgresConfiguration(url: url) }
            #expect(error?.kind == .invalidOption)
            #expect(error?.description.contains(names) == true, "\(url): \(String(describing: error))")
            #expect(error?.description.contains("Zq") == false, "\(url): \(String(describing: error))")
            #expect(error?.description.contains("7xK") == false, "\(url): \(String(describing: error))")
        }

        let parsed = try DBBPostgresConfiguration(
            url: "postgresql://app:p%40ss%2Fw@[::1]:6543/my%20db?sslmode=disable&connect_timeout=3")
        #expect(parsed.host == "::1" && parsed.port == 6543 && parsed.username == "app" && parsed.password == "p@ss/w")
        #expect(parsed.database == "my db" && parsed.connectTimeout == .seconds(3))
        guard case .disable = parsed.tls else {
            Issue.record("sslmode=disable gave \(parsed.tls)")
            return
        }
        // Several hosts, as libpq lists them: each with its port (5432 unless given).
        let listed = try DBBPostgresConfiguration(
            url: "postgres://app@h1:5433,[::2],h3/shop?target_session_attrs=read-write")
        #expect(listed.servers.map(\.description) == ["h1:5433", "[::2]:5432", "h3:5432"])
        #expect(listed.host == "h1" && listed.port == 5433 && listed.targetSessionAttributes == .readWrite)
        let params = try DBBPostgresConfiguration(url: "postgres://h/db?user=app&password=p%26w")
        #expect(params.username == "app" && params.password == "p&w")
        #expect(
            DBBPostgresConfiguration.withoutPassword("postgres://h/db?user=a&password=s3cret")
                == "postgres://h/db?user=a&password=***")
        // An `@` in a password= value is not the end of the user information.
        for url in ["postgres://app@h:5432/db?password=se@cret", "postgres://app:pw@h/db?password=se@cr@et&x=1"] {
            let shown = DBBPostgresConfiguration.withoutPassword(url)
            #expect(!shown.contains("cret") && !shown.contains("se@") && !shown.contains(":pw@"), "\(url) → \(shown)")
        }
        #expect(
            "\(listed)"
                == "postgres://app@h1:5433,[::2]:5432,h3:5432/shop (pool 8, TLS prefer, target_session_attrs read-write)"
        )
        var emptied = listed
        emptied.servers = []
        #expect(throws: DBBError.self) { _ = try DBBManager(postgres: emptied) }
        let defaults = try DBBPostgresConfiguration(url: "postgres://db.internal/shop")
        #expect(defaults.port == 5432 && defaults.username == "shop" && defaults.password == nil)
        #expect(DBBPostgresConfiguration.withoutPassword("postgres://u:secret@h/db") == "postgres://u:***@h/db")
        #expect("\(parsed)" == "postgres://app:***@[::1]:6543/my db (pool 8, TLS disable)")
        var dumped = ""
        dump(parsed, to: &dumped)
        #expect(!dumped.contains("p@ss") && dumped.contains("***"), "\(dumped)")
    }

    @Test("dump(manager) shows where the database is, not the password")
    func dumpHidesPassword() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let url = try server.makeDatabase()
        let downReplica = "postgres://dbb:\(server.password)@127.0.0.1:1/none?sslmode=disable"
        for manager in [try DBBManager(postgres: url), try DBBManager(postgres: url, replicas: [downReplica])] {
            var dumped = ""
            dump(manager, to: &dumped)
            #expect(!dumped.contains(server.password) && dumped.contains("127.0.0.1"), "\(dumped)")
        }
    }

    @Test("a configuration that cannot work is refused before connecting: pool size, port, timeout")
    func badConfiguration() throws {
        for change in [
            { (c: inout DBBPostgresConfiguration) in c.poolSize = 0 }, { $0.port = 70000 },
            { $0.connectTimeout = .zero },
        ] {
            var configuration = DBBPostgresConfiguration(
                host: "127.0.0.1", port: 1, username: "u", password: "secret", database: "d",
                tls: .disable)
            change(&configuration)
            let error = #expect(throws: DBBError.self) { _ = try DBBManager(postgres: configuration) }
            #expect(error?.kind == .invalidOption, "\(String(describing: error))")
        }
    }

    @Test("a synchronous call on an event loop is refused, not deadlocked")
    func eventLoopRefused() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let manager = try DBBManager(postgres: server.makeDatabase())
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let outcome = try loop.submit { Result { try manager.count(of: "Member") } }.wait()
        #expect(throws: DBBError.self) { try outcome.get() }
    }

    @Test(
        "the server ending the connection mid-batch: an `unavailable` error naming host and database, nothing half-written, and the manager goes on",
        arguments: [false, true])
    func serverGoneMidBatch(waitForClose: Bool) throws {
        guard let db = try BackendDatabase(.postgresql, [Tripwire.self]) else { return }
        let killer = try db.reopen()
        let batch = (0..<400).map { index in
            let object = Tripwire(dbManager: db.manager)
            object.label = "row \(index)"
            return object
        }
        // Halfway through, every other connection to the database (the batch's) is ended by the
        // server. With `waitForClose`, the batch's next statement goes out only once the client
        // has seen the connection close: postgres-nio never answers a query written then, and
        // the batch used to wait for it forever.
        batch[200].action = {
            try killer.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND pid <> pg_backend_pid()")
            if waitForClose { Thread.sleep(forTimeInterval: 1) }
        }
        let outcome = try #require(
            finishing(within: 60) { Result { try Tripwire.save(batch, manager: db.manager) } },
            "the batch returned instead of waiting forever for an answer")
        if TestPostgresServer.throughPooler, (try? outcome.get()) != nil {
            // Behind a transaction pooler the batch held no server connection yet (its BEGIN
            // waits for its first statement), so the ones ended were PgBouncer's idle ones.
            #expect(try killer.count(of: "Tripwire") == 400 && batch.allSatisfy { $0.id > 0 })
            return
        }
        let error = try #require(throws: DBBError.self) { try outcome.get() }
        #expect(error.kind == .unavailable, "\(error)")
        #expect(
            error.description.contains("127.0.0.1")
                && error.description.contains(db.place.split(separator: "/").last!.prefix(while: { $0 != "?" })))
        #expect(batch.allSatisfy { $0.id == 0 }, "no object believes it was saved")
        #expect(try killer.count(of: "Tripwire") == 0, "nothing half-written")

        batch[200].action = nil
        try Tripwire.save(batch, manager: db.manager)
        #expect(try killer.count(of: "Tripwire") == 400, "the same manager saves the batch on a new connection")
        #expect(try Tripwire.all(manager: db.manager).count == 400)
    }
}

/// Runs `body` on a thread of its own and returns its result, or `nil` when it has not
/// returned within `seconds` (the thread is left behind): a hang becomes a failed test.
func finishing<T>(within seconds: Double, _ body: @escaping () -> T) -> T? {
    let handoff = Handoff(body)
    Thread { handoff.run() }.start()
    guard handoff.done.wait(timeout: .now() + seconds) == .success else { return nil }
    return handoff.value
}

/// `body` and its result, passed to a thread and back.
private final class Handoff<T>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written before `done` is signalled and read after.
    let body: () -> T
    var value: T?
    let done = DispatchSemaphore(value: 0)
    init(_ body: @escaping () -> T) { self.body = body }
    func run() {
        value = body()
        done.signal()
    }
}
#endif
