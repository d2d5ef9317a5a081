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
