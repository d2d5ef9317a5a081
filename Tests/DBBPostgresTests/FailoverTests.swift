#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// A primary of its own and a streaming standby, the primary killed (SIGKILL to every process
/// of its cluster) and the standby promoted: what a manager given both hosts does.
@Suite("Failover: a manager given a primary and its standby follows the primary", .serialized)
struct FailoverTests {
    /// A cluster of its own (the test kills it), a database on it, a standby that has that
    /// database, and the URL of both hosts, `query` appended.
    private static func pair(standbyFirst: Bool, _ query: String) throws -> (
        server: TestPostgresServer, standby: TestPostgresStandby, url: String, name: String
    )? {
        guard let server = try TestPostgresServer.startPrivate() else { return nil }
        let standby = try server.startStandby()
        let (primary, _) = try ReplicaTests.database(server, standby)
        let name = String(primary.split(separator: "/").last!.prefix { $0 != "?" })
        let hosts = (standbyFirst ? [standby.port, server.port] : [server.port, standby.port])
            .map { "127.0.0.1:\($0)" }.joined(separator: ",")
        let url = "postgres://\(server.user):\(server.password)@\(hosts)/\(name)?sslmode=disable&\(query)"
        return (server, standby, url, name)
    }

    private static func save(_ code: String, _ manager: DBBManager) throws {
        let ticket = Ticket(dbManager: manager)
        ticket.code = code
        try ticket.save()
    }

    private static func isStandby(_ manager: DBBManager) throws -> Bool {
        try manager.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 1
    }

