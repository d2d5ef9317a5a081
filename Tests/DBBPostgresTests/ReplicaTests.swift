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
        let deadline = Date().addingTimeInterval(30)
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
        let late = Member(dbManager: eventual)
        late.name = "late"
        try late.save()
        let deadline = Date().addingTimeInterval(10)
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
        let done = Atomic<Bool>(false)
        let readers = (0..<3).map { _ in
            Thread {
                while !done.load(ordering: .sequentiallyConsistent) {
                    do {
                        let count = try Member.all(manager: manager).count
                        if count != 50 { failures.withLock { $0.append("read \(count) rows") } }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                    reads.add(1, ordering: .sequentiallyConsistent)
                }
            }
        }
        for reader in readers { reader.start() }
        Thread.sleep(forTimeInterval: 0.5)
        try standby.stop()
        let stoppedAt = reads.load(ordering: .sequentiallyConsistent)
        Thread.sleep(forTimeInterval: 1)
        done.store(true, ordering: .sequentiallyConsistent)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")
        #expect(
            reads.load(ordering: .sequentiallyConsistent) > stoppedAt + 10, "reads went on after the standby stopped")
        #expect(
            try manager.query("SELECT pg_is_in_recovery()")[0].decode(Int.self, at: 0) == 0, "now served by the primary"
        )
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
        #expect(refused.serverError?.sqlState == "28P01" && !refused.description.contains("Zq7xK-wrong"), "\(refused)")
    }
}
