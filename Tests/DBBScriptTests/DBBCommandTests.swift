import DBBCore
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("The dbb command", .enabled(if: ScriptFixture.dbb != nil, "the dbb executable was not built"))
struct DBBCommandTests {
    @Test("dbb build, then dbb sql as a table, CSV, JSON and from standard input")
    func buildAndQuery() throws {
        let dbb = try #require(ScriptFixture.dbb)
        let fixture = try ScriptFixture()
        try fixture.file("food.csv", "id|name|calories\n1|Apple|52\n2|\"Bread, white\"|265\n")
        try fixture.file(
            "schema.txt",
            """
            CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT, calories INTEGER);
            .mode csv
            .separator |
            .import --skip 1 food.csv food
            """)
        let output = fixture.output.path
        let built = try ScriptFixture.run(
            dbb, ["build", output, fixture.directory.url.appendingPathComponent("schema.txt").path])
        #expect(built.status == 0 && built.stdout.contains("food  2 row(s) imported"), "\(built)")

        let table = try ScriptFixture.run(dbb, ["sql", output, "SELECT id, name FROM food ORDER BY id"])
        #expect(table.stdout == "id  name        \n--  ------------\n 1  Apple       \n 2  Bread, white\n")
        let csv = try ScriptFixture.run(dbb, ["sql", output, "--csv", "SELECT name, calories FROM food ORDER BY id"])
        #expect(csv.stdout == "name,calories\nApple,52\n\"Bread, white\",265\n")
        let json = try ScriptFixture.run(
            dbb, ["sql", output, "--json"],
            input: "SELECT dbb_week('2011-01-02', 'en_US') AS week, dbb_week('2011-01-02', 'ru_RU') AS ru;")
        #expect(json.stdout == "[{\"week\": \"2011-02\", \"ru\": \"2010-52\"}]\n")

        let again = try ScriptFixture.run(
            dbb, ["build", output, fixture.directory.url.appendingPathComponent("schema.txt").path])
        #expect(again.status != 0 && again.stderr.contains("use --force"))
    }

