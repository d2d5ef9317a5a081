import DBBLocale
import DBBSQLite
import Foundation

/// Builds a database from a script in sqlite3's shell language: SQL statements and the dot
/// commands `.mode`, `.separator`, `.import`, `.read`, `.bail` (plus `.headers`, `.echo`,
/// `.timer`, `.changes` and `.print`, which only concern output).
///
/// ```swift
/// let report = try DBBScriptRunner.build(
///     script: URL(fileURLWithPath: "schema.txt"), output: URL(fileURLWithPath: "food.sqlite"))
/// for (table, rows) in report.importedRows { print(table, rows) }
/// ```
///
/// The build runs in one transaction on a temporary file beside `output`, which replaces
/// `output` only when the whole script succeeded: an existing `output` is never left half
/// built. For a script sqlite3 accepts, the result is what `sqlite3 output < script` makes;
/// stricter, any error stops the build (sqlite3 would carry on), and an imported row whose
/// field count differs from the table's columns is an error naming `file:row`.
/// `BEGIN`/`COMMIT`/`END` statements of the script are skipped: the build is one transaction.
public enum DBBScriptRunner {
    /// Runs `script` into a new database at `output`.
    ///
    /// - Parameters:
    ///   - replacing: when `output` exists, replace it (only once the build succeeded) rather than refuse.
    ///   - progress: called as `.import`s advance (often: keep it cheap).
    /// - Throws: ``DBBScriptError`` naming `script:line` (and `file:row` for data); `output` is
    ///   then as it was.
    @discardableResult
    public static func build(
        script: URL, output: URL, replacing: Bool = false, progress: ((DBBImportProgress) -> Void)? = nil
    ) throws -> DBBBuildReport {
        let fileManager = FileManager.default
        let scriptName = script.lastPathComponent
        guard fileManager.fileExists(atPath: script.path) else {
            throw DBBScriptError(script: scriptName, line: 0, "the script \(script.path) does not exist")
        }
        if fileManager.fileExists(atPath: output.path) && !replacing {
            throw DBBScriptError(script: scriptName, line: 0, "\(output.path) exists; use --force to replace it")
        }
        let temporary = output.deletingLastPathComponent()
            .appendingPathComponent(".\(output.lastPathComponent).dbb-build-\(UUID().uuidString)")
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? fileManager.removeItem(atPath: temporary.path + suffix) }
        }
        var configuration = SQLiteConfiguration()
        configuration.journalMode = nil  // a plain rollback-journal file, as sqlite3 makes
        configuration.doubleQuotedStrings = true  // scripts are written for the sqlite3 shell
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: temporary.path, configuration: configuration)
            try connection.addLocaleFunctions()
            try connection.execute("PRAGMA cache_size = -65536")
        } catch let error as SQLiteError {
            throw DBBScriptError(script: scriptName, line: 0, "cannot create \(temporary.path): \(error.message)", sqliteError: error)
        }
        var session = ScriptSession(connection: connection, progress: progress)
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try session.run(script)
            try connection.execute("COMMIT")
        } catch let error as DBBScriptError {
            connection.close()
            throw error
        } catch let error as SQLiteError {
            connection.close()
            throw DBBScriptError(script: scriptName, line: 0, error.message, sqliteError: error)
        }
        connection.close()
        guard rename(temporary.path, output.path) == 0 else {
            throw DBBScriptError(script: scriptName, line: 0,
                                 "cannot move the built database to \(output.path): \(String(cString: strerror(errno)))")
        }
        return session.report
    }
}

/// The state of one build: output settings set by dot commands, and the report.
struct ScriptSession {
    let connection: SQLiteConnection
    let progress: ((DBBImportProgress) -> Void)?
    var report = DBBBuildReport()
    /// `.mode`: csv, list or tabs.
    var mode = "list"
    var columnSeparator = "|"
    var rowSeparator = "\n"
    private var reading: [String] = []  // scripts being read, to refuse `.read` cycles

    init(connection: SQLiteConnection, progress: ((DBBImportProgress) -> Void)?) {
        self.connection = connection
        self.progress = progress
    }

