#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// `DBBManager(postgres:replicas:)` against the test server and a streaming standby of it.
@Suite("Read replicas: a primary and a streaming standby", .serialized)
struct ReplicaTests {
    /// A database on the primary, once the standby has it too.
    static func database(_ server: TestPostgresServer, _ standby: TestPostgresStandby) throws -> (
        primary: String, replica: String
    ) {
        let primary = try server.makeDatabase()
        let name = String(primary.split(separator: "/").last!.prefix { $0 != "?" })
        let replica = standby.url(database: name)
        let deadline = Date().addingTimeInterval(120)  // a hang guard: replay may lag on a busy machine
        while true {
            if (try? DBBManager(postgres: replica)) != nil { break }
            guard Date() < deadline else { throw TestPostgresError(message: "the standby never had \(name)") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return (primary, replica)
    }

    @Test("reads go to the replica, writes to the primary; with readYourWrites a fetch after a save sees it")
    func routing() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let standby = try server.startStandby()
        defer { try? standby.stop() }
        let (primary, replica) = try Self.database(server, standby)

        let manager = try DBBManager(postgres: primary, replicas: [replica], readYourWrites: true)
        try manager.register([Member.self])
        for round in 0..<20 {
            let member = Member(dbManager: manager)
            member.name = "m\(round)"
            member.tags = ["t\(round)"]
            try member.save()  // the standby would refuse it: it went to the primary
            let fetched = try #require(
                try Member.instance(id: member.id, manager: manager), "round \(round): the save is seen at once")
            #expect(fetched.name == "m\(round)" && fetched.tags == ["t\(round)"])
        }
        #expect(try Member.all(manager: manager).count == 20)

        // Without readYourWrites the replica serves reads at once, and catches up by itself.
        let eventual = try DBBManager(postgres: primary, replicas: [replica])
        #expect(
            try eventual.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 1,
            "a read is served by the standby")
        // The reads above may all have gone to the primary while the standby lagged (that is
        // what readYourWrites does): wait until the standby has replayed the table itself.
        try Self.waitUntil("the standby has the table") {
            try eventual.query(#"SELECT to_regclass('"Member"') IS NOT NULL"#)[0].decode(Int.self, at: 0) == 1
        }
        let late = Member(dbManager: eventual)
        late.name = "late"
        try late.save()
        let deadline = Date().addingTimeInterval(120)  // a hang guard
        while try Member.instance(id: late.id, manager: eventual) == nil && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try Member.instance(id: late.id, manager: eventual)?.name == "late")

