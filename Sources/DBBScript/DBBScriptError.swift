import DBBSQLite
import Foundation

/// Why a build script failed, with where: `script:line` for the script, `file:row` for data.
///
/// ```
/// schema.txt:12: food.csv:4: expected 3 fields (the columns of food), found 2
/// ```
public struct DBBScriptError: Error, Sendable, CustomStringConvertible {
    /// The script file and line (1-based; 0 when the failure is not on a line) of the command
    /// or statement that failed.
    public let script: String
    public let line: Int
    /// For a data error, the data file and its record number (1-based, header included).
    public let dataFile: String?
    public let row: Int?
    /// What went wrong.
    public let message: String
    /// The SQLite error underneath, when SQLite refused something.
    public let sqliteError: SQLiteError?

    init(script: String, line: Int, dataFile: String? = nil, row: Int? = nil, _ message: String, sqliteError: SQLiteError? = nil) {
        self.script = script
        self.line = line
        self.dataFile = dataFile
        self.row = row
        self.message = message
        self.sqliteError = sqliteError
    }

    public var description: String {
        var text = line > 0 ? "\(script):\(line): " : "\(script): "
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

    private var order: [String] = []
    private var rows: [String: Int] = [:]

    mutating func add(_ count: Int, to table: String) {
        if rows[table] == nil { order.append(table) }
        rows[table, default: 0] += count
    }

    public static func == (lhs: DBBBuildReport, rhs: DBBBuildReport) -> Bool {
        lhs.order == rhs.order && lhs.rows == rhs.rows && lhs.statements == rhs.statements
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
    /// Bytes of the file read so far (counted from the fields read; close to the file's bytes).
    public let bytesRead: Int64
    /// The file's size in bytes.
    public let totalBytes: Int64
    /// Rows imported so far.
    public let rows: Int
    /// Whether the import is finished.
    public let isFinished: Bool
}
