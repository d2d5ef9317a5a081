import DBBSQLite
import Foundation

/// One `.import`: the records of a data file into an existing table, or into a new one whose
/// columns the first record names (all `TEXT`, as sqlite3 creates them). Runs in its own
/// transaction unless the script has one open, as the shell does.
struct CSVImport {
    let connection: SQLiteConnection
    let file: URL
    let table: String
    let schema: String?
    let columnSeparator: UInt8
    let rowSeparator: UInt8
    /// `false` for `.mode ascii` / `--ascii`: no quoting.
    let quoting: Bool
    let skip: Int
    let script: String
    let line: Int
    let progress: ((DBBImportProgress) -> Void)?

    private var fileName: String { file.lastPathComponent }

    private func fail(_ message: String, row: Int? = nil, sqliteError: SQLiteError? = nil) -> DBBScriptError {
        DBBScriptError(script: script, line: line, dataFile: fileName, row: row, message, sqliteError: sqliteError)
    }

    /// Imports the file; returns the number of rows inserted.
    func run() throws -> Int {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw fail("cannot read \(file.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var status = stat()
        let totalBytes = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
        guard status.st_mode & S_IFMT != S_IFDIR else { throw fail("\(file.path) is a folder") }

        let ownTransaction = !connection.isInTransaction
        if ownTransaction { try connection.execute("BEGIN") }
        let inserted: Int
        do {
            inserted = try importRecords(descriptor, totalBytes: totalBytes)
            if ownTransaction { try connection.execute("COMMIT") }
        } catch {
            if ownTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
        progress?(DBBImportProgress(file: fileName, table: table, bytesRead: totalBytes, totalBytes: totalBytes,
                                    rows: inserted, isFinished: true))
        return inserted
    }

    private func importRecords(_ descriptor: Int32, totalBytes: Int64) throws -> Int {
        var reader = DelimitedReader(descriptor: descriptor, columnSeparator: columnSeparator,
                                     rowSeparator: rowSeparator, quoting: quoting)
        let target = (schema.map { quote($0) + "." } ?? "") + quote(table)
        var fields: [String] = []
        var inserted = 0
        var insert: SQLiteStatement?
        var columnCount = try existingColumnCount()
        var lastReport = Date.distantPast
        var skipped = 0

        while true {
            let record: (found: Bool, startLine: Int)
            do {
                record = try reader.nextRecord(&fields)
            } catch let failure as DelimitedReader.Failure {
                throw describe(failure)
            }
            guard record.found else { break }
            if skipped < skip {
                skipped += 1
                continue
            }
            guard let expected = columnCount else {
                try createTable(target, columns: fields, row: record.startLine)
                columnCount = fields.count
                continue
            }
            guard fields.count == expected else {
                if fields.count == 1 && fields[0].isEmpty {
                    throw fail("an empty line where \(expected) fields were expected (the columns of \(table))", row: record.startLine)
                }
                throw fail("expected \(expected) fields (the columns of \(table)), found \(fields.count)", row: record.startLine)
            }
            do {
                if insert == nil {
                    let placeholders = Array(repeating: "?", count: expected).joined(separator: ",")
                    insert = try connection.prepare("INSERT INTO \(target) VALUES(\(placeholders))")
                }
                for (index, field) in fields.enumerated() { try insert!.bind(field, at: index + 1) }
                try insert!.execute()
            } catch let error as SQLiteError {
                throw fail(error.message, row: record.startLine, sqliteError: error)
            }
            inserted += 1
            if let progress, inserted % 4096 == 0, Date().timeIntervalSince(lastReport) > 0.1 {
                lastReport = Date()
                progress(DBBImportProgress(file: fileName, table: table, bytesRead: min(reader.bytesRead, totalBytes),
                                           totalBytes: totalBytes, rows: inserted, isFinished: false))
            }
        }
        if columnCount == nil {
            throw fail("\(table) does not exist and the file has no header row to name its columns")
        }
        return inserted
    }

    private func describe(_ failure: DelimitedReader.Failure) -> DBBScriptError {
        switch failure {
        case .unterminatedQuote(let line):
            fail("the quoted field that starts here is not closed: a \" is missing before the end of the file", row: line)
        case .strayQuote(let line):
            fail("a quoted field goes on after its closing \" (write a \" inside a quoted field as \"\")", row: line)
        case .readFailed(let code):
            fail("cannot read \(file.path): \(String(cString: strerror(code)))")
        }
    }

    /// The number of columns of the target table, or `nil` when it does not exist.
    private func existingColumnCount() throws -> Int? {
        let count: Int
        if let schema {
            count = try connection.fetchValue(
                "SELECT count(*) FROM pragma_table_info(?, ?)", [.text(table), .text(schema)], as: Int.self) ?? 0
        } else {
            count = try connection.fetchValue("SELECT count(*) FROM pragma_table_info(?)", [.text(table)], as: Int.self) ?? 0
        }
        return count > 0 ? count : nil
    }

    /// The table sqlite3 creates from a header row: `CREATE TABLE "t"(\n"a" TEXT, "b" TEXT)`.
    private func createTable(_ target: String, columns: [String], row: Int) throws {
        let definitions = columns.map { quote($0) + " TEXT" }.joined(separator: ", ")
        do {
            try connection.execute("CREATE TABLE \(target)(\n\(definitions))")
        } catch let error as SQLiteError {
            throw fail("cannot create \(table) from the header row: \(error.message)", row: row, sqliteError: error)
        }
    }

    /// An identifier in double quotes, as sqlite3's `%w` writes it.
    private func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
