import DBBCore
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
        let inserted: Int
        do {
            if ownTransaction { try connection.execute("BEGIN") }
            inserted = try importRecords(descriptor, totalBytes: totalBytes)
            if ownTransaction { try connection.execute("COMMIT") }
        } catch {
            if ownTransaction && connection.isInTransaction { try? connection.execute("ROLLBACK") }
            if let error = error as? SQLiteError { throw fail(error.message, sqliteError: error) }
            throw error
        }
        progress?(
            DBBImportProgress(
                file: fileName, table: table, bytesRead: totalBytes, totalBytes: totalBytes,
                rows: inserted, isFinished: true))
        return inserted
    }

    private func importRecords(_ descriptor: Int32, totalBytes: Int64) throws -> Int {
        var reader = DelimitedReader(
            descriptor: descriptor, columnSeparator: columnSeparator,
            rowSeparator: rowSeparator, quoting: quoting)
        let target = (schema.map { quote($0) + "." } ?? "") + quote(table)
        var inserted = 0
        var insert: SQLiteStatement?
        var columnCount = try existingColumnCount()
        var lastReport = Date.distantPast
        var skipped = 0

        while true {
            let startLine: Int
            do {
                guard let line = try reader.nextRecord() else { break }
                startLine = line
            } catch let failure as DelimitedReader.Failure {
                throw describe(failure)
            }
            let count = reader.fieldEnds.count
            if skipped < skip {
                skipped += 1
                continue
            }
            guard let expected = columnCount else {
                try createTable(
                    target, header: (0..<count).map { Array(Self.cString(reader.field($0))) }, row: startLine)
                columnCount = count
                continue
            }
            guard count == expected else {
                if count == 1 && reader.field(0).isEmpty {
                    throw fail(
                        "an empty line where \(expected) fields were expected (the columns of \(table))", row: startLine
                    )
                }
                throw fail("expected \(expected) fields (the columns of \(table)), found \(count)", row: startLine)
            }
            do {
                if insert == nil {
                    let placeholders = Array(repeating: "?", count: expected).joined(separator: ",")
                    insert = try connection.prepare("INSERT INTO \(target) VALUES(\(placeholders))")
                }
                for index in 0..<count {
                    try Self.cString(reader.field(index)).withUnsafeBufferPointer {
                        try insert!.bindText(utf8: $0, at: index + 1)
                    }
                }
                try insert!.execute()
            } catch let error as SQLiteError {
                throw fail(error.message, row: startLine, sqliteError: error)
            }
            inserted += 1
            if let progress, inserted % 4096 == 0, Date().timeIntervalSince(lastReport) > 0.1 {
                lastReport = Date()
                progress(
                    DBBImportProgress(
                        file: fileName, table: table, bytesRead: min(reader.bytesRead, totalBytes),
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
            fail(
                "the quoted field that starts here is not closed: a \" is missing before the end of the file", row: line
            )
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
            count =
                try connection.fetchValue(
                    "SELECT count(*) FROM pragma_table_info(?, ?)", [.text(table), .text(schema)], as: Int.self) ?? 0
        } else {
            count =
                try connection.fetchValue("SELECT count(*) FROM pragma_table_info(?)", [.text(table)], as: Int.self)
                ?? 0
        }
        return count > 0 ? count : nil
    }

    /// The table the sqlite3 shell creates from a header row, to the byte: `CREATE TABLE
    /// "t"(\n"a" TEXT, "b" TEXT, "c" TEXT, "d" TEXT,\n "e" TEXT)`, four columns a line; an
    /// empty name is `?`, and names met more than once (ignoring ASCII case) get `_` and their
    /// column number, zero-padded to more digits only while a name still clashes.
    private func createTable(_ target: String, header: [[UInt8]], row: Int) throws {
        var names = header.map { $0.isEmpty ? Array("?".utf8) : $0 }
        let folded = names.map(Self.asciiLowercased)
        var seen: [[UInt8]: Int] = [:]
        for name in folded { seen[name, default: 0] += 1 }
        let repeated = folded.indices.filter { seen[folded[$0]]! > 1 }
        if !repeated.isEmpty {
            var width = 1
            while true {
                let candidate = names.indices.map { index in
                    repeated.contains(index)
                        ? names[index] + Array("_".utf8) + Array(Self.padded(index + 1, width).utf8) : names[index]
                }
                let lowered = candidate.map(Self.asciiLowercased)
                if Set(lowered).count == lowered.count || width > 9 {
                    names = candidate
                    break
                }
                width += 1
            }
        }
        var sql = Array("CREATE TABLE \(target)(\n".utf8)
        for (index, name) in names.enumerated() {
            if index > 0 { sql += Array((index % 4 == 0 ? ",\n " : ", ").utf8) }
            sql +=
                [UInt8(ascii: "\"")] + name.flatMap { $0 == UInt8(ascii: "\"") ? [$0, $0] : [$0] }
                + Array("\" TEXT".utf8)
        }
        sql.append(UInt8(ascii: ")"))
        do {
            try sql.withUnsafeBufferPointer { bytes in
                try connection.forEachStatement(inUTF8: bytes) { statement, _ in try statement.execute() }
            }
        } catch let error as SQLiteError {
            throw fail("cannot create \(table) from the header row: \(error.message)", row: row, sqliteError: error)
        }
    }

    /// A name with ASCII capitals lowered, as SQLite compares identifiers.
    private static func asciiLowercased(_ name: [UInt8]) -> [UInt8] {
        name.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    /// A field as the shell binds it, as a C string: up to its first NUL byte.
    private static func cString(_ field: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        field.firstIndex(of: 0).map { field[..<$0] } ?? field
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// An identifier in double quotes, as sqlite3's `%w` writes it.
    private func quote(_ name: String) -> String {
        SQLQuoting.identifier(name)
    }
}
