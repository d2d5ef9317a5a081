import ArgumentParser
import DBBScript
import Foundation

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a database from a script of SQL and sqlite3 dot commands.",
        discussion: """
            The script holds SQL statements (ending with ';', over several lines if need be) and
            sqlite3-style dot commands at the start of a line:
              .mode csv|list|tabs              how .import splits fields (csv: ',' and quotes)
              .separator COL [ROW]             the field separator for .import, e.g. .separator |
              .import [--skip N] [--csv] FILE TABLE
                                               append FILE's records to TABLE; a TABLE that does not
                                               exist is created from the first record's names
              .read FILE                       run another script
              .bail on|off                     accepted; any error stops the build
            '--' starts an SQL comment; a line starting with '#' is a comment. Relative file
            names are relative to the script's folder.

            The whole build runs in one transaction on a temporary file, which replaces OUTPUT
            only when everything succeeded: OUTPUT is never left half built. An error names the
            script line, and for data the file, the record and the field counts.

            Example (schema.txt):
              CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT, calories INTEGER);
              .mode csv
              .separator |
              .import --skip 1 food.csv food
              CREATE INDEX food_name ON food(name);
              CREATE TABLE version (version INTEGER);
              INSERT INTO version VALUES (1);

              $ dbb build food.sqlite schema.txt
            """)

    @Argument(help: "The database file to create.")
    var output: String

    @Argument(help: "The script to run.")
    var script: String

    @Flag(help: "Replace OUTPUT if it exists (only once the build succeeded).")
    var force = false

    func run() throws {
        let bar = isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
        let report: DBBBuildReport
        do {
            report = try DBBScriptRunner.build(
                script: URL(fileURLWithPath: script), output: URL(fileURLWithPath: output), replacing: force,
                progress: bar.map { bar in { bar.show($0) } })
        } catch {
            bar?.clear()
            throw CommandFailure(description: "\(error)")
        }
        bar?.clear()
        print("Built \(output): \(report.statements) statement(s)")
        let width = report.importedRows.map(\.table.count).max() ?? 0
        for (table, rows) in report.importedRows {
            print("  \(table.padding(toLength: width, withPad: " ", startingAt: 0))  \(rows) row(s) imported")
        }
    }
}

/// A one-line progress bar on standard error: bytes read of the file, rows per second.
final class ProgressBar {
    private var started = Date()
    private var file = ""

    func show(_ progress: DBBImportProgress) {
        if progress.file != file {
            file = progress.file
            started = Date()
        }
        let fraction = progress.totalBytes > 0 ? Double(progress.bytesRead) / Double(progress.totalBytes) : 1
        let filled = Int(fraction * 30)
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
        let seconds = max(Date().timeIntervalSince(started), 0.001)
        let rate = Int(Double(progress.rows) / seconds)
        let line = String(format: "\r%@ → %@ [%@] %3d%% %@/%@ %d rows/s", progress.file, progress.table, bar,
                          Int(fraction * 100), megabytes(progress.bytesRead), megabytes(progress.totalBytes), rate)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func clear() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    private func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
