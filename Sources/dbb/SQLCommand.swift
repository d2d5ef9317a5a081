import ArgumentParser
import DBBLocale
import DBBSQLite
import Foundation

struct SQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sql",
        abstract: "Run SQL on a database, with the DBBLocale date functions, and print the rows.",
        discussion: """
            Each SQL argument may hold several statements; with none, statements are read \
            from standard input. Rows print as an aligned table, or as CSV or JSON.

            The database is opened read-only: a query never changes the file, not even its \
            journal mode, and a missing file is an error rather than a new database. \
            Statements that write need --write (the journal mode still stays as it is).

            Examples:
              dbb sql food.sqlite "SELECT name FROM food LIMIT 5"
              dbb sql usage.sqlite --csv \\
                "SELECT dbb_week(Date, 'en_US') AS week, SUM(Visits) \\
                 FROM Usage GROUP BY week"
              dbb sql user.sqlite --attach ref=food.sqlite \\
                "SELECT m.grams, f.name FROM meal m JOIN ref.food f ON f.id = m.foodID"
              dbb sql food.sqlite --write "UPDATE food SET name = 'Apple' WHERE id = 1"
              dbb sql food.sqlite --json < queries.sql
              dbb sql food.sqlite --verbose "SELECT count(*) FROM food"
              dbb sql postgres://me:secret@localhost/demo --csv \\
                "SELECT dbb_week(Date, 'de_DE') AS week, SUM(Visits) \\
                 FROM Usage GROUP BY week"
              dbb sql "postgres://me:secret@db1,db2/demo?target_session_attrs=read-write" \\
                --write "DELETE FROM Usage WHERE Visits = 0"

            With a postgres:// URL (in a dbb built with the package trait Postgres: \
            swift run --traits Postgres dbb sql URL …) the statements run on that PostgreSQL \
            database; a URL may \
            list several hosts, and target_session_attrs picks among them as libpq does \
            (read-write: the primary). Without \
            --write the session is read-only and nothing is installed or changed: the locale \
            functions work where a manager that writes (or --write) installed them, and a \
            query calling them elsewhere fails saying so. Functions whose effects ignore \
            transactions (pg_stat_reset, replication slots) are PostgreSQL's to refuse: for a \
            strict read-only client, connect as a role that may only read. --attach is \
            SQLite's. A query that returns no row prints nothing (the server's column names \
            come with the rows).
            """)

    enum Format: String, EnumerableFlag {
        case table, csv, json

        static func help(for value: Format) -> ArgumentHelp? {
            switch value {
            case .table: "An aligned table (the default)."
            case .csv: "CSV with a header row."
            case .json: "A JSON array of objects per statement."
            }
        }
    }

    @Argument(
        help: ArgumentHelp(
            "The database file (it must exist), or a PostgreSQL URL.",
            valueName: "file | postgres://user:password@host/database"))
    var database: String

    @Argument(help: "SQL to run; standard input when none is given.")
    var sql: [String] = []

    @Flag(help: "The output format.")
    var format: Format = .table

    @Option(
        name: .customLong("attach"), help: ArgumentHelp("Attach a database read-only as NAME.", valueName: "NAME=PATH"))
    var attachments: [String] = []

    @Flag(help: "Open the database for writing (without it, statements that write are refused).")
    var write = false

    @OptionGroup var log: LogOptions

    func run() throws {
        if DatabasePlace.isURL(database) { return try runOnPostgres() }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: database, isDirectory: &isFolder) else {
            throw CommandFailure(description: "\(database) does not exist (dbb sql opens existing databases only)")
        }
        guard !isFolder.boolValue else { throw CommandFailure(description: "\(database) is a folder, not a database") }
        do {
            var configuration = SQLiteConfiguration()
            configuration.access = write ? .readWrite : .readOnly
            configuration.journalMode = nil  // never change the file's journal mode
            configuration.doubleQuotedStrings = true  // as the sqlite3 shell reads SQL
            let connection = try SQLiteConnection(path: database, configuration: configuration)
            try connection.addLocaleFunctions()
            // `ORDER BY price COLLATE dbb_decimal`, as on the connections of a manager.
            try connection.add(SQLiteCollation.decimal)
            connection.logging = log.logging
            for attachment in attachments {
                let parts = attachment.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw CommandFailure(description: "--attach takes NAME=PATH, not '\(attachment)'")
                }
                try connection.attach(databaseAt: parts[1], as: parts[0], readOnly: true)
            }
            let texts =
                sql.isEmpty ? [String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)] : sql
            let printer = ResultPrinter(format: format)
            for text in texts {
                try connection.forEachStatement(in: text) { statement in
                    // Refused before it runs: VACUUM INTO, say, writes a new file even on a
                    // read-only connection. (A PRAGMA that would change the file fails on its own.)
                    guard write || statement.isReadOnly || Self.isPragma(statement.sql) else {
                        throw CommandFailure(
                            description:
                                "this statement writes: \(statement.sql.trimmingCharacters(in: .whitespacesAndNewlines))\n"
                                + "dbb sql opens the database read-only; add --write to change it")
                    }
                    var rows: [[SQLiteValue]] = []
                    try statement.forEachRow { rows.append($0.values) }
                    if statement.columnCount > 0 { printer.print(columns: statement.columnNames, rows: rows) }
                }
            }
            printer.finish()
            if connection.isInTransaction {
                throw CommandFailure(
                    description: "the SQL left a transaction open, and nothing of it was saved: add COMMIT")
            }
        } catch let error as CommandFailure {
            throw error
        } catch let error as SQLiteError where error.extendedCode.rawValue == 776 {  // SQLITE_READONLY_ROLLBACK
            throw CommandFailure(
                description: "\(database) has a hot journal (a write was interrupted) that must be "
                    + "rolled back before it can be read: run dbb sql once with --write, or open it with sqlite3")
        } catch let error as SQLiteError where error.code == .readOnly && !write {
            throw CommandFailure(
                description: "\(error)\ndbb sql opens the database read-only; add --write to change it")
        } catch {
            throw CommandFailure(description: "\(error)")
        }
    }
}

