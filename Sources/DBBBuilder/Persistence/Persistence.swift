import DBBSQLite
import Foundation

/// The row work of deletes (saves: ``SaveSession``; fetches: ``FetchSession``).
enum Persistence {
    // MARK: - Deleting

    /// Deletes the rows of `ids` inside the caller's transaction. Their join rows, and the join
    /// rows of other classes that refer to them, go with them: the schema's triggers delete
    /// them (see ``SchemaSQL/ownerDeleteTrigger(_:)``), whoever deletes the rows.
    static func delete(ids: [Int64], _ mapping: TableMapping, on connection: any DatabaseConnection) throws {
        guard !ids.isEmpty else { return }
        try connection.execute(mapping.statements.deleteByIDs, [SQLText.idList(ids)])
    }

    /// Deletes the row `id` only if its stored `modifiedTime` is `expected`, inside the
    /// caller's transaction (join rows go with it, as above).
    /// - Throws: ``DBBError/Kind/rowChanged`` or ``DBBError/Kind/rowNotFound`` when no row was deleted.
    static func delete(
        id: Int64, ifModifiedTimeIs expected: Date, _ mapping: TableMapping, on connection: any DatabaseConnection
    ) throws {
        try connection.execute(
            mapping.statements.deleteIfModifiedTime, [.integer(id), .real(expected.timeIntervalSinceReferenceDate)])
        if connection.changes == 0 { throw try missedRow(id, expected: expected, mapping, on: connection) }
    }

    /// Why a statement conditional on row `id`'s `modifiedTime` being `expected` touched no
    /// row: ``DBBError/Kind/rowChanged`` when the row is there (written since),
    /// ``DBBError/Kind/rowNotFound`` when it is gone.
    static func missedRow(_ id: Int64, expected: Date, _ mapping: TableMapping, on connection: any DatabaseConnection)
        throws -> DBBError
    {
        let exists = try !connection.fetchAll(mapping.statements.existingIDs, [SQLText.idList([id])], { _ in () })
            .isEmpty
        guard exists else {
            return DBBError(
                .rowNotFound, table: mapping.tableName, rowID: id,
                "row \(id) no longer exists (deleted by another object, manager, process or SQL)")
        }
        return DBBError(
            .rowChanged, table: mapping.tableName, rowID: id,
            "row \(id) was written since modifiedTime \(expected.timeIntervalSinceReferenceDate) (by another object, "
                + "manager, process or SQL): refused rather than overwrite or delete what that write stored; fetch it again"
        )
    }

    /// An UPDATE of row `id` found no row.
    static func rowGone(_ id: Int64, _ mapping: TableMapping) -> DBBError {
        DBBError(
            .rowNotFound, table: mapping.tableName, rowID: id,
            "row \(id) no longer exists (deleted by another object, manager, process or SQL); "
                + "the save was refused rather than insert it again")
    }

    /// Deletes every row of `mapping`'s table (join rows go with them, as above).
    static func deleteAll(_ mapping: TableMapping, on connection: any DatabaseConnection) throws {
        try connection.execute(mapping.statements.deleteAll)
    }
}