    @Test(
        "target_session_attrs=read-write: writes go to the primary though the standby is listed first; after the primary is killed and the standby promoted, to the standby, each stored once"
    )
    func followsThePrimary() throws {
        guard let (server, standby, url, name) = try Self.pair(standbyFirst: true, "target_session_attrs=read-write")
        else { return }
        defer { try? standby.stop() }
        let manager = try DBBManager(postgres: url)
        try manager.register([Ticket.self])
        for code in ["a", "b", "c"] { try Self.save(code, manager) }
        #expect(try !Self.isStandby(manager), "the manager writes to the primary")
        let onStandby = try DBBManager(postgres: standby.url(database: name))
        try ReplicaTests.waitUntil("the standby has replayed the three tickets") {
            (try? onStandby.query(#"SELECT count(*) FROM "Ticket""#)[0].decode(Int.self, at: 0)) == 3
        }

        try server.kill()
        // No primary now: the dead one refuses connections, the other is a standby.
        var refused = try #require(throws: DBBError.self) { try Self.save("d", manager) }
        if refused.kind == .commitOutcomeUnknown || !refused.message.contains("is a standby") {
            // The save went out on a pooled connection before the client saw the kill reset it:
            // a statement that commits on its own, unanswered (or, on a busy machine, one the
            // reset closed before it was sent). The pool has dropped its connections now, and the
            // next save must find a server.
            refused = try #require(throws: DBBError.self) { try Self.save("d", manager) }
        }
        #expect(refused.kind == .unavailable, "\(refused)")
        #expect(
            refused.message.contains("127.0.0.1:\(standby.port): is a standby")
                && refused.message.contains("127.0.0.1:\(server.port):")
                && refused.message.contains("target_session_attrs=read-write"), "\(refused)")

        try standby.promote()
        try Self.save("d", manager)  // the failed save stored nothing: "d" is unique, and lands now
        try Self.save("e", manager)
        #expect(try Ticket.all(manager: manager).map(\.code).sorted() == ["a", "b", "c", "d", "e"])
        let promoted = try DBBManager(postgres: standby.url(database: name))
        #expect(try !Self.isStandby(promoted))
        #expect(
            try promoted.query(#"SELECT code FROM "Ticket" ORDER BY code"#).map { try $0.decode(String.self, at: 0) }
                == ["a", "b", "c", "d", "e"])
    }

    @Test(
        "a fetch in flight when its server is killed is not run again (its condition may call a function that writes): .unavailable; the next goes to the other host; a write is not run again",
        arguments: [false, true])
    func lostReadRunsAgainElsewhere(async: Bool) async throws {
        guard let (server, standby, url, name) = try Self.pair(standbyFirst: false, "target_session_attrs=any") else {
            return
        }
        defer { try? standby.stop() }
        let manager = try DBBManager(postgres: url)
        try manager.register([Ticket.self])
        for code in ["a", "b"] { try Self.save(code, manager) }
        let onStandby = try DBBManager(postgres: standby.url(database: name))
        try ReplicaTests.waitUntil("the standby has replayed the tickets") {
            (try? onStandby.query(#"SELECT count(*) FROM "Ticket""#)[0].decode(Int.self, at: 0)) == 2
        }
        // The fetch's one statement waits two seconds on the primary, which dies meanwhile.
        var options = DBBQueryOptions()
        options.conditions = ["(SELECT pg_sleep(2)) IS NOT NULL"]
        let killer = Thread {
            Thread.sleep(forTimeInterval: 0.7)
            try? server.kill()
        }
        killer.start()
        let lost: DBBError?
        if async {
            lost = await #expect(throws: DBBError.self) {
                _ = try await Ticket.instances(matching: options, manager: manager)
            }
        } else {
            lost = #expect(throws: DBBError.self) { _ = try Ticket.instances(matching: options, manager: manager) }
        }
        #expect(lost?.kind == .unavailable, "\(String(describing: lost))")
        let fetched =
            async
            ? try await Ticket.instances(matching: options, manager: manager)
            : try Result { try Ticket.instances(matching: options, manager: manager) }.get()
        #expect(fetched.map(\.code).sorted() == ["a", "b"])
        #expect(try Self.isStandby(manager), "the next fetch ran on the standby")

        // A write whose connection is lost is not run again: the standby refuses it anyway.
        let refused = #expect(throws: DBBError.self) { try Self.save("c", manager) }
        #expect(refused?.serverError?.sqlState == "25006", "\(String(describing: refused))")
    }

    @Test(
        "target_session_attrs=standby and prefer-standby take the standby wherever it is listed; primary with only a standby up is refused naming it"
    )
    func standbyTargets() throws {
        guard let (server, standby, url, _) = try Self.pair(standbyFirst: false, "target_session_attrs=standby") else {
            return
        }
        defer { try? standby.stop() }
        #expect(try Self.isStandby(DBBManager(postgres: url)))
        let preferring = url.replacingOccurrences(of: "=standby", with: "=prefer-standby")
        #expect(try Self.isStandby(DBBManager(postgres: preferring)))
        // A replica list that names the primary too: reads go to the standby.
        let primaryURL = url.replacingOccurrences(of: "=standby", with: "=read-write")
        let replicated = try DBBManager(postgres: primaryURL, replicas: [preferring])
        try replicated.register([Ticket.self])
        // Once the standby has replayed the registration (until then its reads go to the primary).
        try ReplicaTests.waitUntil("a read goes to the replica") { try Self.isStandby(replicated) }

        try standby.stop()
        // prefer-standby falls back to the primary; standby has nothing left to take.
        #expect(try !Self.isStandby(DBBManager(postgres: preferring)))
        let none = try #require(throws: DBBError.self) { _ = try DBBManager(postgres: url) }
        #expect(none.kind == .unavailable && none.message.contains("is a primary"), "\(none)")
        try server.kill()
        let dead = try #require(throws: DBBError.self) { _ = try DBBManager(postgres: primaryURL) }
        #expect(dead.kind == .unavailable && dead.message.contains("no server took the connection"), "\(dead)")
    }

    @Test(
        "a server that lets the client in and then says nothing is passed over within connectTimeout for the next, when the manager must ask what it is"
    )
    func silentAfterLogin() throws {
        // The question of the new connection goes unanswered.
        guard let (server, proxy, manager) = try Self.behindSilentProxy("read-write", silences: 1) else { return }
        #expect(proxy.cuts == 1)
        #expect(try !Self.isStandby(manager))
        let port = try manager.query("SELECT inet_server_port()")[0].decode(Int.self, at: 0)
        #expect(port == server.port, "the connection went to the second host")
    }

    @Test(
        "prefer-standby does not come back, in its pass for any server, to one that let the client in and then said nothing"
    )
    func preferStandbySkipsTheSilent() throws {
        // Each connection's question goes unanswered.
        guard let (_, proxy, manager) = try Self.behindSilentProxy("prefer-standby", silences: 1000) else { return }
        #expect(try manager.query("SELECT 1")[0].decode(Int.self, at: 0) == 1)
        #expect(proxy.cuts >= 1)
        #expect(
            proxy.accepted == proxy.cuts,
            "each connection through the silent host was asked what it is (and went silent); none was taken in the second pass, unasked"
        )
    }

    @Test(
        "a raw query, or a fetch's condition, that may write is not run again when its answer is late, on a manager of several hosts: one row, not two"
    )
    func rawQueryNotRepeated() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let name = String(try server.makeDatabase().split(separator: "/").last!.prefix { $0 != "?" })
        // The same server twice: a manager of two hosts, which may run a lost read again.
        var configuration = try DBBPostgresConfiguration(
            url:
                "postgres://\(server.user):\(server.password)@127.0.0.1:\(server.port),127.0.0.1:\(server.port)/\(name)"
                + "?sslmode=disable")
        (configuration.answerTimeout, configuration.poolSize) = (.seconds(1), 2)
        let manager = try DBBManager(postgres: configuration)
        try manager.execute(
            """
            CREATE TABLE t (a int);
            CREATE FUNCTION f_ins(v int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN INSERT INTO t VALUES (v); RETURN v; END $$
            """)
        for (sql, value) in [
            ("INSERT INTO t SELECT 1 FROM pg_sleep(2) RETURNING a", 1), ("SELECT f_ins(2) FROM pg_sleep(2)", 2),
        ] {
            let error = try #require(throws: DBBError.self, "\(sql)") { _ = try manager.query(sql) }
            #expect(error.message.contains("did not answer within"), "\(sql): \(error)")
            try ReplicaTests.waitUntil("the server has run \(sql)") {
                (try? manager.query("SELECT count(*) FROM t WHERE a = \(value)")[0].decode(Int.self, at: 0)) ?? 0 > 0
            }
            Thread.sleep(forTimeInterval: 2.5)  // as long again: a second run would have stored its row by now
            #expect(
                try manager.query("SELECT count(*) FROM t WHERE a = \(value)")[0].decode(Int.self, at: 0) == 1, "\(sql)"
            )
        }
        // A fetch whose condition calls such a function is not run again either.
        try manager.register([Ticket.self])
        try Self.save("a", manager)
        var options = DBBQueryOptions()
        options.conditions = ["f_ins(3) = 3 AND (SELECT pg_sleep(2)) IS NOT NULL"]
        #expect(throws: DBBError.self) { _ = try Ticket.instances(matching: options, manager: manager) }
        try ReplicaTests.waitUntil("the server has run the fetch") {
            (try? manager.query("SELECT count(*) FROM t WHERE a = 3")[0].decode(Int.self, at: 0)) ?? 0 > 0
        }
        Thread.sleep(forTimeInterval: 2.5)
        #expect(try manager.query("SELECT count(*) FROM t WHERE a = 3")[0].decode(Int.self, at: 0) == 1)
    }

    /// A manager given two hosts, a proxy that lets the client in and says nothing after
    /// `pg_is_in_recovery` is asked (the next `silences` times), then the server itself, with
    /// `connect_timeout=2` and `target`; checked to be made rather than stuck.
    private static func behindSilentProxy(_ target: String, silences: Int) throws -> (
        TestPostgresServer, TestTCPProxy, DBBManager
    )? {
        guard let server = try TestPostgresServer.shared() else { return nil }
        let name = String(try server.makeDatabase().split(separator: "/").last!.prefix { $0 != "?" })
        let proxy = try TestTCPProxy(upstreamPort: server.port)
        proxy.arm(.silence("pg_is_in_recovery"), times: silences)
        let url =
            "postgres://\(server.user):\(server.password)@127.0.0.1:\(proxy.port),127.0.0.1:\(server.port)/\(name)"
            + "?sslmode=disable&connect_timeout=2&target_session_attrs=\(target)"
        let opened = try #require(
            finishing(within: 60) { Result { try DBBManager(postgres: url) } }, "the manager was made, not stuck")
        return (server, proxy, try opened.get())
    }
}
#endif
