import DBBSQLite
import Foundation

/// The state of one build: the connection, the settings dot commands change, and the report.
///
/// Statements run as the sqlite3 shell runs them: each in its own transaction unless the
/// script opened one, so `VACUUM`, `PRAGMA page_size`/`journal_mode`/`auto_vacuum` and the
/// script's own `BEGIN`/`COMMIT`/`ROLLBACK`/`SAVEPOINT` behave as in the shell.
struct ScriptSession {
    let connection: SQLiteConnection
    let progress: ((DBBImportProgress) -> Void)?
    var report = DBBBuildReport()

    /// The shell's `.mode`, and the separators it and `.separator` set.
    private var mode = "list"
    private var columnSeparator = "|"
    private var rowSeparator = "\n"
    /// Scripts being read, to refuse `.read` cycles.
    private var reading: [String] = []
    /// Where the script's own open transaction began (`script:line`), if one is open.
    private(set) var transactionStart: (script: String, line: Int)?

    init(connection: SQLiteConnection, progress: ((DBBImportProgress) -> Void)?) {
        self.connection = connection
        self.progress = progress
    }

    /// Runs the script at `url`. Returns `.stop` when it ran `.exit` or `.quit`.
    ///
    /// - Parameter origin: the `.read` line that asked for it; `nil` for the main script.
    @discardableResult
    mutating func run(_ url: URL, from origin: (script: String, line: Int)? = nil) throws -> ScriptSplitter.Next {
        let name = url.lastPathComponent
        let path = url.standardizedFileURL.path
        reading.append(path)
        defer { reading.removeLast() }
        let bytes: [UInt8]
        do {
            bytes = try Self.contents(of: url.path)
        } catch let problem as ReadProblem {
            let message = "cannot read \(origin == nil ? "the script " : "")\(url.path): \(problem.description)"
            guard let origin else { throw DBBScriptError(.fileSystem, message) }
            throw DBBScriptError(script: origin.script, line: origin.line, message)
        }
        report.read(url)
        let folder = url.deletingLastPathComponent()
        var outcome = ScriptSplitter.Next.proceed
        do {
            try ScriptSplitter.forEachItem(in: bytes) { item in
                switch item {
                case .sql(let text, let line):
                    try execute(text, script: name, line: line)
                case .dotCommand(let text, let line):
                    outcome = try dotCommand(DotCommand(text), script: name, line: line, folder: folder)
                }
                return outcome
            }
        } catch var error as DBBScriptError where error.kind == .script && error.scriptURL == nil {
            error.scriptURL = url.standardizedFileURL  // a nested script's error has its own already
            throw error
        }
        return outcome
    }

    /// Runs one chunk of SQL, statement by statement, naming the line of the one that fails.
    private mutating func execute(_ sql: [UInt8], script: String, line: Int) throws {
        var statementOffset = 0
        do {
            try sql.withUnsafeBufferPointer { bytes in
                try connection.forEachStatement(inUTF8: bytes) { statement, offset in
                    statementOffset = offset
                    let wasInTransaction = connection.isInTransaction
                    try statement.execute()
                    report.statements += 1
                    if connection.isInTransaction != wasInTransaction {
                        transactionStart = wasInTransaction ? nil : (script, Self.line(of: offset, in: sql, from: line))
                    }
                }
            }
        } catch let error as SQLiteError {
            let at = Self.line(of: error.offset ?? statementOffset, in: sql, from: line)
            throw DBBScriptError(script: script, line: at, error.message, sqliteError: error)
        }
    }

