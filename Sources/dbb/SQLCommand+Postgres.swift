@_spi(DBBBackend) import DBBBuilder
import DBBPostgres
import Foundation

extension SQLCommand {
    /// `dbb sql postgres://…`: each statement in turn on one connection, read-only unless
    /// `--write`, rows printed as for a file.
    func runOnPostgres() throws {
        guard attachments.isEmpty else {
            throw CommandFailure(description: "--attach attaches SQLite files; a PostgreSQL database cannot attach one")
        }
        do {
            var configuration = try DBBPostgresConfiguration(url: database)
            configuration.poolSize = 1  // one session: BEGIN … COMMIT across statements holds
            let manager = try DBBManager(postgres: configuration)
            if !write { try manager.execute("SET default_transaction_read_only = on") }
            let texts = sql.isEmpty ? [String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)] : sql
            let printer = ResultPrinter(format: format)
            for text in texts {
                for statement in PlaceholderSQL(text).statements {
                    let rows = try manager.query(statement.text)
                    if let first = rows.first { printer.print(columns: first.columnNames, rows: rows.map(\.values)) }
                }
            }
            printer.finish()
        } catch let error as DBBError where error.serverError?.sqlState == "25006" {
            throw CommandFailure(description: "\(error)\ndbb sql opens the database read-only; add --write to change it")
        } catch {
            throw CommandFailure(description: "\(error)")
        }
    }
}
