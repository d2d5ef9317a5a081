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
        try connection.execute(mapping.statements.deleteByIDs, [SQLDialect.idList(ids)])
    }

    /// Deletes every row of `mapping`'s table (join rows go with them, as above).
    static func deleteAll(_ mapping: TableMapping, on connection: any DatabaseConnection) throws {
        try connection.execute(mapping.statements.deleteAll)
    }
}

extension SQLiteValue {
    /// The integer of an `.integer` value.
    var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }
}
