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
        try fixture.file("schema.txt", """
            CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT, calories INTEGER);
            .mode csv
            .separator |
            .import --skip 1 food.csv food
            """)
        let output = fixture.output.path
        let built = try ScriptFixture.run(dbb, ["build", output, fixture.directory.url.appendingPathComponent("schema.txt").path])
        #expect(built.status == 0 && built.stdout.contains("food  2 row(s) imported"), "\(built)")

        let table = try ScriptFixture.run(dbb, ["sql", output, "SELECT id, name FROM food ORDER BY id"])
        #expect(table.stdout == "id  name        \n--  ------------\n 1  Apple       \n 2  Bread, white\n")
        let csv = try ScriptFixture.run(dbb, ["sql", output, "--csv", "SELECT name, calories FROM food ORDER BY id"])
        #expect(csv.stdout == "name,calories\nApple,52\n\"Bread, white\",265\n")
        let json = try ScriptFixture.run(dbb, ["sql", output, "--json"],
                                         input: "SELECT dbb_week('2011-01-02', 'en_US') AS week, dbb_week('2011-01-02', 'ru_RU') AS ru;")
        #expect(json.stdout == "[{\"week\": \"2011-02\", \"ru\": \"2010-52\"}]\n")

        let again = try ScriptFixture.run(dbb, ["build", output, fixture.directory.url.appendingPathComponent("schema.txt").path])
        #expect(again.status != 0 && again.stderr.contains("use --force"))
    }

    @Test("errors go to standard error with a non-zero status; --attach is read-only; help shows examples")
    func errorsAttachAndHelp() throws {
        let dbb = try #require(ScriptFixture.dbb)
        let fixture = try ScriptFixture()
        try fixture.file("bad.txt", "CREATE TABLE t (x);\nSELEKT 1;\n")
        let bad = try ScriptFixture.run(dbb, ["build", fixture.output.path, fixture.directory.url.appendingPathComponent("bad.txt").path])
        #expect(bad.status != 0 && bad.stderr.contains("bad.txt:2:") && bad.stderr.contains("syntax error"))
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))

        try fixture.file("ok.txt", "CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        #expect(try ScriptFixture.run(dbb, ["build", fixture.output.path, fixture.directory.url.appendingPathComponent("ok.txt").path]).status == 0)
        let ref = fixture.directory.url.appendingPathComponent("ref.sqlite").path
        #expect(try ScriptFixture.run(dbb, ["build", ref, fixture.directory.url.appendingPathComponent("ok.txt").path]).status == 0)
        let joined = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "--attach", "ref=\(ref)", "--csv",
                                                 "SELECT t.x + r.x AS sum FROM t JOIN ref.t r"])
        #expect(joined.stdout == "sum\n2\n")
        let write = try ScriptFixture.run(dbb, ["sql", fixture.output.path, "--attach", "ref=\(ref)", "INSERT INTO ref.t VALUES (5)"])
        #expect(write.status != 0 && write.stderr.contains("readonly"))
        let missing = try ScriptFixture.run(dbb, ["sql", fixture.directory.url.appendingPathComponent("nope.sqlite").path, "SELECT 1"])
        #expect(missing.status != 0 && missing.stderr.contains("does not exist"))

        for command in [[], ["build"], ["sql"]] {
            let help = try ScriptFixture.run(dbb, command + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("Example"), "dbb \(command.joined()) --help")
        }
    }
}
