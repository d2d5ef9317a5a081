import DBBSQLite
import Foundation

// The accesses a mapping uses for a plain stored property when the manager reads and writes
// properties at their storage offsets (``DBBManager/storedOffsetAccess``, off unless asked
// for): the same reads and writes as the key-path closures of ``DBBPropertyPersistence``, at
// the offset ``StoredProperty/offset(of:in:)`` found in the class's prototype.
extension StoredProperty {
    /// The access of a column property at its storage offset in `prototype`'s class, or `nil`
    /// when the property is not plain stored storage of the object.
    @inlinable
    static func columnAccess<Root: DBBTableObject, Coding: ColumnCoding>(
        _ keyPath: ReferenceWritableKeyPath<Root, Coding.Value>, coding: Coding.Type, prototype: DBBTableObject
    ) -> ColumnAccess? {
        typealias Value = Coding.Value
        guard let prototype = prototype as? Root, let offset = offset(of: keyPath, in: prototype) else { return nil }
        return ColumnAccess(
            read: { row, index, object in
                try withExtendedLifetime(object) {
                    let property = pointer(object, offset, as: Value.self)
                    if let value = try Coding.read(from: row, at: index) {
                        property.pointee = value
                        return Coding.columnValue(of: value)
                    }
                    return DBBPropertyPersistence.snapshotOfUnread(row, index, Coding.columnValue(of: property.pointee))
                }
            },
            value: { object in
                withExtendedLifetime(object) { Coding.columnValue(of: pointer(object, offset, as: Value.self).pointee) }
            },
            copy: { source, target in
                withExtendedLifetime((source, target)) {
                    pointer(target, offset, as: Value.self).pointee = pointer(source, offset, as: Value.self).pointee
                }
            },
            direct: { _ in nil },
            slot: Coding.isPlain ? StoredSlot.make(Value.self, offset: offset) : nil)
    }

    /// The access of an array property (a value join) at its storage offset in `prototype`'s
    /// class, or `nil` as ``columnAccess(_:prototype:)``.
    @inlinable
    static func arrayAccess<Root: DBBTableObject, Coding: ElementCoding>(
        _ keyPath: ReferenceWritableKeyPath<Root, [Coding.Element]>, elements coding: Coding.Type,
        prototype: DBBTableObject
    ) -> JoinAccess? {
        typealias Element = Coding.Element
        guard let prototype = prototype as? Root, let offset = offset(of: keyPath, in: prototype) else { return nil }
        return JoinAccess(
            values: { object in
                withExtendedLifetime(object) {
                    pointer(object, offset, as: [Element].self).pointee.map(Coding.joinValue(of:))
                }
            },
            assign: { values, object in
                let elements = try values.map(Coding.element(of:))
                withExtendedLifetime(object) { pointer(object, offset, as: [Element].self).pointee = elements }
                return Coding.joinValues(of: elements, read: values)
            })
    }
}
