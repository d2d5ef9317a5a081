#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// `dbb-demo --postgres URL`, and the demo's data moved SQLite → PostgreSQL → SQLite with
/// `--copy-from`.
@Suite("The dbb-demo example on PostgreSQL")
struct DemoOnPostgresTests {
    /// The demo's own tables (its five classes, the weekly report's `Usage` among them, and
    /// their join tables), from the SQLite file: not the package's (`DBVersion`, the catalog
    /// `dbb_columns`, which each database writes for itself).
    static func tables(_ manager: DBBManager) throws -> [String] {
        try manager.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                + " AND name NOT IN ('DBVersion', 'dbb_columns') ORDER BY name"
        ).map { try $0.decode(String.self, at: 0) }
    }

    /// The output from the first fetch to the end, the weekly report (locale weeks computed
    /// by the server's functions) included: what both backends show alike.
    static func tour(_ output: String) -> String {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let start = lines.firstIndex { $0.hasPrefix("People, sorted") } ?? lines.endIndex
        return lines[start...].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the demo runs on PostgreSQL, and its data goes there and back with the same rows and ids")
    func demoRoundTrip() throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        guard let server = try TestPostgresServer.shared() else { return }
        let directory = try TemporaryDirectory()
        let original = directory.path("original.sqlite")
        let returned = directory.path("returned.sqlite")

        let first = try ScriptFixture.run(demo, ["--database", original])
        #expect(first.status == 0 && first.stdout.contains("new data saved"), "\(first.stderr)")

        let fresh = try server.makeDatabase()
        let onServer = try ScriptFixture.run(demo, ["--postgres", fresh])
        #expect(onServer.status == 0 && onServer.stdout.contains("new data saved"), "\(onServer.stderr)")
        #expect(!onServer.stdout.contains(server.password), "the password is not shown")
        #expect(
            Self.tour(onServer.stdout) == Self.tour(first.stdout)
                && Self.tour(first.stdout).contains("2011-04 (01-16)  2.000"),
            "the same fetches and the same weekly report on both backends")

        let target = try server.makeDatabase()
        let there = try ScriptFixture.run(demo, ["--postgres", target, "--copy-from", original])
        #expect(there.status == 0 && there.stdout.contains("copied "), "\(there.stderr)")
        #expect(Self.tour(there.stdout) == Self.tour(first.stdout))
        let back = try ScriptFixture.run(demo, ["--database", returned, "--copy-from", target])
        #expect(back.status == 0 && back.stdout.contains("copied "), "\(back.stderr)")
        #expect(
            back.stdout.split(separator: "\n").dropFirst(2) == first.stdout.split(separator: "\n").dropFirst(2),
            "the returned file shows what the original shows, weekly report included")

        let (a, b) = (
            try DBBManager(url: URL(fileURLWithPath: original)), try DBBManager(url: URL(fileURLWithPath: returned))
        )
        let tables = try Self.tables(a)
        #expect(tables.count > 8 && tables.contains("Meeting_participants") && tables.contains("Usage"))
        #expect(try Self.tables(b) == tables)
        for table in tables {
            #expect(
                try b.query("SELECT * FROM \"\(table)\" ORDER BY id")
                    == a.query("SELECT * FROM \"\(table)\" ORDER BY id"),
                "\(table) came back row for row")
        }

        let again = try ScriptFixture.run(demo, ["--postgres", target, "--copy-from", original])
        #expect(
            again.status != 0 && again.stderr.contains("already has rows"), "a second copy is refused: \(again.stderr)")
    }

    @Test("the demo refuses a source that is not a demo database, or is the destination itself, and shows no password")
    func demoRefusals() throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        guard let server = try TestPostgresServer.shared() else { return }
        let directory = try TemporaryDirectory()
        let other = directory.path("other.sqlite")
        let manager = try DBBManager(url: URL(fileURLWithPath: other))
        try manager.execute("CREATE TABLE notes (body TEXT)")
        let before = try manager.query("SELECT name FROM sqlite_master ORDER BY name")

        let target = try server.makeDatabase()
        let notDemo = try ScriptFixture.run(demo, ["--postgres", target, "--copy-from", other])
        #expect(notDemo.status != 0 && notDemo.stderr.contains("no table"), "\(notDemo.stderr)")
        #expect(
            try manager.query("SELECT name FROM sqlite_master ORDER BY name") == before, "the source gained no table")

        let itself = try ScriptFixture.run(demo, ["--postgres", target, "--copy-from", target])
        #expect(itself.status != 0 && itself.stderr.contains("itself"), "\(itself.stderr)")
        #expect(!itself.stderr.contains(server.password) && !itself.stdout.contains(server.password))

        for url in [
            "http://u:Zq7xK@h/db", "postgres://u:Zq7xK@h:notaport/db", "postgres:/dbb:Zq7xK@127.0.0.1:1/h6",
            "postgres:dbb:Zq7xK@h/db",
        ] {
            let refused = try ScriptFixture.run(demo, ["--database", directory.path("d.sqlite"), "--copy-from", url])
            #expect(
                refused.status != 0 && !refused.stderr.contains("Zq7xK") && refused.stderr.contains("***"),
                "\(refused.stderr)")
            #expect(
                !FileManager.default.fileExists(atPath: directory.path("d.sqlite")),
                "a refused source leaves no new database")
        }
        let urlAsFile = try ScriptFixture.run(demo, ["--database", "postgres://u:Zq7xK@h/db"])
        #expect(
            urlAsFile.status != 0 && !urlAsFile.stderr.contains("Zq7xK") && urlAsFile.stderr.contains("--postgres"),
            "\(urlAsFile.stderr)")

        // --reset deletes the demo's own database only.
        let text = directory.path("notes.txt")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: text))
        for victim in [text, other] {
            let before = try Data(contentsOf: URL(fileURLWithPath: victim))
            let reset = try ScriptFixture.run(demo, ["--database", victim, "--reset"])
            #expect(reset.status != 0 && reset.stderr.contains("not a dbb-demo database"), "\(reset.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == before, "\(victim) is untouched")
        }
        let demoFile = directory.path("demo.sqlite")
        #expect(try ScriptFixture.run(demo, ["--database", demoFile]).status == 0)
        let again = try ScriptFixture.run(demo, ["--database", demoFile, "--reset"])
        #expect(again.status == 0 && again.stdout.contains("new data saved"), "\(again.stderr)")
    }
}
#endif
