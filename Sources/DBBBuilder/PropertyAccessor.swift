import DBBSQLite
import Foundation

/// Reads and writes one column-stored property of a table object, binding and reading by
/// index: no dictionary, no reflection.
///
/// The closures are made by ``DBBPropertyPersistence``'s `@inlinable` initializer, so they are
/// compiled where the key path's concrete types are known and run without generic dispatch.
///
/// `@unchecked Sendable`: the closures capture only a key path, an immutable value; those of
/// mappings are plain stored-property paths that capture nothing themselves (Swift does not
/// mark key path classes `Sendable`).
@usableFromInline
struct ColumnAccess: @unchecked Sendable {
    @usableFromInline typealias Reader = (DBBColumnReader, Int, DBBTableObject) throws -> DBBValue
    @usableFromInline typealias Getter = (DBBTableObject) -> DBBValue
    @usableFromInline typealias Copier = (DBBTableObject, DBBTableObject) -> Void

    /// Sets the property of an object from column `index` (from 0), and returns the value the
    /// property then holds, as stored (the object's snapshot for change tracking); throws when
    /// the stored value has no value of the property's type.
    let read: Reader
    /// The property's value as it is stored in its column.
    let value: Getter
    /// Copies the property from the first object to the second (of the same class).
    let copy: Copier
    /// Given an object of the mapped class, the same access through the property's storage
    /// offset (see ``StoredProperty``), or `nil` to keep the key path.
    let direct: (DBBTableObject) -> ColumnAccess?
    /// For a property read at its storage offset, of one of the common types: how a fetch
    /// reads it without calling ``read`` (see ``StoredSlot``).
    let slot: StoredSlot?

    @usableFromInline
    init(
        read: @escaping Reader, value: @escaping Getter, copy: @escaping Copier,
        direct: @escaping (DBBTableObject) -> ColumnAccess?, slot: StoredSlot? = nil
    ) {
        self.read = read
        self.value = value
        self.copy = copy
        self.direct = direct
        self.slot = slot
    }
}

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
