import DBBSQLite
import Foundation

/// Reads and writes one join-table property: the values of its join rows, in order.
/// `@unchecked Sendable` as ``ColumnAccess``.
@usableFromInline
struct JoinAccess: @unchecked Sendable {
    @usableFromInline typealias Values = (DBBTableObject) -> [DBBValue]
    @usableFromInline typealias Assign = ([DBBValue], DBBTableObject) throws -> [DBBValue]

    /// The values to store for an object, one join row each (for a relation: the related
    /// objects' ids, read after they are saved).
    let values: Values
    /// Sets the property from the values of its join rows (possibly none) and returns the
    /// values it then holds, as ``values`` gives them (the object's join snapshot); unused by
    /// relations.
    /// Throws ``DBBError/Kind/invalidValue`` for a value that is not of the element type, rather
    /// than drop it and shift the elements after it.
    let assign: Assign
    /// For references to table objects: how to reach the related objects.
    let relation: RelationAccess?
    /// Given an object of the mapped class, the same access through the property's storage
    /// offset (see ``StoredProperty``), or `nil` to keep the key path (as ``ColumnAccess/direct``).
    let direct: (DBBTableObject) -> JoinAccess?

    @usableFromInline
    init(
        values: @escaping Values, assign: @escaping Assign,
        direct: @escaping (DBBTableObject) -> JoinAccess? = { _ in nil }
    ) {
        self.values = values
        self.assign = assign
        self.relation = nil
        self.direct = direct
    }

    /// A relation's join rows: the related objects' ids.
    @usableFromInline
    init(relation: RelationAccess) {
        values = { object in relation.objects(object).map { .integer($0.id) } }
        assign = { _, _ in [] }
        self.relation = relation
        direct = { _ in nil }
    }
}
