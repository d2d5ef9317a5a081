import DBBSQLite
import Foundation

/// Why a build failed: a line of the script (`script:line`, and `file:line` for data), or
/// the output file (it exists, another process has it open, the file system refused).
///
/// ```
/// schema.txt:12: food.csv:4: expected 3 fields (the columns of food), found 2
/// food.sqlite exists; use --force to replace it
/// ```
public struct DBBScriptError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// A statement, dot command or data record of the script (``script``, ``line``).
        case script
        /// The output exists and replacing it was not asked for.
        case outputExists
        /// Another process, or another connection of this one, has the output open: replacing
        /// the file under it would lose what it writes and show it stale data.
        case outputInUse
        /// A file could not be read, created, written or moved.
        case fileSystem
    }

    /// What failed.
    public let kind: Kind
    /// The script file and line (1-based; 0 when the failure is not on a line) of the command
    /// or statement that failed.
    public let script: String
    public let line: Int
    /// For a data error, the data file and the line (1-based) where its record starts.
    public let dataFile: String?
    public let row: Int?
    /// The script file of ``line``, as a path (``script`` is its name), for a `.script` error.
    public internal(set) var scriptURL: URL?
    /// The data file of ``row``, as a path (``dataFile`` is its name as written).
    public internal(set) var dataFileURL: URL?
    /// What went wrong.
    public let message: String
    /// The SQLite error underneath, when SQLite refused something.
    public let sqliteError: SQLiteError?

    init(
        script: String, line: Int, dataFile: String? = nil, row: Int? = nil, _ message: String,
        sqliteError: SQLiteError? = nil
    ) {
        self.kind = .script
        self.script = script
        self.line = line
        self.dataFile = dataFile
        self.row = row
        self.message = message
        self.sqliteError = sqliteError
    }

    /// An error about a file rather than a script line.
    init(_ kind: Kind, _ message: String, sqliteError: SQLiteError? = nil) {
        self.kind = kind
        self.script = ""
        self.line = 0
        self.dataFile = nil
        self.row = nil
        self.message = message
        self.sqliteError = sqliteError
    }

    public var description: String {
        var text = script.isEmpty ? "" : line > 0 ? "\(script):\(line): " : "\(script): "
        if let dataFile { text += "\(dataFile)" + (row.map { ":\($0)" } ?? "") + ": " }
        return text + message
    }
}

/// What a build did: the rows each `.import` added, by table, and the statements run.
public struct DBBBuildReport: Sendable, Hashable {
    /// Rows imported per table, in the order the tables were first imported into.
    public var importedRows: [(table: String, rows: Int)] { order.map { ($0, rows[$0] ?? 0) } }
    /// How many SQL statements ran.
    public internal(set) var statements = 0
    /// The files the build read, in the order it first opened them: the script, the scripts
    /// `.read` ran and the files `.import` imported (see ``DBBScriptRunner/inputFiles(of:)``).
    public internal(set) var filesRead: [URL] = []

    private var order: [String] = []
    private var rows: [String: Int] = [:]

    mutating func add(_ count: Int, to table: String) {
        if rows[table] == nil { order.append(table) }
        rows[table, default: 0] += count
    }

    /// Records that the build read `file`.
    mutating func read(_ file: URL) {
        let file = file.standardizedFileURL
        if !filesRead.contains(file) { filesRead.append(file) }
    }

    public static func == (lhs: DBBBuildReport, rhs: DBBBuildReport) -> Bool {
        lhs.order == rhs.order && lhs.rows == rhs.rows && lhs.statements == rhs.statements
            && lhs.filesRead == rhs.filesRead
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(order)
        hasher.combine(statements)
    }
}

/// Where an import stands, for a progress display.
public struct DBBImportProgress: Sendable {
    /// The data file being imported.
    public let file: String
    /// The table it goes into.
    public let table: String
    /// Bytes of the file read so far.
    public let bytesRead: Int64
    /// The file's size in bytes.
    public let totalBytes: Int64
    /// Rows imported so far.
    public let rows: Int
    /// Whether the import is finished.
    public let isFinished: Bool
}