extension SQLCommand {
    /// Whether `sql` is a PRAGMA (after spaces and comments).
    static func isPragma(_ sql: String) -> Bool {
        var rest = Substring(sql)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*"), let end = rest.range(of: "*/") {
                rest = rest[end.upperBound...]
            } else {
                break
            }
        }
        return rest.prefix(6).uppercased() == "PRAGMA"
    }
}

/// Prints result sets as an aligned table, CSV, or JSON.
final class ResultPrinter {
    let format: SQLCommand.Format
    private var jsonSets: [String] = []

    init(format: SQLCommand.Format) { self.format = format }

    func print(columns: [String], rows: [[SQLiteValue]]) {
        switch format {
        case .table: printTable(columns, rows)
        case .csv: printCSV(columns, rows)
        case .json: jsonSets.append(json(columns, rows))
        }
    }

    func finish() {
        guard format == .json else { return }
        Swift.print(jsonSets.count == 1 ? jsonSets[0] : "[" + jsonSets.joined(separator: ",\n") + "]")
    }

    private func text(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let data): "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    private func printTable(_ columns: [String], _ rows: [[SQLiteValue]]) {
        let cells = rows.map { $0.map(text) }
        var widths = columns.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ values: [String], numeric: [Bool]) -> String {
            zip(values.indices, values).map { index, value in
                let pad = String(repeating: " ", count: widths[index] - value.count)
                return numeric[index] ? pad + value : value + pad
            }.joined(separator: "  ")
        }
        let numeric = columns.indices.map { index in
            !rows.isEmpty
                && rows.allSatisfy { row in
                    switch row[index] {
                    case .integer, .real, .null: true
                    default: false
                    }
                }
        }
        Swift.print(line(columns, numeric: columns.map { _ in false }))
        Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in cells { Swift.print(line(row, numeric: numeric)) }
    }

    private func printCSV(_ columns: [String], _ rows: [[SQLiteValue]]) {
        func field(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        Swift.print(columns.map(field).joined(separator: ","))
        for row in rows {
            Swift.print(row.map { $0.isNull ? "" : field(text($0)) }.joined(separator: ","))
        }
    }

    private func json(_ columns: [String], _ rows: [[SQLiteValue]]) -> String {
        let objects = rows.map { row in
            "{" + zip(columns, row).map { "\(quoted($0)): \(jsonValue($1))" }.joined(separator: ", ") + "}"
        }
        return "[" + objects.joined(separator: ",\n ") + "]"
    }

    private func jsonValue(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let value): String(value)
        case .real(let value): value.isFinite ? String(value) : "null"
        case .text(let value): quoted(value)
        case .blob(let data): quoted(data.base64EncodedString())
        }
    }

    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
