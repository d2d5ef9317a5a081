import DBBSQLite
import Foundation

/// A set-based write of the tree: an `UPDATE` of the columns `assignments` name, or a `DELETE`,
/// of the rows of one class's table that `filter` selects (its mapping is found when it is
/// rendered; see ``SQLRenderer/statement(_:)-(WriteNode)``).
struct WriteNode: @unchecked Sendable {
    // @unchecked Sendable: a class's metatype and nodes (see SQLNode).

    /// One `column = value` of an `UPDATE`: the property's node (``SQLNode/keyPath(_:)``) and
    /// the value's.
    struct Assignment: @unchecked Sendable {
        let target: SQLNode
        let value: SQLNode
    }

    enum Action: @unchecked Sendable {
        /// `UPDATE … SET`, `modifiedTime` set to the time given.
        case update([Assignment], modifiedTime: Date)
        case delete
    }

    /// The class whose table the statement writes.
    let source: DBBTableObject.Type
    let action: Action
    let filter: SQLNode
}