        // A read inside a write reads the primary: a transaction sees its own insert.
        let seen = Mutex(-1)
        let hooked = Tripwire(dbManager: manager)
        hooked.action = {
            let rows = try manager.query("SELECT count(*) FROM \"Member\" WHERE name = 'inside'")
            seen.withLock { $0 = (try? rows[0].decode(Int.self, at: 0)) ?? -2 }
        }
        try manager.register([Tripwire.self])
        try manager.execute("INSERT INTO \"Member\" (name) VALUES ('inside')")
        try hooked.save()
        #expect(seen.withLock { $0 } == 1)
    }

    @Test("without readYourWrites, the tables register made are read on the primary until the replica has them")
    func registrationIsReadWhereItIsSeen() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let standby = try server.startStandby()
        defer { try? standby.stop() }
        let (primary, replica) = try Self.database(server, standby)
        // The standby stops replaying before the table exists: only the primary will have it.
        let onStandby = try DBBManager(postgres: replica)
        _ = try onStandby.query("SELECT 1 FROM (SELECT pg_wal_replay_pause()) AS paused")
        defer { _ = try? onStandby.query("SELECT 1 FROM (SELECT pg_wal_replay_resume()) AS resumed") }
        try Self.waitUntil("the standby has paused") {
            try onStandby.query("SELECT pg_get_wal_replay_pause_state()")[0].decode(String.self, at: 0) == "paused"
        }
        let manager = try DBBManager(postgres: primary, replicas: [replica])
        try manager.register([Member.self])
        // Before: these went to the standby and failed with "relation "Member" does not exist".
        #expect(try manager.count(of: "Member") == 0)
        #expect(try Member.all(manager: manager).isEmpty)
        #expect(try manager.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 0, "read on the primary")
        // Once the standby has replayed the registration, it serves the reads again.
        _ = try onStandby.query("SELECT 1 FROM (SELECT pg_wal_replay_resume()) AS resumed")
        try Self.waitUntil("reads go to the standby again") {
            try manager.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 1
        }
        #expect(try manager.count(of: "Member") == 0)
    }

    @Test("with readYourWrites, a save whose WAL position cannot be read after its commit succeeds and runs its hooks")
    func positionLostAfterCommit() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let standby = try server.startStandby()
        defer { try? standby.stop() }
        let (primary, replica) = try Self.database(server, standby)
        let manager = try DBBManager(postgres: primary, replicas: [replica], readYourWrites: true)
        try manager.register([Ticket.self])
        let killer = try DBBManager(postgres: primary)
        // Once a save has committed, as it asks for the primary's WAL position, the server ends
        // every connection of the manager to the primary.
        let armed = Atomic<Bool>(false)
        manager.trace { sql in
            guard sql.contains("pg_current_wal_insert_lsn"), armed.exchange(false, ordering: .sequentiallyConsistent)
            else { return }
            _ = try? killer.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        }
        for round in 0..<3 {
            let ticket = Ticket(dbManager: manager)
            ticket.code = "after-commit-\(round)"
            armed.store(true, ordering: .sequentiallyConsistent)
            try ticket.save()  // committed: no error may say otherwise
            let stillArmed = armed.load(ordering: .sequentiallyConsistent)
            #expect(!stillArmed, "the position was asked for")
            #expect(ticket.id > 0 && ticket.savedCount == 1, "round \(round): the post-save hook ran")
            #expect(try Ticket.instance(id: ticket.id, manager: manager)?.code == ticket.code, "read your write")
        }
        #expect(try killer.count(of: "Ticket") == 3)
    }

    @Test("stopping the standby mid-run loses no read; its reads go to the primary")
    func standbyGone() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let standby = try server.startStandby()
        let (primary, replica) = try Self.database(server, standby)
        let manager = try DBBManager(postgres: primary, replicas: [replica], readYourWrites: true)
        try manager.register([Member.self])
        try Member.save(
            (0..<50).map { index in
                let member = Member(dbManager: manager)
                member.name = "m\(index)"
                return member
            }, manager: manager)

        let failures = Mutex<[String]>([])
        let reads = Atomic<Int>(0)
        let fromStandby = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<3 {
            Thread {
                while !done.load(ordering: .sequentiallyConsistent) {
                    do {
                        let count = try Member.all(manager: manager).count
                        if count != 50 { failures.withLock { $0.append("read \(count) rows") } }
                        if try manager.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 1 {
                            fromStandby.add(1, ordering: .sequentiallyConsistent)
                        }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    reads.add(1, ordering: .sequentiallyConsistent)
                }
                finished.signal()
            }.start()
        }
        // Counts, not time: the standby stops once it has served reads, and the reads must go
        // on for 30 more after it stopped. The deadlines only turn a hang into a failure.
        try Self.waitUntil("the standby served reads") { fromStandby.load(ordering: .sequentiallyConsistent) >= 5 }
        try standby.stop()
        let stoppedAt = reads.load(ordering: .sequentiallyConsistent)
        try Self.waitUntil("reads went on after the standby stopped") {
            reads.load(ordering: .sequentiallyConsistent) >= stoppedAt + 30
        }
        done.store(true, ordering: .sequentiallyConsistent)
        for _ in 0..<3 { #expect(finished.wait(timeout: .now() + 120) == .success, "a reader never finished") }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")
        #expect(
            try manager.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 0, "now served by the primary"
        )
    }

    @Test("async fetches go to the replica, see the manager's own saves, and go to the primary once the standby stops")
    func asyncFetches() async throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let standby = try server.startStandby()
        let (primary, replica) = try Self.database(server, standby)
        let manager = try DBBManager(postgres: primary, replicas: [replica], readYourWrites: true)
        try manager.register([Member.self])
        for round in 0..<10 {
            let member = Member(dbManager: manager)
            member.name = "m\(round)"
            member.tags = ["t\(round)"]
            try await member.save()
            let fetched = try #require(
                try await Member.instance(id: member.id, manager: manager), "round \(round): the save is seen at once")
            #expect(fetched.name == "m\(round)" && fetched.tags == ["t\(round)"])
        }

        // Without readYourWrites every fetch is the standby's: its count of committed
        // transactions grows by one a fetch (and one a look at the count).
        let eventual = try DBBManager(postgres: primary, replicas: [replica])
        let observer = try DBBManager(postgres: replica)
        var looks = 0
        let commits = {
            looks += 1
            return try observer.query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")[0]
                .decode(Int.self, at: 0)
        }
        // The standby may lag: the fetches below need it to hold the table (the saves above
        // only made it serve the reads it had caught up with).
        try Self.waitUntil("the standby has the 10 members") {
            (try? observer.query(#"SELECT count(*) FROM "Member""#).first?.decode(Int.self, at: 0)) == 10
        }
        let before = try commits()
        for _ in 0..<40 { #expect(try await Member.all(manager: eventual).count == 10) }
        try Self.waitUntil("the standby counted the 40 fetches it served") { try commits() - before - looks >= 30 }

        try standby.stop()
        for _ in 0..<20 { #expect(try await Member.all(manager: manager).count == 10, "no fetch lost") }
    }

    /// Returns once `condition` holds, polling; throws naming `what` after 120 s (a hang guard).
    static func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(120)
        while try !condition() {
            guard Date() < deadline else { throw TestPostgresError(message: "never: \(what)") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    @Test("a replica that is down when the manager opens is left out; a malformed replica URL is refused")
    func replicaDownAtStart() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let primary = try server.makeDatabase()
        let manager = try DBBManager(postgres: primary, replicas: ["postgres://dbb:x@127.0.0.1:1/none?sslmode=disable"])
        try manager.register([Member.self])
        #expect(try Member.all(manager: manager).isEmpty)
        #expect(try manager.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 0)
        #expect(throws: DBBError.self) {
            _ = try DBBManager(postgres: primary, replicas: ["postgres://u:Zq7xK@h:0/db"])
        }
        // A reachable server that is not a standby, or that refuses the credentials, is a configuration error.
        let notStandby = try #require(throws: DBBError.self) {
            _ = try DBBManager(postgres: primary, replicas: [try server.makeDatabase()])
        }
        #expect(notStandby.kind == .invalidOption && notStandby.message.contains("not a standby"), "\(notStandby)")
        let name = String(primary.split(separator: "/").last!.prefix { $0 != "?" })
        let refused = try #require(throws: DBBError.self) {
            _ = try DBBManager(postgres: primary, replicas: [server.url(database: name, password: "Zq7xK-wrong")])
        }
        let refusal = TestPostgresServer.throughPooler ? "08P01" : "28P01"  // PgBouncer's own protocol error
        #expect(refused.serverError?.sqlState == refusal && !refused.description.contains("Zq7xK-wrong"), "\(refused)")
    }
}
#endif
