import DBBSQLite
import Foundation

/// A property that refers to other table objects: one (`Person?`) or an array (`[Meeting]`).
/// `@unchecked Sendable` as ``ColumnAccess``.
@usableFromInline
struct RelationAccess: @unchecked Sendable {
    /// The class of the related objects, whose table holds their rows.
    let targetType: DBBTableObject.Type
    /// The related objects of an object, in order (none for `nil`).
    let objects: (DBBTableObject) -> [DBBTableObject]
    /// Sets the property of an object from its related objects, in order.
    let assignObjects: ([DBBTableObject], DBBTableObject) -> Void

    @usableFromInline
    init(
        targetType: DBBTableObject.Type, objects: @escaping (DBBTableObject) -> [DBBTableObject],
        assignObjects: @escaping ([DBBTableObject], DBBTableObject) -> Void
    ) {
        self.targetType = targetType
        self.objects = objects
        self.assignObjects = assignObjects
    }
}
