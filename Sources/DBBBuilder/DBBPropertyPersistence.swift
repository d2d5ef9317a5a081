import Foundation

/// How one property of a table object is persisted: its key path, its column name, and the
/// storage type inferred from the property's Swift type.
///
/// ```swift
/// dbManager.addPersistenceMapping([
///     "name": DBBPropertyPersistence(\Project.name, columnName: "itemName"),
///     "budget": DBBPropertyPersistence(\Project.budget),
///     "startDate": DBBPropertyPersistence(\Project.startDate),
/// ], for: self)
/// ```
///
/// A property of a type that cannot be stored does not compile. DBBBuilder's
/// `DBBPropertyPersistence(type:columnName:)` is replaced by these key-path forms, the only
/// change a DBBBuilder mapping needs.
public struct DBBPropertyPersistence: Sendable {
    /// The storage type, inferred from the property's type.
    public let storageType: DBBStorageType

    /// The column (or join-table) name; empty means the property's name.
    public let columnName: String

    enum Access: Sendable {
        case column(any ColumnAccessor)
        case join(any JoinAccessor)
    }

    let access: Access

    /// A property stored in a column: `Bool`, integers, `Double`, `Float`, `String`, `Date`,
    /// or an optional of one of them.
    public init<Root: DBBTableObject, Value: DBBColumnValue>(
        _ keyPath: ReferenceWritableKeyPath<Root, Value>, columnName: String = ""
    ) {
        storageType = Value.storageType
        self.columnName = columnName
        access = .column(KeyPathColumnAccessor(keyPath: keyPath))
    }

    /// An optional `Data` property (`.binary`), stored in the join table `<Table>_<column>`.
    public init<Root: DBBTableObject>(_ keyPath: ReferenceWritableKeyPath<Root, Data?>, columnName: String = "") {
        storageType = .binary
        self.columnName = columnName
        access = .join(DataJoinAccessor(keyPath: keyPath))
    }
}

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
