import CSV
import DBBSQLite
import Foundation

/// One `.import`: CSV records into an existing table, or into a new one whose columns the
/// first record names (all `TEXT`, as sqlite3 creates them).
struct CSVImport {
    let connection: SQLiteConnection
    let file: URL
    let table: String
    let schema: String?
    let delimiter: Unicode.Scalar
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
        guard let stream = InputStream(url: file), FileManager.default.isReadableFile(atPath: file.path) else {
            throw fail("cannot read \(file.path)")
        }
        let totalBytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? 0
        let reader: CSVReader
        do {
            reader = try CSVReader(stream: stream, delimiter: delimiter)
        } catch {
            throw fail("cannot parse \(file.path): \(error)")
        }
        let target = (schema.map { quote($0) + "." } ?? "") + quote(table)

        var record = 0
        var bytes: Int64 = 0
        var inserted = 0
        var insert: SQLiteStatement?
        var columnCount = try existingColumnCount()
        var lastReport = Date.distantPast

        while let fields = reader.next() {
            record += 1
            bytes += Int64(fields.reduce(fields.count) { $0 + $1.utf8.count })
            if record <= skip { continue }
            if columnCount == nil {
                try createTable(target, columns: fields, row: record)
                columnCount = fields.count
                continue
            }
            let expected = columnCount!
            guard fields.count == expected else {
                if fields.count == 1 && fields[0].isEmpty {
                    throw fail("an empty line where \(expected) fields were expected (the columns of \(table))", row: record)
                }
                throw fail("expected \(expected) fields (the columns of \(table)), found \(fields.count)", row: record)
            }
            if insert == nil {
                let placeholders = Array(repeating: "?", count: expected).joined(separator: ",")
                do {
                    insert = try connection.prepare("INSERT INTO \(target) VALUES(\(placeholders))")
                } catch let error as SQLiteError {
                    throw fail(error.message, row: record, sqliteError: error)
                }
            }
            do {
                for (index, field) in fields.enumerated() { try insert!.bind(field, at: index + 1) }
                try insert!.execute()
            } catch let error as SQLiteError {
                throw fail(error.message, row: record, sqliteError: error)
            }
            inserted += 1
            if let progress, inserted % 4096 == 0, Date().timeIntervalSince(lastReport) > 0.1 {
                lastReport = Date()
                progress(DBBImportProgress(file: fileName, table: table, bytesRead: min(bytes, totalBytes),
                                           totalBytes: totalBytes, rows: inserted, isFinished: false))
            }
        }
        if let error = reader.error, !Self.isEndOfFile(error, stream) {
            throw fail("cannot read \(file.path) after record \(record): \(error)", row: record + 1)
        }
        if columnCount == nil {
            throw fail("\(table) does not exist and the file has no header row to name its columns")
        }
        progress?(DBBImportProgress(file: fileName, table: table, bytesRead: totalBytes, totalBytes: totalBytes,
                                    rows: inserted, isFinished: true))
        return inserted
    }

    /// Whether CSV.swift's error only marks the end of the file: on Linux, a file stream says it
    /// has bytes until a read returns none, which CSV.swift reports as `cannotReadFile`.
    private static func isEndOfFile(_ error: Error, _ stream: InputStream) -> Bool {
        if case CSVError.cannotReadFile = error { return stream.streamStatus == .atEnd }
        return false
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
