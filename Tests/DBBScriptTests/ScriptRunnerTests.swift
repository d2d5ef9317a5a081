import DBBSQLite
import DBBScript
import DBBTestSupport
import Foundation
import Testing

@Suite("Build scripts: SQL, dot commands, CSV import")
struct ScriptRunnerTests {
    static let seedSchema = """
        -- The seed's schema.txt
        CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT, calories INTEGER, note TEXT);
        .mode csv
        .separator |
        .import --skip 1 food.csv food
        CREATE INDEX food_name ON food(name);
        CREATE TABLE version (version INTEGER);
        INSERT INTO version VALUES (3);
        """
    static let seedData =
        "id|name|calories|note\n1|Apple|52|crisp\n2|\"Bread, white | sliced\"|265|\"says \"\"fresh\"\"\"\n3|Cheese|402|\"two\nlines\"\n"

    /// The rows of `sql` on the file at `url`, opened read-only and left exactly as it is.
    private func rows(_ url: URL, _ sql: String) throws -> [[SQLiteValue]] {
        var configuration = SQLiteConfiguration()
        configuration.access = .readOnly
        configuration.journalMode = nil
        return try SQLiteConnection(path: url.path, configuration: configuration).fetchAll(sql) { $0.values }
    }

    @Test("the seed's schema with pipe-separated CSV: quoted fields, header skipped, index, version")
    func seedWorkflow() throws {
        let fixture = try ScriptFixture()
        try fixture.file("food.csv", Self.seedData)
        let script = try fixture.file("schema.txt", Self.seedSchema)
        let report = try DBBScriptRunner.build(script: script, output: fixture.output)
        #expect(report.importedRows.map(\.table) == ["food"] && report.importedRows.map(\.rows) == [3])
        #expect(
            try rows(fixture.output, "SELECT id, name, calories, note FROM food ORDER BY id") == [
                [1, "Apple", 52, "crisp"], [2, "Bread, white | sliced", 265, "says \"fresh\""],
                [3, "Cheese", 402, "two\nlines"],
            ])
        #expect(try rows(fixture.output, "SELECT typeof(calories) FROM food LIMIT 1") == [["integer"]])
        #expect(try rows(fixture.output, "SELECT name FROM sqlite_master WHERE type = 'index'") == [["food_name"]])
        #expect(try rows(fixture.output, "SELECT version FROM version") == [[3]])
        #expect(try rows(fixture.output, "PRAGMA journal_mode") == [["delete"]], "a plain file, as sqlite3 makes")
        #expect(
            try fixture.directory.fileNames().sorted() == ["food.csv", "out.sqlite", "schema.txt"],
            "no temporary file left")
    }

    @Test("a table that does not exist is created from the header row; CRLF, BOM, tabs and list modes")
    func formats() throws {
        let fixture = try ScriptFixture()
        try fixture.file(
            "crlf.csv", bytes: [0xEF, 0xBB, 0xBF] + Array("code,label\r\nA,\"x, y\"\r\nB,\"q\"\"uote\"\r\n".utf8))
        try fixture.file("tabs.tsv", "k\tv\n1\tone\n2\ttwo\n")
        try fixture.file("list.txt", "a|b\n1|2\n")
        try fixture.file("data/nested.csv", "n\n7\n")
        try fixture.file("more.txt", ".import data/nested.csv nested\n")
        let script = try fixture.file(
            "script.txt",
            """
            .mode csv
            .import crlf.csv labels
            .mode tabs
            .import tabs.tsv pairs
            .mode list
            .import list.txt listed
            .import --csv crlf.csv labels2
            .read more.txt
            """)
        let report = try DBBScriptRunner.build(script: script, output: fixture.output)
        #expect(report.importedRows.map(\.rows) == [2, 2, 1, 2, 1])
        #expect(try rows(fixture.output, "SELECT code, label FROM labels") == [["A", "x, y"], ["B", "q\"uote"]])
        #expect(
            try rows(fixture.output, "SELECT sql FROM sqlite_master WHERE name = 'labels'")
                == [["CREATE TABLE \"labels\"(\n\"code\" TEXT, \"label\" TEXT)"]],
            "the BOM is not part of the first name")
        #expect(try rows(fixture.output, "SELECT k, v FROM pairs") == [["1", "one"], ["2", "two"]])
        #expect(try rows(fixture.output, "SELECT a, b FROM listed") == [["1", "2"]])
        #expect(try rows(fixture.output, "SELECT n FROM nested") == [["7"]], "relative to the script's folder")
    }

    @Test("a bad field count names file:row with the counts, and the existing output stays as it was")
    func badFieldCount() throws {
        let fixture = try ScriptFixture()
        try fixture.file("food.csv", "id|name|calories|note\n1|Apple|52|crisp\n2|Bread|265\n")
        let script = try fixture.file("schema.txt", Self.seedSchema)
        try DBBScriptRunner.build(script: try fixture.file("old.txt", "CREATE TABLE old (x);"), output: fixture.output)
        let previous = try Data(contentsOf: fixture.output)
        #expect {
            try DBBScriptRunner.build(script: script, output: fixture.output, replacing: true)
        } throws: { error in
            let error = try #require(error as? DBBScriptError)
            return error.script == "schema.txt" && error.line == 5 && error.dataFile == "food.csv" && error.row == 3
                && error.description == "schema.txt:5: food.csv:3: expected 4 fields (the columns of food), found 3"
        }
        #expect(try Data(contentsOf: fixture.output) == previous)
        #expect(try fixture.directory.fileNames().sorted() == ["food.csv", "old.txt", "out.sqlite", "schema.txt"])
    }

    @Test("a failing SQL statement is reported with its line; an existing output is refused without --force")
    func failingSQL() throws {
        let fixture = try ScriptFixture()
        let script = try fixture.file(
            "schema.txt",
            """
            CREATE TABLE a (x);
            INSERT INTO a VALUES (1);

            INSERT INTO
              missing VALUES (2);
            """)
        #expect {
            try DBBScriptRunner.build(script: script, output: fixture.output)
        } throws: { error in
            let error = try #require(error as? DBBScriptError)
            return error.line == 4 && error.message == "no such table: missing" && error.sqliteError?.code == .error
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
        try Data("keep".utf8).write(to: fixture.output)
        #expect {
            try DBBScriptRunner.build(script: try fixture.file("ok.txt", "CREATE TABLE b (y);"), output: fixture.output)
        } throws: { error in
            let error = error as? DBBScriptError
            return error?.kind == .outputExists
                && error?.description == "\(fixture.output.path) exists; use --force to replace it"
        }
        // --force replaces databases only: not a data file or anything else given by mistake.
        #expect {
            try DBBScriptRunner.build(
                script: try fixture.file("ok.txt", "CREATE TABLE b (y);"), output: fixture.output, replacing: true)
        } throws: { error in
            (error as? DBBScriptError)?.description
                == "\(fixture.output.path) is not an SQLite database: --force replaces databases only"
        }
        #expect(try String(contentsOf: fixture.output, encoding: .utf8) == "keep")
        try FileManager.default.removeItem(at: fixture.output)
        try DBBScriptRunner.build(script: try fixture.file("a.txt", "CREATE TABLE a (x);"), output: fixture.output)
        try DBBScriptRunner.build(
            script: try fixture.file("ok.txt", "CREATE TABLE b (y);"), output: fixture.output, replacing: true)
        #expect(try rows(fixture.output, "SELECT name FROM sqlite_master") == [["b"]])
    }

    @Test("unsupported or malformed dot commands and .read cycles are refused with their line")
    func badCommands() throws {
        let fixture = try ScriptFixture()
        for (text, line, fragment) in [
            ("CREATE TABLE t (x);\n.mode fancy", 2, ".mode fancy is not a mode"),
            (".output other.txt", 1, ".output is not supported"),
            (".import onlyone.csv", 1, "needs a file and a table"),
            (".separator ab\n.import x.csv t", 2, "must be one byte each"),
            (".s on", 1, ".s is not supported"),
            (".re x.txt", 1, ".re is not supported"),
            (".import --skip many x.csv t", 1, "--skip needs a number"),
            (".import absent.csv t", 1, "cannot read"),
            (".read self.txt", 1, "a cycle"),
        ] {
            let script = try fixture.file("self.txt", text)
            #expect {
                try DBBScriptRunner.build(script: script, output: fixture.output)
            } throws: { error in
                let error = try #require(error as? DBBScriptError)
                return error.line == line && error.description.contains(fragment)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))
    }

    @Test("the script's own BEGIN and COMMIT run as written")
    func scriptTransactions() throws {
        let fixture = try ScriptFixture()
        let script = try fixture.file(
            "s.txt", "BEGIN TRANSACTION;\nCREATE TABLE t (x);\nINSERT INTO t VALUES (1);\nCOMMIT;\n")
        let report = try DBBScriptRunner.build(script: script, output: fixture.output)
        #expect(report.statements == 4)
        #expect(try rows(fixture.output, "SELECT x FROM t") == [[1]])
    }

    @Test(
        "the result equals what the sqlite3 shell makes of the same script (.dump compared)",
        .enabled(if: ScriptFixture.sqlite3 != nil, "the sqlite3 command-line shell is not installed"))
    func sameAsSQLite3() throws {
        let sqlite3 = try #require(ScriptFixture.sqlite3)
        let fixture = try ScriptFixture()
        try fixture.file("food.csv", Self.seedData)
        try fixture.file("crlf.csv", "code,label\r\nA,\"x, y\"\r\nB,\"line\r\nbreak\"\r\n")
        try fixture.file("extra.txt", "INSERT INTO version VALUES (4);\n")
        let scripts = [
            Self.seedSchema,
            Self.seedSchema + "\n.mode csv\n.import crlf.csv labels\n.read extra.txt\n",
            """
            /* a block
               comment */
            CREATE TABLE t (a INTEGER, b TEXT, c REAL, d BLOB);
            INSERT INTO t VALUES (1, 'it''s', 2.5, x'00ff'), (NULL, '', -0.0, NULL);
            CREATE VIEW v AS SELECT a + 1 AS n FROM t;
            .mode tabs
            CREATE TABLE w (x); INSERT INTO w SELECT n FROM v;
            """,
        ]
        for (index, text) in scripts.enumerated() {
            let script = try fixture.file("script\(index).txt", text)
            let ours = fixture.directory.url.appendingPathComponent("ours\(index).sqlite")
            let theirs = fixture.directory.url.appendingPathComponent("theirs\(index).sqlite")
            try DBBScriptRunner.build(script: script, output: ours)
            let shell = try ScriptFixture.run(sqlite3, [theirs.path], input: text, in: fixture.directory.url)
            #expect(shell.status == 0 && shell.stderr.isEmpty, "sqlite3 accepts script \(index): \(shell.stderr)")
            let dumpOurs = try ScriptFixture.run(sqlite3, [ours.path, ".dump"]).stdout
            let dumpTheirs = try ScriptFixture.run(sqlite3, [theirs.path, ".dump"]).stdout
            #expect(dumpOurs == dumpTheirs, "script \(index)")
            #expect(dumpOurs.contains("INSERT INTO"), "the comparison saw data")
        }
    }

    @Test(
        "temporaries a killed build left are removed; one a running build holds, names not a build's and files not databases stay"
    )
    func abandonedTemporaries() throws {
        let fixture = try ScriptFixture()
        let folder = fixture.directory.url
        let (one, two, three) = (UUID().uuidString, UUID().uuidString, UUID().uuidString)
        let abandoned = folder.appendingPathComponent(".out.sqlite.dbb-build-\(one)").path
        let live = folder.appendingPathComponent(".out.sqlite.dbb-build-\(two)").path
        let other = folder.appendingPathComponent(".other.sqlite.dbb-build-\(one)").path
        let notOurs = folder.appendingPathComponent(".out.sqlite.dbb-build-notes").path
        let notADatabase = folder.appendingPathComponent(".out.sqlite.dbb-build-\(UUID().uuidString)").path
        for path in [
            abandoned + "-journal", live, other, notOurs,
            folder.appendingPathComponent(".out.sqlite.dbb-build-\(three)-wal").path,
        ] {
            try Data().write(to: URL(fileURLWithPath: path))
        }
        try Data("SQLite format 3\0 and pages".utf8).write(to: URL(fileURLWithPath: abandoned))
        try Data("someone's notes".utf8).write(to: URL(fileURLWithPath: notADatabase))
        // A running build holds an flock on its temporary.
        let holder = open(live, O_RDWR)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)

        try DBBScriptRunner.build(script: try fixture.file("s.txt", "CREATE TABLE t (x);"), output: fixture.output)
        let names = try fixture.directory.fileNames().sorted()
        #expect(
            names
                == [
                    ".other.sqlite.dbb-build-\(one)", ".out.sqlite.dbb-build-\(two)", ".out.sqlite.dbb-build-notes",
                    URL(fileURLWithPath: notADatabase).lastPathComponent, "out.sqlite", "s.txt",
                ].sorted())
    }

    @Test("an output that is a symbolic link stays a link: the file it leads to is rebuilt")
    func symbolicLinkOutput() throws {
        let fixture = try ScriptFixture()
        let target = fixture.directory.url.appendingPathComponent("real.sqlite")
        try DBBScriptRunner.build(script: try fixture.file("a.txt", "CREATE TABLE old (x);"), output: target)
        try FileManager.default.createSymbolicLink(at: fixture.output, withDestinationURL: target)
        try DBBScriptRunner.build(
            script: try fixture.file("b.txt", "CREATE TABLE new (y);"), output: fixture.output, replacing: true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: fixture.output.path) == target.path)
        #expect(try rows(target, "SELECT name FROM sqlite_master") == [["new"]])
    }

    @Test("--force replaces only a database file the user may write, and keeps its permissions")
    func replaceableOutputs() throws {
        let fixture = try ScriptFixture()
        let script = try fixture.file("s.txt", "CREATE TABLE t (x);")
        for (path, problem) in [
            (fixture.directory.url.appendingPathComponent("folder"), "is a folder"),
            (URL(fileURLWithPath: "/dev/null"), "not a regular file"),
            (script, "is the script itself"),
        ] {
            if problem == "is a folder" {
                try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
            }
            #expect {
                try DBBScriptRunner.build(script: script, output: path, replacing: true)
            } throws: { error in
                (error as? DBBScriptError)?.description.contains(problem) == true
            }
        }
        try DBBScriptRunner.build(script: script, output: fixture.output)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: fixture.output.path)
        try DBBScriptRunner.build(
            script: try fixture.file("u.txt", "CREATE TABLE u (y);"), output: fixture.output, replacing: true)
        let permissions =
            try FileManager.default.attributesOfItem(atPath: fixture.output.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "a private database stays private")
        #expect(try rows(fixture.output, "SELECT name FROM sqlite_master") == [["u"]])
        if getuid() != 0 {  // root may write anything
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: fixture.output.path)
            #expect {
                try DBBScriptRunner.build(script: script, output: fixture.output, replacing: true)
            } throws: { error in
                (error as? DBBScriptError)?.description.contains("write-protected") == true
            }
        }
    }

    @Test("a link to a file not there yet is built through; a link loop and a long name are handled")
    func linksAndLongNames() throws {
        let fixture = try ScriptFixture()
        let script = try fixture.file("s.txt", "CREATE TABLE t (x);")
        let dangling = fixture.directory.url.appendingPathComponent("dangling.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "later.sqlite")
        try DBBScriptRunner.build(script: script, output: dangling)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling.path) == "later.sqlite")
        #expect(
            try rows(fixture.directory.url.appendingPathComponent("later.sqlite"), "SELECT name FROM sqlite_master")
                == [["t"]])

        let loop = fixture.directory.url.appendingPathComponent("loop1")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop2")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.directory.url.appendingPathComponent("loop2").path,
            withDestinationPath: "loop1")
        #expect {
            try DBBScriptRunner.build(script: script, output: loop, replacing: true)
        } throws: { error in
            (error as? DBBScriptError)?.description.contains("too many symbolic links") == true
        }

        let long = fixture.directory.url.appendingPathComponent(String(repeating: "n", count: 240) + ".db")
        try DBBScriptRunner.build(script: script, output: long)
        try DBBScriptRunner.build(
            script: try fixture.file("u.txt", "CREATE TABLE u (y);"), output: long, replacing: true)
        #expect(try rows(long, "SELECT name FROM sqlite_master") == [["u"]])
    }
}
