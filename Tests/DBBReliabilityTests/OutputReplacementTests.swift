import DBBCore
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@testable import DBBScript

#if canImport(Glibc)
import Glibc
#endif

/// A process that keeps running while the test talks to it through its standard input.
private final class Companion {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let received = Locked(Data())

    init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [received] handle in
            let data = handle.availableData
            received.withLock { $0.append(data) }
        }
        try process.run()
    }

    func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Waits (up to 30 s) until the process printed `marker`.
    func wait(for marker: String) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if received.withLock({ String(decoding: $0, as: UTF8.self).contains(marker) }) { return true }
            usleep(2_000)
        }
        return false
    }

    /// Closes its standard input and waits for it to end.
    func finish() {
        try? input.fileHandleForWriting.close()
        _ = waitForExit(process)
        output.fileHandleForReading.readabilityHandler = nil
    }
}

/// The tables of a database, its integrity, and the side files beside it.
private func state(_ url: URL) throws -> (tables: [String], integrity: String, sideFiles: [String]) {
    var configuration = SQLiteConfiguration()
    configuration.access = .readOnly
    configuration.journalMode = nil
    let db = try SQLiteConnection(path: url.path, configuration: configuration)
    let tables = try db.fetchAll("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
        $0.string(at: 0) ?? ""
    }
    let integrity = try db.fetchValue("PRAGMA integrity_check", as: String.self) ?? "?"
    db.close()
    let sideFiles = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: url.path + $0) }
    return (tables, integrity, sideFiles)
}

@Suite(
    "dbb build --force: the output is exactly the new database, and never replaced under a user",
    .enabled(
        if: ScriptFixture.dbb != nil && ScriptFixture.product("dbb-crash-helper") != nil,
        "the executables were not built"))
struct OutputReplacementTests {
    static let script = """
        CREATE TABLE fresh (id INTEGER PRIMARY KEY, name TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
        INSERT INTO fresh (name) SELECT 'row ' || i FROM n;
        """

