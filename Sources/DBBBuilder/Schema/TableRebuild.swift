import DBBSQLite

/// Rebuilds one table in SQLite's documented way (create the new table, copy every row, drop
/// the old one, rename, recreate its indexes and triggers), keeping every row, column, id and
/// the AUTOINCREMENT counter. Used to change the `NOT NULL` and `UNIQUE` constraints and the
/// declared types of columns, which SQLite's `ALTER TABLE` cannot: lifting the `NOT NULL` of a
/// column whose property was removed, bringing a column's constraints in line with its
/// property's attributes (see ``ConstraintMigration``), and turning an integer column into a
/// real one or back when its property's type changes (see ``TypeMigration``). Runs inside the
/// caller's transaction: a failure leaves the table as it was.
///
/// Dropping the old table fires none of its triggers (SQLite drops them first), so join rows
/// stay. A table that other tables' foreign keys refer to is not rebuilt while foreign keys
/// are enforced (dropping it could cascade): that is refused with an error.
struct TableRebuild {
    let connection: any DatabaseConnection
    let table: String

    /// The name of the new table while `table` is rebuilt: no class's schema may take it.
    static func rebuildName(of table: String) -> String { "\(table)_dbb_rebuild" }

    /// Rebuilds the table with the column definitions changed as `edits` says, and the declared
    /// types of the columns `retyping` names changed to its types (by column name); the copy
    /// converts the values as the new types' affinities do.
    /// - Parameter purpose: what the rebuild is for, in the words of an error message.
    func run(editing edits: [String: RebuildSQL.ColumnEdit], retyping: [String: String] = [:], purpose: String) throws {
        let refuse = { (reason: String) in
            DBBError(
                .migrationRefused, table: table, property: (Array(edits.keys) + retyping.keys).sorted().first,
                "\(purpose) needs a rebuild of table \(table), which \(reason); nothing was changed")
        }
        guard let create = try connection.fetchValue(RebuildSQL.createStatement, [.text(table)], as: String.self) else {
            throw refuse("found no CREATE TABLE statement")
        }
        let referencing = try connection.fetchAll(RebuildSQL.referencingTables, [.text(table)]) {
            $0.string(at: 0) ?? ""
        }
        if !referencing.isEmpty, try connection.fetchValue(RebuildSQL.foreignKeysEnabled, as: Int.self) == 1 {
            throw refuse("foreign keys of \(referencing.joined(separator: ", ")) refer to; rebuild it by hand")
        }
        let newName = Self.rebuildName(of: table)
        guard
            let (newCreate, uniqueNotFound) = RebuildSQL.createTable(
                from: create, named: newName, editing: edits, retyping: retyping)
        else {
            throw refuse("could not read its CREATE TABLE statement")
        }
        if !uniqueNotFound.isEmpty {
            throw refuse(
                "cannot lift the UNIQUE of \(uniqueNotFound.joined(separator: ", ")): it is a table constraint "
                    + "(UNIQUE (column)), not part of the column's definition; rebuild the table by hand")
        }
        let copied = try connection.fetchAll(RebuildSQL.ordinaryColumns, [.text(table)]) { $0.string(at: 0) ?? "" }
        let dependents = try connection.fetchAll(RebuildSQL.dependents, [.text(table)]) { $0.string(at: 0) ?? "" }
        let hasSequence = try connection.fetchValue(RebuildSQL.sequenceTableExists, as: Int.self) == 1
        let sequence =
            hasSequence ? try connection.fetchValue(RebuildSQL.sequence, [.text(table)], as: Int64.self) : nil

        let step = { (sql: String) in try connection.change(.rebuild(copiesRows: false), on: table, sql) }
        try step(newCreate)
        try connection.change(
            .rebuild(copiesRows: true), on: table, RebuildSQL.copyRows(from: table, to: newName, columns: copied))
        try step(RebuildSQL.dropTable(table))
        // Legacy renaming: do not rewrite or re-check other schema objects (a view of the
        // dropped table would fail the check); the new table takes the old name as it was.
        try step(RebuildSQL.legacyAlterTable(true))
        defer { try? step(RebuildSQL.legacyAlterTable(false)) }
        try step(RebuildSQL.renameTable(newName, to: table))
        for sql in dependents { try step(sql) }
        if let sequence {
            try connection.change(.rebuild(copiesRows: false), on: table, RebuildSQL.deleteSequence, [.text(table)])
            try connection.change(
                .rebuild(copiesRows: false), on: table, RebuildSQL.insertSequence, [.text(table), .integer(sequence)])
        }
    }
}