    /// Runs the script at `url`: SQL collected line by line until complete, dot commands and
    /// `#` comments at the start of a line outside a statement.
    mutating func run(_ url: URL) throws {
        let name = url.lastPathComponent
        guard !reading.contains(url.standardizedFileURL.path) else {
            throw DBBScriptError(script: name, line: 0, "\(url.path) reads itself (a .read cycle)")
        }
        reading.append(url.standardizedFileURL.path)
        defer { reading.removeLast() }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw DBBScriptError(script: name, line: 0, "cannot read \(url.path): \(error.localizedDescription)")
        }
        let folder = url.deletingLastPathComponent()
        var pending = ""
        var pendingLine = 0
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : String(rawLine)
            if pending.isEmpty {
                if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
                if line.hasPrefix(".") {
                    try dotCommand(line, script: name, line: number, folder: folder)
                    continue
                }
                pendingLine = number
            }
            pending += line + "\n"
            if SQLiteConnection.isComplete(pending) {
                try execute(pending, script: name, line: pendingLine)
                pending = ""
            }
        }
        if !pending.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // sqlite3 runs an unterminated last statement too.
            try execute(pending, script: name, line: pendingLine)
        }
    }

    /// Runs the SQL of one complete chunk, statement by statement.
    private mutating func execute(_ sql: String, script: String, line: Int) throws {
        do {
            try connection.forEachStatement(in: sql) { statement in
                if Self.isTransactionControl(statement.sql) { return }
                try statement.execute()
                report.statements += 1
            }
        } catch let error as SQLiteError {
            throw DBBScriptError(script: script, line: line, error.message, sqliteError: error)
        }
    }

    /// `BEGIN`, `COMMIT`, `END` (with or without `TRANSACTION`): the build is one transaction already.
    static func isTransactionControl(_ sql: String) -> Bool {
        let words = sql.uppercased().split(whereSeparator: { !$0.isLetter }).prefix(1)
        return ["BEGIN", "COMMIT", "END"].contains(words.first.map(String.init) ?? "")
    }

    // MARK: - Dot commands

    private mutating func dotCommand(_ text: String, script: String, line: Int, folder: URL) throws {
        var words = DotCommandWords.split(String(text.dropFirst()))
        guard let command = words.first?.lowercased() else { return }
        words.removeFirst()
        func fail(_ message: String) -> DBBScriptError { DBBScriptError(script: script, line: line, message) }
        switch command {
        case "mode":
            guard let mode = words.first?.lowercased() else { throw fail(".mode needs a mode: csv, list or tabs") }
            switch mode {
            case "csv": (columnSeparator, rowSeparator) = (",", "\r\n")
            case "list": (columnSeparator, rowSeparator) = ("|", "\n")
            case "tabs": (columnSeparator, rowSeparator) = ("\t", "\n")
            default: throw fail(".mode \(mode) is not supported (csv, list or tabs)")
            }
            self.mode = mode
        case "separator":
            guard let column = words.first else { throw fail(".separator needs a column separator") }
            columnSeparator = column
            if words.count > 1 { rowSeparator = words[1] }
        case "import":
            try importCommand(words, script: script, line: line, folder: folder)
        case "read":
            guard words.count == 1 else { throw fail(".read needs exactly one file") }
            let target = Self.resolve(words[0], in: folder)
            guard !reading.contains(target.standardizedFileURL.path) else {
                throw fail(".read \(words[0]) would read a script that is already being read (a cycle)")
            }
            try run(target)
        case "bail", "headers", "header", "echo", "timer", "changes":
            break  // any error stops a build; the others only concern output
        case "print":
            print(words.joined(separator: " "))
        default:
            throw fail(".\(command) is not supported in a build script (.mode, .separator, .import, .read, .bail)")
        }
    }

    private mutating func importCommand(_ words: [String], script: String, line: Int, folder: URL) throws {
        func fail(_ message: String) -> DBBScriptError { DBBScriptError(script: script, line: line, message) }
        var skip = 0
        var csv = false
        var schema: String?
        var arguments: [String] = []
        var index = 0
        while index < words.count {
            switch words[index] {
            case "--skip", "-skip":
                guard index + 1 < words.count, let count = Int(words[index + 1]), count >= 0 else {
                    throw fail(".import --skip needs a number of rows")
                }
                skip = count
                index += 1
            case "--csv", "-csv": csv = true
            case "--schema", "-schema":
                guard index + 1 < words.count else { throw fail(".import --schema needs a schema name") }
                schema = words[index + 1]
                index += 1
            case let word where word.hasPrefix("-") && word.count > 1:
                throw fail(".import option \(word) is not supported (--skip N, --csv, --schema S)")
            default:
                arguments.append(words[index])
            }
            index += 1
        }
        guard arguments.count == 2 else { throw fail(".import needs a file and a table: .import FILE TABLE") }
        let column = csv ? "," : columnSeparator
        var row = csv ? "\n" : rowSeparator
        if mode == "csv" && row == "\r\n" { row = "\n" }  // sqlite3 reads CSV rows ending in \n or \r\n
        guard column.unicodeScalars.count == 1, let delimiter = column.unicodeScalars.first else {
            throw fail("the column separator must be one character to import, not \"\(column)\"")
        }
        guard row == "\n" || row == "\r\n" else {
            throw fail("the row separator must be a newline to import")
        }
        let importer = CSVImport(
            connection: connection, file: Self.resolve(arguments[0], in: folder), table: arguments[1], schema: schema,
            delimiter: delimiter, skip: skip, script: script, line: line, progress: progress)
        let count = try importer.run()
        report.add(count, to: arguments[1])
    }

    /// `name` relative to the script's folder, unless absolute.
    static func resolve(_ name: String, in folder: URL) -> URL {
        name.hasPrefix("/") ? URL(fileURLWithPath: name) : folder.appendingPathComponent(name)
    }
}