    @Test("errors go to standard error with a non-zero status; --attach is read-only; help shows examples")
    func errorsAttachAndHelp() throws {
        let dbb = try #require(ScriptFixture.dbb)
        let fixture = try ScriptFixture()
        try fixture.file("bad.txt", "CREATE TABLE t (x);\nSELEKT 1;\n")
        let bad = try ScriptFixture.run(
            dbb, ["build", fixture.output.path, fixture.directory.url.appendingPathComponent("bad.txt").path])
        #expect(bad.status != 0 && bad.stderr.contains("bad.txt:2:") && bad.stderr.contains("syntax error"))
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))

        try fixture.file("ok.txt", "CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        #expect(
            try ScriptFixture.run(
                dbb, ["build", fixture.output.path, fixture.directory.url.appendingPathComponent("ok.txt").path]
            ).status == 0)
        let ref = fixture.directory.url.appendingPathComponent("ref.sqlite").path
        #expect(
            try ScriptFixture.run(dbb, ["build", ref, fixture.directory.url.appendingPathComponent("ok.txt").path])
                .status == 0)
        let joined = try ScriptFixture.run(
            dbb,
            [
                "sql", fixture.output.path, "--attach", "ref=\(ref)", "--csv",
                "SELECT t.x + r.x AS sum FROM t JOIN ref.t r",
            ])
        #expect(joined.stdout == "sum\n2\n")
        let write = try ScriptFixture.run(
            dbb, ["sql", fixture.output.path, "--attach", "ref=\(ref)", "INSERT INTO ref.t VALUES (5)"])
        #expect(write.status != 0 && write.stderr.contains("this statement writes"))
        let missing = try ScriptFixture.run(
            dbb, ["sql", fixture.directory.url.appendingPathComponent("nope.sqlite").path, "SELECT 1"])
        #expect(missing.status != 0 && missing.stderr.contains("does not exist"))

        for command in [[], ["build"], ["sql"]] {
            let help = try ScriptFixture.run(dbb, command + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("Example"), "dbb \(command.joined()) --help")
        }
    }

    /// The bytes of every file in `folder`, by name.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var isFolder: ObjCBool = false
            guard
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test("--verbose logs each statement with its duration to standard error, never a value; without it, nothing")
    func verbose() throws {
        let dbb = try #require(ScriptFixture.dbb)
        let fixture = try ScriptFixture()
        let script = try fixture.file("s.txt", "CREATE TABLE t (x);\nINSERT INTO t VALUES ('secret');\n")
        let build = try ScriptFixture.run(dbb, ["build", fixture.output.path, script.path, "--verbose"])
        #expect(build.status == 0)
        #expect(build.stderr.contains("sql=CREATE TABLE t (x)") && build.stderr.contains("duration_ms="))
        let query = try ScriptFixture.run(
            dbb, ["sql", fixture.output.path, "-v", "SELECT x FROM t WHERE x <> ?1 OR 1"])
        #expect(query.stdout.contains("secret"))
        // Logged at trace, or at warning as slow (over 500 ms) on a busy machine.
        #expect(
            query.stderr.contains("sql=SELECT x FROM t WHERE x <> ?1 OR 1")
                && (query.stderr.contains("trace") || query.stderr.contains("warning")))
        let failed = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "--verbose", "SELEKT 1"])
        #expect(failed.status != 0 && failed.stderr.contains("error dbb:") && failed.stderr.contains("sql=SELEKT 1"))
        let quiet = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "SELECT x FROM t"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
    }

    @Test("dbb sql reads without writing: the file comes out byte for byte, and no file is created")
    func readOnlySQL() throws {
        let dbb = try #require(ScriptFixture.dbb)
        let fixture = try ScriptFixture()
        let script = try fixture.file("s.txt", "CREATE TABLE t (x);\nINSERT INTO t VALUES (1), (2);\n")
        #expect(try ScriptFixture.run(dbb, ["build", fixture.output.path, script.path]).status == 0)
        let before = try snapshot(fixture.directory.url)

        let query = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "--csv", "SELECT sum(x) AS s FROM t"])
        #expect(query.status == 0 && query.stdout == "s\n3\n", "\(query.stderr)")
        #expect(try snapshot(fixture.directory.url) == before, "a query changed nothing, journal mode included")
        let badAttach = try ScriptFixture.run(
            dbb, ["sql", fixture.output.path, "--attach", "r=/nonexistent/x.sqlite", "SELECT 1"])
        #expect(badAttach.status != 0)
        #expect(try snapshot(fixture.directory.url) == before, "a failed --attach changed nothing")

        let write = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "INSERT INTO t VALUES (3)"])
        #expect(write.status != 0 && write.stderr.contains("add --write"), "\(write.stderr)")
        #expect(try snapshot(fixture.directory.url) == before, "a refused write changed nothing")

        let copy = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "VACUUM INTO 'copy.sqlite'"])
        #expect(
            copy.status != 0 && copy.stderr.contains("this statement writes"),
            "VACUUM INTO makes no new file: \(copy.stderr)")
        let open = try ScriptFixture.run(
            dbb, ["sql", fixture.output.path, "--write", "BEGIN; INSERT INTO t VALUES (9)"])
        #expect(open.status != 0 && open.stderr.contains("add COMMIT"), "\(open.stderr)")
        #expect(try snapshot(fixture.directory.url) == before, "refused statements changed nothing")

        let written = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "--write", "INSERT INTO t VALUES (3)"])
        #expect(written.status == 0, "\(written.stderr)")
        let mode = try ScriptFixture.run(
            dbb, ["sql", fixture.output.path, "--csv", "PRAGMA journal_mode; SELECT count(*) AS n FROM t"])
        #expect(mode.stdout == "journal_mode\ndelete\nn\n3\n", "--write keeps the journal mode")

        for name in ["missing.sqlite", "folder"] {
            if name == "folder" {
                try FileManager.default.createDirectory(
                    at: fixture.directory.url.appendingPathComponent(name), withIntermediateDirectories: false)
            }
            let path = fixture.directory.url.appendingPathComponent(name).path
            let result = try ScriptFixture.run(dbb, ["sql", path, "SELECT 1"])
            #expect(
                result.status != 0 && result.stderr.contains(name == "folder" ? "is a folder" : "does not exist"),
                "\(name): \(result.stderr)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: fixture.directory.url.appendingPathComponent("missing.sqlite").path)
        )
        try Data().write(to: fixture.directory.url.appendingPathComponent("empty.sqlite"))
        let beforeEmpty = try snapshot(fixture.directory.url)
        let empty = try ScriptFixture.run(
            dbb,
            [
                "sql", fixture.directory.url.appendingPathComponent("empty.sqlite").path, "--csv",
                "SELECT count(*) AS n FROM sqlite_master",
            ])
        #expect(empty.stdout == "n\n0\n", "\(empty.stderr)")
        #expect(try snapshot(fixture.directory.url) == beforeEmpty, "an empty file stays empty, with no log beside it")
    }

    @Test("the version is written once: every tool prints it, and the changelog's latest heading names it")
    func version() throws {
        for tool in ["dbb", "dbb-codegen", "dbb-demo"] {
            let executable = try #require(ScriptFixture.product(tool), "\(tool) was built")
            let result = try ScriptFixture.run(executable, ["--version"])
            #expect(result.status == 0 && result.stdout == DBBBuilderVersion.current + "\n", "\(tool)")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let latest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(
            latest?.hasPrefix("## \(DBBBuilderVersion.current) ") == true, "CHANGELOG.md: \(latest ?? "no heading")")
    }

    @Test("every tool's --help fits 80 columns without breaking an example or a sentence mid-line")
    func helpLayout() throws {
        let tools = [("dbb", []), ("dbb", ["build"]), ("dbb", ["sql"]), ("dbb-codegen", []), ("dbb-demo", [])]
        for (tool, command) in tools {
            let executable = try #require(ScriptFixture.product(tool), "\(tool) was built")
            let help = try ScriptFixture.run(executable, command + ["--help"])
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let name = ([tool] + command).joined(separator: " ")
            #expect(
                help.status == 0 && help.stdout.contains("Examples:") || help.stdout.contains("Example ("), "\(name)")
            for (index, line) in lines.enumerated() {
                // ArgumentParser writes the USAGE line whole.
                #expect(line.count <= 80 || line.hasPrefix("USAGE:"), "\(name): \(line)")
                guard index + 1 < lines.count, line.hasPrefix("  "), !lines[index + 1].isEmpty else { continue }
                let next = lines[index + 1]
                // After an indented (example) line comes another indented line, a blank line
                // or a new section: never the tail of a wrapped example.
                #expect(
                    next.hasPrefix(" ") || next.hasSuffix(":") || next.first!.isUppercase,
                    "\(name): an example wrapped after '\(line)': '\(next)'")
            }
            // Paragraphs are filled: a short line followed by more text is a re-wrapped hard break.
            let head = lines.prefix { !$0.hasPrefix("USAGE:") }
            for (index, line) in head.enumerated() where index + 1 < head.count {
                let next = head[head.index(head.startIndex, offsetBy: index + 1)]
                guard !line.isEmpty, !line.hasPrefix(" "), !next.isEmpty, !next.hasPrefix(" "), !line.hasSuffix(":"),
                    !line.hasSuffix(".")
                else { continue }
                #expect(line.count > 50, "\(name): a line broken mid-sentence: '\(line)' / '\(next)'")
            }
        }
    }
}
