import ArgumentParser
import DBBScript
import Foundation

struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a database from a script of SQL and sqlite3 dot commands.",
        discussion: """
            The script is read the way the sqlite3 shell reads it, so `sqlite3 OUTPUT < \
            SCRIPT` and `dbb build OUTPUT SCRIPT` make the same database: SQL statements \
            end with ';' (over several lines if need be), dot commands start in the first \
            column of a line, '--' and '/* */' are comments (and '#' at the start of a \
            line), and lines may end in LF or CRLF. Each statement runs in its own \
            transaction unless the script begins one; VACUUM, PRAGMA page_size and PRAGMA \
            journal_mode work as in the shell, and foreign keys are off unless the script \
            turns them on.

            Dot commands:
              .mode MODE              csv, list, tabs, ascii… (how .import reads)
              .separator COL [ROW]    the separators .import reads with
              .import [--skip N] [--csv] [--ascii] [--schema S] FILE TABLE
                                      append FILE's records to TABLE; a missing
                                      TABLE is created from the first record
              .read FILE              run another script
              .print TEXT             print TEXT
              .exit, .quit            stop the script here
              .bail, .headers, .nullvalue, .echo, .changes, .timer, .schema,
              .tables                 accepted; they only concern output
            Relative file names are relative to the script's folder.

            Stricter than the shell: any error stops the build and names the script line; \
            in .import, a record with more or fewer fields than the table has columns, a \
            quote left open and a stray quote are errors naming FILE:LINE; a script that \
            ends inside its own transaction is an error.

            The build writes a temporary file beside OUTPUT, which replaces OUTPUT only \
            when the whole script succeeded. With --force, OUTPUT is replaced only when no \
            other process has it open, and its old -wal, -shm and -journal files go with it.

            Example (schema.txt):
              CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT, kcal INTEGER);
              .mode csv
              .separator |
              .import --skip 1 food.csv food
              CREATE INDEX food_name ON food(name);
              PRAGMA user_version = 1;

              $ dbb build food.sqlite schema.txt
              $ dbb build food.sqlite schema.txt --force
              $ dbb build food.sqlite schema.txt --verbose 2> timings.log
            """)

    @Argument(help: "The database file to create.")
    var output: String

    @Argument(help: "The script to run.")
    var script: String

    @Flag(help: "Replace OUTPUT if it exists (once the build succeeded, and only when no other process has it open).")
    var force = false

    @OptionGroup var log: LogOptions

    func run() throws {
        guard !output.isEmpty else { throw CommandFailure(description: "the output path is empty") }
        guard !script.isEmpty else { throw CommandFailure(description: "the script path is empty") }
        let signals = Self.removeTemporariesOnSignals()
        defer { for signal in signals { signal.cancel() } }
        let bar = isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
        let report: DBBBuildReport
        do {
            report = try DBBScriptRunner.build(
                script: URL(fileURLWithPath: script), output: URL(fileURLWithPath: output), replacing: force,
                logging: log.logging, progress: bar.map { bar in { bar.show($0) } })
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

extension BuildCommand {
    /// On SIGINT, SIGTERM or SIGHUP: remove the build's temporary file, then exit as the signal
    /// would have (128 + its number). The output is untouched.
    static func removeTemporariesOnSignals() -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                DBBScriptRunner.removeTemporaryFiles()
                Foundation.exit(128 + number)
            }
            source.resume()
            return source
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
        let line = String(
            format: "\r%@ → %@ [%@] %3d%% %@/%@ %d rows/s", progress.file, progress.table, bar,
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