    /// The script line of the UTF-8 `offset` in a chunk that starts on `line`.
    private static func line(of offset: Int, in sql: [UInt8], from line: Int) -> Int {
        line + sql.prefix(offset).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    // MARK: - Dot commands

    private mutating func dotCommand(_ command: DotCommand, script: String, line: Int, folder: URL) throws
        -> ScriptSplitter.Next
    {
        func fail(_ message: String) -> DBBScriptError { DBBScriptError(script: script, line: line, message) }
        guard let name = command.name else {
            throw fail(
                ".\(command.word) is not supported in a build script "
                    + "(.mode, .separator, .import, .read, .bail, .print; .headers, .nullvalue, .echo, .changes, .timer, "
                    + ".schema and .tables are accepted and print nothing; .exit, .quit)")
        }
        let arguments = command.arguments
        func require(_ count: ClosedRange<Int>, _ usage: String) throws {
            guard count.contains(arguments.count) else { throw fail("usage: .\(usage)") }
        }
        switch name {
        case .mode:
            try require(1...2, "mode MODE (csv, list, tabs, ascii…)")
            try setMode(arguments[0], fail: fail)
        case .separator:
            try require(1...2, "separator COLUMN [ROW]")
            columnSeparator = arguments[0]
            if arguments.count == 2 { rowSeparator = arguments[1] }
        case .import:
            try importCommand(arguments, script: script, line: line, folder: folder)
        case .read:
            try require(1...1, "read FILE")
            guard !arguments[0].hasPrefix("|") else {
                throw fail(".read from a command (\(arguments[0])) is not supported")
            }
            let target = Self.resolve(arguments[0], in: folder)
            guard !reading.contains(target.standardizedFileURL.path) else {
                throw fail(".read \(arguments[0]) would read a script that is already being read (a cycle)")
            }
            return try run(target, from: (script, line))
        case .bail, .headers, .echo, .changes, .timer:
            try require(1...1, "\(name.rawValue) on|off")
        case .nullvalue:
            try require(1...1, "nullvalue TEXT")
        case .print:
            print(arguments.joined(separator: " "))
        case .schema, .tables:
            break  // output only: a build prints no query results
        case .quit:
            return .stop  // the shell takes no argument here and ignores any
        case .exit:
            if let code = arguments.first, Int(code) != 0 {
                throw fail(".\(command.word) \(code): the script asked to stop with a failure")
            }
            return .stop
        }
        return .proceed
    }

    /// `.mode`: the modes that set the separators `.import` reads with, as the shell sets
    /// them; the output-only modes are accepted and leave the separators alone.
    private mutating func setMode(_ name: String, fail: (String) -> DBBScriptError) throws {
        switch name {
        case "csv": (columnSeparator, rowSeparator) = (",", "\r\n")
        case "list": (columnSeparator, rowSeparator) = ("|", "\n")
        case "tabs": (columnSeparator, rowSeparator) = ("\t", "\n")
        case "ascii": (columnSeparator, rowSeparator) = ("\u{1F}", "\u{1E}")
        case "quote": (columnSeparator, rowSeparator) = (",", "\n")
        case "tcl": (columnSeparator, rowSeparator) = (" ", "\n")
        case "box", "column", "columns", "html", "insert", "json", "line", "lines", "markdown", "qbox", "table": break
        default:
            throw fail(
                ".mode \(name) is not a mode: ascii, box, column, csv, html, insert, json, line, list, markdown, qbox, quote, table, tabs or tcl"
            )
        }
        mode = name
    }

    private mutating func importCommand(_ words: [String], script: String, line: Int, folder: URL) throws {
        func fail(_ message: String) -> DBBScriptError { DBBScriptError(script: script, line: line, message) }
        var skip = 0
        var forced: (column: String, row: String, quoting: Bool)?
        var schema: String?
        var arguments: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index].hasPrefix("--") ? String(words[index].dropFirst()) : words[index]
            switch word {
            case "-skip":
                guard index + 1 < words.count, let count = Int(words[index + 1]), count >= 0 else {
                    throw fail(".import --skip needs a number of rows")
                }
                skip = count
                index += 1
            case "-csv": forced = (",", "\n", true)
            case "-ascii": forced = ("\u{1F}", "\u{1E}", false)
            case "-schema":
                guard index + 1 < words.count else { throw fail(".import --schema needs a schema name") }
                schema = words[index + 1]
                index += 1
            case "-v": break
            case let option where option.hasPrefix("-") && option.count > 1:
                throw fail(".import option \(words[index]) is not supported (--skip N, --csv, --ascii, --schema S, -v)")
            default:
                arguments.append(words[index])
            }
            index += 1
        }
        guard arguments.count == 2 else { throw fail(".import needs a file and a table: .import FILE TABLE") }
        guard !arguments[0].isEmpty, !arguments[1].isEmpty else {
            throw fail(
                ".import needs a file name and a table name, not an empty \(arguments[0].isEmpty ? "file" : "table") name"
            )
        }
        guard !arguments[0].hasPrefix("|") else {
            throw fail(".import from a command (\(arguments[0])) is not supported")
        }
        let column = forced?.column ?? columnSeparator
        var row = forced?.row ?? rowSeparator
        // The shell reads CSV rows ending in \n or \r\n.
        if forced == nil && mode == "csv" && row == "\r\n" { row = "\n" }
        guard column.utf8.count == 1, row.utf8.count == 1 else {
            throw fail(
                "the separators must be one byte each to import, not \(Self.visible(column)) and \(Self.visible(row))")
        }
        let file = Self.resolve(arguments[0], in: folder)
        report.read(file)
        let importer = CSVImport(
            connection: connection, file: file, table: arguments[1], schema: schema,
            columnSeparator: column.utf8.first!, rowSeparator: row.utf8.first!,
            quoting: forced?.quoting ?? (mode != "ascii"), skip: skip, script: script, line: line, progress: progress)
        let count: Int
        do {
            count = try importer.run()
        } catch var error as DBBScriptError where error.dataFile != nil {
            error.dataFileURL = file.standardizedFileURL
            throw error
        }
        report.add(count, to: arguments[1])
    }

    /// A separator as a person reads it: `"\t"`, `"|"`.
    private static func visible(_ separator: String) -> String {
        "\""
            + separator.replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r") + "\""
    }

    /// Why a file could not be read: `strerror`'s words.
    struct ReadProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// The whole contents of the file at `path`, read with `read(2)` so that a device, a FIFO or
    /// `/dev/stdin` works as the shell's `fopen` would.
    static func contents(of path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadProblem(description: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw ReadProblem(description: String(cString: strerror(errno)))
            }
        }
    }

    /// `name` relative to the script's folder, unless absolute.
    static func resolve(_ name: String, in folder: URL) -> URL {
        name.hasPrefix("/") ? URL(fileURLWithPath: name) : folder.appendingPathComponent(name)
    }
}
