#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// What an instance of `dbb-crash-helper instance` says it wrote.
private struct Tally: Decodable {
    var created: [Int64]
    var deleted: [Int64]
    var claimed: [String]
    var lost: Int
}

/// Several OS processes on one PostgreSQL database, as several instances of a service are.
@Suite("Service instances: OS processes on one PostgreSQL database")
struct MultiProcessTests {
    @Test(
        "four processes register, save, delete and race for unique keys at once: the database holds exactly what they were told"
    )
    func instancesTogether() throws {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        guard let server = try TestPostgresServer.shared() else { return }
        let url = try server.makeDatabase()
        // All start at the same instant on a new database: registration races too.
        let start = Date().timeIntervalSince1970 + 1.5
        let processes = try (0..<4).map { instance in
            let process = Process()
            process.executableURL = helper
            process.arguments = ["instance", url, "\(1000 + instance)", "150", "\(start)"]
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            try process.run()
            return process
        }
        var tallies: [Tally] = []
        for process in processes {
            let (status, data) = ChildOutput.collect(
                process, [process.standardOutput as! Pipe, process.standardError as! Pipe])
            let (out, err) = (data[0], data[1])
            #expect(status == 0, "\(String(decoding: err, as: UTF8.self))")
            if status == 0 { tallies.append(try JSONDecoder().decode(Tally.self, from: out)) }
        }
        try #require(tallies.count == 4)

        let manager = try DBBManager(postgres: url)
        try manager.register([CrashCompany.self, CrashItem.self, CrashClaim.self])
        let created = tallies.flatMap(\.created)
        let deleted = tallies.flatMap(\.deleted)
        #expect(Set(created).count == created.count, "no id was given to two objects")
        #expect(Set(deleted).isSubset(of: Set(created)))
        let expected = Set(created).subtracting(deleted)
        #expect(
            Set(try CrashItem.allIDs(manager: manager)) == expected,
            "every acknowledged save is there, no deleted row is")
        #expect(try manager.count(of: "CrashItem_company") == expected.count, "each item's reference, and only those")
        for join in ["CrashItem_tags", "CrashItem_company"] {
            let orphans = try manager.query(
                "SELECT count(*) FROM \"\(join)\" WHERE \"CrashItem_ID\" NOT IN (SELECT \"id\" FROM \"CrashItem\")")
            #expect(try orphans[0].decode(Int.self, at: 0) == 0, "\(join) has no rows of deleted items")
        }
        #expect(try manager.count(of: "CrashCompany") == 4)

        let claimed = tallies.flatMap(\.claimed)
        #expect(Set(claimed).count == claimed.count, "no key was claimed twice: the UNIQUE constraint held")
        #expect(Set(try CrashClaim.all(manager: manager).map(\.key)) == Set(claimed))
        #expect(tallies.map(\.lost).reduce(0, +) > 0, "the instances did race for keys")
        print(
            "Four instances: \(created.count) created, \(deleted.count) deleted, \(claimed.count) keys claimed, "
                + "\(tallies.map(\.lost).reduce(0, +)) claims lost to another instance")
    }

    @Test("a process killed with SIGKILL mid-batch leaves the batch wholly present or wholly absent")
    func killedClient() throws {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        guard let server = try TestPostgresServer.shared() else { return }
        var killedDuringSave = 0
        for run in 0..<3 {
            let url = try server.makeDatabase()
            let (output, killed) = try runAndKill(
                helper, [url, "20000"], after: [0.05, 0.3, 0.8][run], from: "saving")
            let manager = try DBBManager(postgres: url)
            try manager.register([CrashCompany.self, CrashItem.self])
            let items = try manager.count(of: "CrashItem")
            #expect(items == 0 || items == 20_000, "run \(run): \(items) items")
            #expect(
                try manager.count(of: "CrashItem_company") == items
                    && manager.count(of: "CrashCompany") == (items == 0 ? 0 : 10))
            #expect(try manager.count(of: "CrashItem_tags") == 2 * items)
            if killed && !output.contains("saved") { killedDuringSave += 1 }
        }
        #expect(killedDuringSave > 0, "at least one kill landed inside the save")
    }
}
#endif
