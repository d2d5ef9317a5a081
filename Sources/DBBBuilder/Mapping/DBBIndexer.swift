import DBBSQLite
import Foundation

/// Columns to index, as DBBBuilder declares them: one index named `<Table>_<names>` over
/// the columns of the listed properties (custom column names are used).
///
/// ```swift
/// dbManager.addPersistenceMapping(map, for: self, indexer: DBBIndexer(columnsToIndex: ["lastName", "firstName"]))
/// ```
public struct DBBIndexer: Sendable, Hashable {
    /// The property names whose columns are indexed, in index order.
    public let columns: [String]
    /// Whether the index is `UNIQUE`.
    public let isUnique: Bool

    /// An index over the columns of `columnsToIndex` (property names), `UNIQUE` if `unique`.
    public init(columnsToIndex: [String], unique: Bool = false) {
        columns = columnsToIndex.filter { !$0.isEmpty }
        isUnique = unique
    }
}
