import DBBSQLite
import Foundation

// Arrays and references, stored in join tables `<Table>_<column>`. As in DBBBuilder, `nil`
// and an empty array both store no row; a property with no rows reads back as `nil` when it is
// optional, as an empty array otherwise. Each key path is an autoclosure, as in the column form
// (see ``DBBPropertyPersistence``).
extension DBBPropertyPersistence {
    /// An array of `Bool`, integers, `Double`, `Float`, `String` or `Date`, one join row per
    /// element, in order.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Element: DBBArrayElement>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Element]>, columnName: String = ""
    ) {
        self.init(
            storageType: Element.arrayStorageType, valueType: [Element].self, columnName: columnName,
            keyPath: keyPath(),
            access: .join(
                JoinAccess(
                    values: { object in unsafeDowncast(object, to: Root.self)[keyPath: keyPath()].map(\.joinValue) },
                    assign: { values, object in
                        let elements = try values.map(Element.element(of:))
                        Self.assign(elements, to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
                        return Element.joinValues(of: elements, read: values)
                    },
                    direct: { StoredProperty.arrayAccess(keyPath(), prototype: $0) })))
    }

    /// An optional array of `Bool`, integers, `Double`, `Float`, `String` or `Date`.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Element: DBBArrayElement>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Element]?>, columnName: String = ""
    ) {
        self.init(
            storageType: Element.arrayStorageType, valueType: [Element]?.self, columnName: columnName,
            keyPath: keyPath(),
            access: .join(
                JoinAccess(
                    values: { object in
                        unsafeDowncast(object, to: Root.self)[keyPath: keyPath()]?.map(\.joinValue) ?? []
                    },
                    assign: { values, object in
                        let elements = values.isEmpty ? nil : try values.map(Element.element(of:))
                        Self.assign(elements, to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
                        return elements.map { Element.joinValues(of: $0, read: values) } ?? []
                    })))
    }

    /// A reference to another table object (`.dbbObject`), stored as its id. Saving the
    /// owner saves the referenced object first when it has not been saved.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Target: DBBTableObject>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Target?>, columnName: String = ""
    ) {
        let relation = RelationAccess(
            targetType: Target.self,
            objects: { object in unsafeDowncast(object, to: Root.self)[keyPath: keyPath()].map { [$0] } ?? [] },
            assignObjects: { related, object in
                Self.assign(
                    related.first.map { unsafeDowncast($0, to: Target.self) },
                    to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
            })
        self.init(
            storageType: .dbbObject(objectType: Target.self), valueType: Target?.self, columnName: columnName,
            keyPath: keyPath(),
            access: .join(JoinAccess(relation: relation)))
    }

    /// An array of table objects (`.dbbObjectArray`), stored as their ids in order. Saving the
    /// owner saves every object of the array.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Target: DBBTableObject>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Target]>, columnName: String = ""
    ) {
        let relation = RelationAccess(
            targetType: Target.self,
            objects: { object in unsafeDowncast(object, to: Root.self)[keyPath: keyPath()] },
            assignObjects: { related, object in
                Self.assign(
                    related.map { unsafeDowncast($0, to: Target.self) },
                    to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
            })
        self.init(
            storageType: .dbbObjectArray(objectType: Target.self), valueType: [Target].self, columnName: columnName,
            keyPath: keyPath(),
            access: .join(JoinAccess(relation: relation)))
    }

    /// An optional array of table objects (`.dbbObjectArray`).
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Target: DBBTableObject>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Target]?>, columnName: String = ""
    ) {
        let relation = RelationAccess(
            targetType: Target.self,
            objects: { object in unsafeDowncast(object, to: Root.self)[keyPath: keyPath()] ?? [] },
            assignObjects: { related, object in
                Self.assign(
                    related.isEmpty ? nil : related.map { unsafeDowncast($0, to: Target.self) },
                    to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
            })
        self.init(
            storageType: .dbbObjectArray(objectType: Target.self), valueType: [Target]?.self, columnName: columnName,
            keyPath: keyPath(),
            access: .join(JoinAccess(relation: relation)))
    }
}
