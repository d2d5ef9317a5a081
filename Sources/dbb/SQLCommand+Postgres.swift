@_spi(DBBBackend) import DBBBuilder
import Foundation

#if Postgres
import DBBPostgres

extension SQLCommand {
    /// `dbb sql postgres://…`: each statement in turn on one connection, rows printed as for a
    /// file. Without `--write` the manager is read-only (it installs nothing, not even the
    /// locale functions, and its session is read-only), each statement runs alone in a
    /// `READ ONLY` transaction that is rolled back, and statements that would step out of it
    /// (transaction control, `SET` of the transaction's mode, `COPY`) are refused before they
    /// run. SQL that leaves a transaction open is an error, and nothing of it is kept, as for
    /// a file.
    func runOnPostgres() throws {
        guard attachments.isEmpty else {
            throw CommandFailure(description: "--attach attaches SQLite files; a PostgreSQL database cannot attach one")
        }
        do {
            var configuration = try DBBPostgresConfiguration(url: database)
            configuration.poolSize = 1  // one session: BEGIN … COMMIT across statements holds
            configuration.readOnly = !write
            let manager = try DBBManager(postgres: configuration)
            manager.logging = log.logging
            let texts =
                sql.isEmpty ? [String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)] : sql
            let printer = ResultPrinter(format: format)
            try manager.backendAccess.write { connection in
                for text in texts {
                    for statement in PlaceholderSQL(text).statements {
                        try run(statement, on: connection, printer)
                    }
                }
                if connection.hasOpenTransaction {
                    try? connection.execute("ROLLBACK", [])
                    throw CommandFailure(
                        description: "the SQL left a transaction open, and nothing of it was saved: add COMMIT")
                }
            }
            printer.finish()
        } catch let error as CommandFailure {
            throw error
        } catch {
            let error = (error as? any DatabaseFailure)?.dbbError(table: nil, columns: []) ?? error
            if (error as? DBBError)?.serverError?.sqlState == "25006" {
                throw CommandFailure(
                    description: "\(error)\ndbb sql opens the database read-only; add --write to change it")
            }
            throw CommandFailure(description: "\(error)")
        }
    }

    /// The first words of statements that could lift a read-only transaction or write outside it.
    private static let refusedWhenReadOnly: Set<String> = [
        "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT",
        "RELEASE", "PREPARE", "SET", "RESET", "COPY", "DO", "CALL",
    ]

    private func run(
        _ statement: PlaceholderSQL.Statement, on connection: any DatabaseConnection, _ printer: ResultPrinter
    ) throws {
        if !write {
            guard !Self.refusedWhenReadOnly.contains(statement.leadingWord) else {
                throw CommandFailure(
                    description: "this statement can write or end the read-only transaction: "
                        + "\(statement.text.trimmingCharacters(in: .whitespacesAndNewlines))\n"
                        + "dbb sql opens the database read-only; add --write to change it")
            }
            try connection.execute("BEGIN READ ONLY", [])
        }
        defer { if !write { try? connection.execute("ROLLBACK", []) } }
        let prepared = try connection.statement(statement.text)
        defer { prepared.reset() }
        var rows: [[DBBValue]] = []
        while try prepared.step() { rows.append(prepared.reader.values) }
        if !rows.isEmpty { printer.print(columns: prepared.columnNames, rows: rows) }
    }
}
#else
extension SQLCommand {
    /// `dbb sql postgres://…` in a `dbb` built without the package trait `Postgres`: an error that
    /// says how to build one with it.
    func runOnPostgres() throws {
        throw CommandFailure(
            description: "this dbb was built without PostgreSQL: run it with the package trait Postgres, "
                + "`swift run --traits Postgres dbb sql postgres://… SQL`")
    }
}
#endif
