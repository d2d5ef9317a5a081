import DBBSQLite
import DBBScript
import DBBTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Counts in a database a crashed process left, read without changing it.
private func inspect(_ path: String) throws -> (integrity: String, counts: [String: Int]) {
    var configuration = SQLiteConfiguration()
    configuration.journalMode = nil
    let db = try SQLiteConnection(path: path, configuration: configuration)
    let integrity = try db.fetchValue("PRAGMA integrity_check", as: String.self) ?? "?"
    var counts: [String: Int] = [:]
    for table in ["CrashItem", "CrashItem_tags", "CrashItem_company", "CrashCompany"] {
        let exists =
            try db.fetchValue("SELECT count(*) FROM sqlite_master WHERE name = ?", [.text(table)], as: Int.self) ?? 0
        counts[table] = exists > 0 ? try db.fetchValue("SELECT count(*) FROM \(table)", as: Int.self) ?? -1 : 0
    }
    return (integrity, counts)
}

@Suite("Crash safety: processes killed with SIGKILL mid-write")
struct CrashSafetyTests {
    static let batch = 100_000

    @Test("a batch of 100,000 objects with relations is wholly present or wholly absent after a SIGKILL")
    func killedBatch() throws {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        var random = SeededRandom(label: "killedBatch")
        // Every fourth run is killed early, before the batch starts; the others at a delay after
        // the helper says "saving", up to a little past a whole batch (about 3 s here), so kills
        // land during and after it.
        let delays = (0..<22).map { run in
            run % 4 == 0 ? 0.05 + Double(random.next(upTo: 300)) / 1_000 : Double(random.next(upTo: 3_500)) / 1_000
        }
        let directory = try TemporaryDirectory()
        // Two lanes: this task and a thread (not two tasks, which would hold both threads of
        // the cooperative pool of a 2-core machine for minutes, starving the other suites).
        typealias Outcome = (Double, Bool, String, [String: Int], String)
        let lane = { @Sendable (lane: Int) throws -> [Outcome] in
            var results: [Outcome] = []
            for (run, delay) in delays.enumerated() where run % 2 == lane {
                let path = directory.path("run\(run).sqlite")
                let (output, killed) = try runAndKill(
                    helper, [path, "\(Self.batch)"], after: delay, from: run % 4 == 0 ? nil : "saving")
                let (integrity, counts) = try inspect(path)
                results.append((delay, killed, output, counts, integrity))
            }
            return results
        }
        let other = Mutex<Result<[Outcome], any Error>?>(nil)
        let otherDone = DispatchSemaphore(value: 0)
        Thread {
            let result = Result { try lane(1) }
            other.withLock { $0 = result }
            otherDone.signal()
        }.start()
        var outcomes = try lane(0)
        otherDone.wait()
        outcomes += try other.withLock { $0 }!.get()
        #expect(outcomes.count == 22)
        var killedDuringSave = 0
        for (delay, killed, output, counts, integrity) in outcomes {
            let label =
                "after \(String(format: "%.2f", delay)) s (killed: \(killed), output: \(output.split(separator: "\n")))"
            #expect(integrity == "ok", "\(label)")
            let items = counts["CrashItem"] ?? -1
            #expect(items == 0 || items == Self.batch, "\(label): \(items) items")
            #expect(
                counts["CrashItem_tags"] == items * 2 && counts["CrashItem_company"] == items, "\(label): \(counts)")
            #expect(counts["CrashCompany"] == (items == 0 ? 0 : 10), "\(label): \(counts)")
            if output.contains("saved") { #expect(items == Self.batch, "\(label): reported saved") }
            if killed && output.contains("saving") && !output.contains("saved") { killedDuringSave += 1 }
        }
        #expect(killedDuringSave >= 5, "enough kills landed inside the save: \(killedDuringSave)")
    }

    @Test("dbb build killed mid-import leaves the previous output, byte for byte")
    func killedBuild() throws {
        let dbb = try #require(ScriptFixture.dbb)
        var random = SeededRandom(label: "killedBuild")
        let fixture = try ScriptFixture()
        var csv = "id|name|value\n"
        for n in 0..<200_000 { csv += "\(n)|\"name \(n), quoted\"|\(n * 7)\n" }
        try fixture.file("big.csv", csv)
        let script = try fixture.file(
            "schema.txt",
            """
            CREATE TABLE big (id INTEGER PRIMARY KEY, name TEXT, value INTEGER);
            .separator |
            .import --skip 1 big.csv big
            """)
        let old = fixture.directory.url.appendingPathComponent("old.sqlite")
        try DBBScriptRunner.build(script: try fixture.file("old.txt", "CREATE TABLE old (x);"), output: old)
        let previous = try Data(contentsOf: old)
        // One whole build first: the kills are spread over its length on this machine, as loaded
        // as it is now, so that some land inside the import however fast or slow the build is.
        let started = Date()
        _ = try runAndKill(dbb, ["build", fixture.output.path, script.path, "--force"], after: 600)
        let length = max(Int(Date().timeIntervalSince(started) * 1_000), 100)
        var completed = 0
        var interrupted = 0
        // Eight kills spread over that length; then, while none interrupted a build (the
        // machine got faster since), kills ever earlier, until one does.
        var run = 0
        while run < 8 || (interrupted == 0 && run < 20) {
            defer { run += 1 }
            try previous.write(to: fixture.output)
            let delay =
                run < 8
                ? 0.05 + Double(random.next(upTo: UInt64(length + length / 4))) / 1_000
                : Double(length) / 1_000 / Double(1 << min(run - 7, 12))
            let (_, killed) = try runAndKill(dbb, ["build", fixture.output.path, script.path, "--force"], after: delay)
            let now = try Data(contentsOf: fixture.output)
            if now == previous {
                interrupted += 1
                #expect(killed, "an unchanged output means the build did not finish")
            } else {
                completed += 1
                var configuration = SQLiteConfiguration()
                configuration.access = .readOnly
                configuration.journalMode = nil
                let db = try SQLiteConnection(path: fixture.output.path, configuration: configuration)
                #expect(
                    try db.fetchValue("SELECT count(*) FROM big", as: Int.self) == 200_000, "a replaced output is whole"
                )
                #expect(try db.fetchValue("PRAGMA integrity_check", as: String.self) == "ok")
            }
        }
        #expect(interrupted >= 1, "some kills interrupted the build (completed: \(completed))")
    }
}
