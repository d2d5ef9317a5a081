import DBBSQLite
import DBBScript
import Foundation

/// The sqlite3 shell running `script` into a new database at `output`, as a build baseline.
private func shellBuild(_ shell: String, script: URL, output: URL) throws {
    try? FileManager.default.removeItem(at: output)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = [output.path]
    process.currentDirectoryURL = script.deletingLastPathComponent()
    process.standardInput = try FileHandle(forReadingFrom: script)
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkError(description: "sqlite3 failed on \(script.path)") }
}

/// The number of rows of `table` in the database at `path`.
private func rowCount(_ path: URL, _ table: String) throws -> Int {
    var configuration = SQLiteConfiguration()
    configuration.access = .readOnly
    configuration.journalMode = nil
    return try SQLiteConnection(path: path.path, configuration: configuration)
        .fetchValue("SELECT count(*) FROM \(table)", as: Int.self) ?? 0
}

/// `dbb build` (``DBBScriptRunner``) against the sqlite3 shell on the same script.
private func buildWorkload(name: String, summary: String, script: URL, table: String, rows: Int) -> Workload {
    let output = script.deletingLastPathComponent().appendingPathComponent("built.sqlite")
    var contenders = [
        Contender(name: "DBBScriptRunner.build") {
            try DBBScriptRunner.build(script: script, output: output, replacing: true)
            return try rowCount(output, table)
        }
    ]
    if let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first(where: FileManager.default.isExecutableFile) {
        contenders.insert(
            Contender(name: "sqlite3 shell") {
                try shellBuild(shell, script: script, output: output)
                return try rowCount(output, table)
            }, at: 0)
    }
    return Workload(name: name, summary: summary, goals: [], contenders: contenders, expectedChecksum: rows)
}

/// `.import` of a CSV file with quoted fields into a table.
func importWorkload(rows: Int, directory: URL) throws -> Workload {
    let folder = directory.appendingPathComponent("import")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var csv = "id|name|value\n"
    for n in 0..<rows { csv += "\(n)|\"name \(n), quoted\"|\(n * 7)\n" }
    try Data(csv.utf8).write(to: folder.appendingPathComponent("big.csv"))
    let script = folder.appendingPathComponent("schema.txt")
    try Data(
        """
        CREATE TABLE big (id INTEGER PRIMARY KEY, name TEXT, value INTEGER);
        .mode csv
        .separator |
        .import --skip 1 big.csv big
        CREATE INDEX big_name ON big(name);
        """.utf8
    ).write(to: script)
    return buildWorkload(
        name: "Build: .import of \(rows.formatted()) CSV rows",
        summary:
            "A script creating a table, importing quoted pipe-separated CSV and indexing it, into a new file.",
        script: script, table: "big", rows: rows)
}

/// A script of one `INSERT` statement per line, each its own transaction as in the shell.
func statementsWorkload(rows: Int, directory: URL) throws -> Workload {
    let folder = directory.appendingPathComponent("statements")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var text = "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, value REAL);\n"
    for n in 0..<rows { text += "INSERT INTO t VALUES (\(n), 'name \(n)', \(Double(n) * 1.5));\n" }
    let script = folder.appendingPathComponent("inserts.txt")
    try Data(text.utf8).write(to: script)
    return buildWorkload(
        name: "Build: \(rows.formatted()) INSERT statements, no BEGIN",
        summary:
            "Each statement in its own transaction, as the shell runs it (the shell syncs each to disk; the build's temporary file is synced once).",
        script: script, table: "t", rows: rows)
}
