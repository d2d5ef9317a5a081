import DBBCore
import DBBSQLite
import DBBScript
import DBBTestSupport
import Foundation
import Testing

/// What DBBBuildPlugin rebuilds on: `DBBScriptRunner.inputFiles(of:)` must name every file a
/// build reads (checked against the build's own record of what it opened), or an edit would
/// leave a stale database in the app.
@Suite("the files a build script reads")
struct BuildInputsTests {
    @Test("every file a build reads is an input: nested .read, quoted names, abbreviations, options, CRLF")
    func inputsCoverWhatTheBuildReads() throws {
        let fixture = try ScriptFixture()
        try fixture.file("data/plain.csv", "1|a\n2|b\n")
        try fixture.file("data/with space.csv", "3,c\n")
        try fixture.file("sub dir/quoted's.csv", "4,d\n")
        try fixture.file("sub dir/inner.sql", ".mode csv\r\n.imp --skip 0 --csv \"quoted's.csv\" t\r\n")
        try fixture.file(
            "main.dbbscript",
            """
            CREATE TABLE t (a, b);
            .separator |
            .i data/plain.csv t
            .mode csv
            .import --schema main 'data/with space.csv' t
            .rea "sub dir/inner.sql"
            SELECT '
            .import not-a-command.csv t
            ';
            """)
        let script = fixture.directory.url.appendingPathComponent("main.dbbscript")
        let report = try DBBScriptRunner.build(script: script, output: fixture.output)
        let inputs = DBBScriptRunner.inputFiles(of: script).map(\.standardizedFileURL.path)
        #expect(report.importedRows.map(\.rows) == [4])
        #expect(report.filesRead.count == 5)
        for file in report.filesRead {
            #expect(inputs.contains(file.standardizedFileURL.path), "\(file.path) is read but not an input")
        }
        // The line inside the string literal names a file that does not exist: not an input.
        #expect(Set(inputs) == Set(report.filesRead.map(\.standardizedFileURL.path)))
    }

    @Test("a .read cycle ends, a missing file and a |command are left out, the script comes first")
    func cyclesAndMissingFiles() throws {
        let fixture = try ScriptFixture()
        try fixture.file("a.sql", ".read b.sql\n.import missing.csv t\n.import '|cat x.csv' t\n")
        try fixture.file("b.sql", ".read a.sql\n.read /nonexistent/c.sql\n")
        let script = fixture.directory.url.appendingPathComponent("a.sql")
        let inputs = DBBScriptRunner.inputFiles(of: script).map(\.lastPathComponent)
        #expect(inputs == ["a.sql", "b.sql"])
        #expect(DBBScriptRunner.inputFiles(of: fixture.directory.url.appendingPathComponent("none.sql")).isEmpty)
    }

    @Test("a script that starts with a UTF-8 byte-order mark still has its .read and .import as inputs")
    func byteOrderMark() throws {
        let fixture = try ScriptFixture()
        try fixture.file("ext/data.csv", "1|a\n")
        try fixture.file("ext/inner.sql", "CREATE TABLE t (a, b);\n.import data.csv t\n")
        let script = try fixture.file("bom.dbbscript", bytes: [0xEF, 0xBB, 0xBF] + Array(".read ext/inner.sql\n".utf8))
        let report = try DBBScriptRunner.build(script: script, output: fixture.output)
        #expect(report.filesRead.map(\.lastPathComponent) == ["bom.dbbscript", "inner.sql", "data.csv"])
        #expect(
            DBBScriptRunner.inputFiles(of: script).map(\.lastPathComponent) == [
                "bom.dbbscript", "inner.sql", "data.csv",
            ])
    }

    @Test(
        "dbb-build-tool names the failing script by its path when two scripts share a name, and a missing import at the script line"
    )
    func buildToolLocations() throws {
        let tool = try #require(ScriptFixture.product("dbb-build-tool"), "dbb-build-tool was built")
        let fixture = try ScriptFixture()
        let deep = try fixture.file("ext/deep/bad.sql", "SELECT 1;\nSELECT 2;\nSELEKT 3;\n")
        try fixture.file("ext/bad.sql", "CREATE TABLE t (a);\n.read deep/bad.sql\n")
        let script = try fixture.file("s.dbbscript", ".read ext/bad.sql\n")
        let nested = try ScriptFixture.run(tool, [fixture.output.path, script.path])
        #expect(nested.stderr.hasPrefix("\(deep.standardizedFileURL.path):3: error: "), "\(nested.stderr)")
        let missing = try fixture.file("m.dbbscript", "CREATE TABLE t (a);\n.mode csv\n.import 'no such file.csv' t\n")
        let result = try ScriptFixture.run(tool, [fixture.output.path, missing.path])
        #expect(
            result.stderr.hasPrefix("\(missing.standardizedFileURL.path):3: error: no such file.csv: "),
            "\(result.stderr)")
        #expect(try ScriptFixture.run(tool, ["--version"]).stdout == DBBBuilderVersion.current + "\n")
    }

    @Test("dbb-build-tool, which the plugin runs, reports a failure as path:line: error: …")
    func buildToolMessages() throws {
        let tool = try #require(ScriptFixture.product("dbb-build-tool"), "dbb-build-tool was built")
        let fixture = try ScriptFixture()
        let data = try fixture.file("data/d.csv", "1,2\n3\n")
        let inner = try fixture.file("sub/inner.txt", ".mode csv\n.import ../data/d.csv t\n")
        let script = try fixture.file("s.dbbscript", "CREATE TABLE t (a, b);\n.read sub/inner.txt\n")
        let badRecord = try ScriptFixture.run(tool, [fixture.output.path, script.path])
        #expect(badRecord.status == 1)
        #expect(
            badRecord.stderr.hasPrefix("\(data.standardizedFileURL.path):2: error: expected 2 fields")
                && badRecord.stderr.contains("(imported at \(inner.standardizedFileURL.path):2)"), "\(badRecord.stderr)"
        )
        #expect(!FileManager.default.fileExists(atPath: fixture.output.path))

        try fixture.file("data/d.csv", "1,2\n3,4\n")
        try fixture.file("s.dbbscript", "CREATE TABLE t (a, b);\n.read sub/inner.txt\nSELEKT 1;\n")
        let badSQL = try ScriptFixture.run(tool, [fixture.output.path, script.path])
        #expect(badSQL.status == 1 && badSQL.stderr.hasPrefix("\(script.standardizedFileURL.path):3: error: "))

        try fixture.file("s.dbbscript", "CREATE TABLE t (a, b);\n.read sub/inner.txt\n")
        #expect(try ScriptFixture.run(tool, [fixture.output.path, script.path]).status == 0)
        #expect(try ScriptFixture.run(tool, [fixture.output.path, script.path]).status == 0, "replaces its output")
        #expect(try ScriptFixture.run(tool, [fixture.output.path]).status == 2)
    }

    @Test("the plugin's example loads the database built from its script through Bundle.module")
    func pluginExample() throws {
        let example = try #require(ScriptFixture.product("dbb-food"), "dbb-food was built")
        let all = try ScriptFixture.run(example, [])
        #expect(all.status == 0 && all.stdout.hasSuffix("reference version 1, 10 food(s)\n"), "\(all)")
        let bread = try ScriptFixture.run(example, ["bread"])
        #expect(bread.stdout == "Bread, white: 265 kcal\nreference version 1, 1 food(s)\n")
    }
}