    private func build(_ fixture: ScriptFixture, force: Bool = true) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let script = try fixture.file("schema.txt", Self.script)
        return try ScriptFixture.run(
            try #require(ScriptFixture.dbb),
            ["build", fixture.output.path, script.path] + (force ? ["--force"] : []))
    }

    private func expectFresh(_ fixture: ScriptFixture, _ comment: Comment) throws {
        let (tables, integrity, sideFiles) = try state(fixture.output)
        #expect(tables == ["fresh"] && integrity == "ok" && sideFiles.isEmpty, comment)
        var configuration = SQLiteConfiguration()
        configuration.access = .readOnly
        configuration.journalMode = nil
        let db = try SQLiteConnection(path: fixture.output.path, configuration: configuration)
        #expect(try db.fetchValue("SELECT count(*) FROM fresh", as: Int.self) == 5000, comment)
    }

    /// Kills a writer mid-save (up to six tries) until a WAL database with a non-empty log is
    /// left at the fixture's output; returns whether one was.
    private func leaveKilledWritersLog(_ helper: URL, _ fixture: ScriptFixture) throws -> Bool {
        for attempt in 0..<6 {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: fixture.output.path + suffix)
            }
            _ = try runAndKill(
                helper, [fixture.output.path, "60000"], after: 0.2 + 0.2 * Double(attempt), from: "saving")
            let log =
                (try? FileManager.default.attributesOfItem(atPath: fixture.output.path + "-wal")[.size] as? Int) ?? 0
            if log > 0 { return true }
        }
        return false
    }

    @Test("over the WAL a writer killed with SIGKILL left beside it")
    func killedWritersLog() throws {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        let fixture = try ScriptFixture()
        try #require(try leaveKilledWritersLog(helper, fixture), "the killed writer left a non-empty WAL")
        let result = try build(fixture)
        #expect(result.status == 0, "\(result.stderr)")
        try expectFresh(fixture, "the old log was not replayed onto the new file")
    }

    @Test("over a hot rollback journal a killed writer left, and over logs with no database beside them")
    func hotJournal() throws {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        let fixture = try ScriptFixture()
        _ = try runAndKill(helper, ["hot-journal", fixture.output.path], after: 60)
        let journal =
            (try? FileManager.default.attributesOfItem(atPath: fixture.output.path + "-journal")[.size] as? Int) ?? 0
        try #require(journal > 0, "the killed writer left a journal")
        let result = try build(fixture)
        #expect(result.status == 0, "\(result.stderr)")
        try expectFresh(fixture, "the old journal was not rolled back onto the new file")

        // A journal and a log whose database is gone: a new build (no --force) must not inherit them.
        _ = try runAndKill(helper, ["hot-journal", fixture.output.path], after: 60)
        try FileManager.default.copyItem(
            atPath: fixture.output.path + "-journal", toPath: fixture.output.path + "-saved")
        try FileManager.default.removeItem(at: fixture.output)
        try FileManager.default.removeItem(atPath: fixture.output.path + "-journal")
        try Data("not a log".utf8).write(to: URL(fileURLWithPath: fixture.output.path + "-wal"))
        try FileManager.default.moveItem(
            atPath: fixture.output.path + "-saved", toPath: fixture.output.path + "-journal")
        let again = try build(fixture, force: false)
        #expect(again.status == 0, "\(again.stderr)")
        try expectFresh(fixture, "a stray journal was removed before the new file took its place")
    }

    @Test("refused while another process has the output open, in WAL or rollback mode; then allowed")
    func outputInUse() throws {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        let fixture = try ScriptFixture()
        #expect(try build(fixture).status == 0)

        // A DBBManager (WAL) holding the file open, idle.
        let holder = try Companion(helper, ["hold", fixture.output.path])
        try #require(holder.wait(for: "holding"))
        let before = try Data(contentsOf: fixture.output)
        let refused = try build(fixture)
        #expect(
            refused.status != 0 && refused.stderr.contains("is open in process \(holder.process.processIdentifier)"),
            "\(refused.stderr)")
        // Where /proc does not show it (another user's process), SQLite's own locks do.
        let descriptor = open(fixture.output.path, O_RDONLY)
        #expect(SQLiteFileLocks.isDatabaseLocked(descriptor), "a WAL connection keeps a shared lock on the database")
        close(descriptor)
        let index = open(fixture.output.path + "-shm", O_RDONLY)
        #expect(SQLiteFileLocks.isWALIndexInUse(index), "and a read lock on its WAL index")
        close(index)
        #expect(try Data(contentsOf: fixture.output) == before)
        holder.finish()

        if let sqlite3 = ScriptFixture.sqlite3 {
            #expect(try build(fixture).status == 0)  // back to a rollback-journal file
            // The sqlite3 shell in a write transaction: the lock says so.
            let writer = try Companion(sqlite3, [fixture.output.path])
            writer.send("BEGIN IMMEDIATE;\nSELECT 'began';\n")
            try #require(writer.wait(for: "began"))
            let busy = try build(fixture)
            #expect(busy.status != 0 && busy.stderr.contains("is open in process"), "\(busy.stderr)")
            let descriptor = open(fixture.output.path, O_RDONLY)
            #expect(SQLiteFileLocks.isDatabaseLocked(descriptor), "a write transaction holds SQLite's locks")
            close(descriptor)
            writer.finish()

            // An idle shell holds no lock at all: only its open descriptor tells.
            let idle = try Companion(sqlite3, [fixture.output.path])
            idle.send("SELECT 'opened' FROM sqlite_master LIMIT 1;\nSELECT 'opened';\n")
            try #require(idle.wait(for: "opened"))
            let seen = try build(fixture)
            #expect(
                seen.status != 0 && seen.stderr.contains("is open in process \(idle.process.processIdentifier)"),
                "\(seen.stderr)")
            let descriptor2 = open(fixture.output.path, O_RDONLY)
            #expect(!SQLiteFileLocks.isDatabaseLocked(descriptor2), "an idle rollback-journal connection holds no lock")
            close(descriptor2)
            idle.finish()
        }
        let allowed = try build(fixture)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        try expectFresh(fixture, "replaced once nobody holds it")
    }

    @Test("a refused --force leaves a WAL database, its log and index, byte for byte")
    func refusedLeavesWALUntouched() throws {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        let fixture = try ScriptFixture()
        try #require(try leaveKilledWritersLog(helper, fixture), "the killed writer left a non-empty WAL")
        func files() throws -> [Data] {
            try ["", "-wal", "-shm"].map { try Data(contentsOf: URL(fileURLWithPath: fixture.output.path + $0)) }
        }
        let before = try files()
        // A process that has the file open without SQLite: only /proc shows it.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sleep")
        // Held until the test kills it, however long the build takes on a busy machine; its
        // output goes nowhere, so that no pipe of the test run waits for it.
        reader.arguments = ["600"]
        reader.standardOutput = FileHandle.nullDevice
        reader.standardError = FileHandle.nullDevice
        let handle = try FileHandle(forReadingFrom: fixture.output)
        reader.standardInput = handle
        try reader.run()
        try handle.close()  // only the other process keeps it open
        // SIGKILL: a child may inherit SIGTERM blocked from the test process.
        defer { kill(reader.processIdentifier, SIGKILL) }
        let refused = try build(fixture)
        #expect(
            refused.status != 0 && refused.stderr.contains("is open in process \(reader.processIdentifier)"),
            "\(refused.stderr)")
        #expect(try files() == before, "the refused build changed nothing: not the journal mode, not the log")
    }
}
