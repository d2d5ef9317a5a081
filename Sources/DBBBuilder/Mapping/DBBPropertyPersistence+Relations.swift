import DBBSQLite
import Foundation

// Arrays and references, stored in join tables `<Table>_<column>`. As in DBBBuilder, `nil`
// and an empty array both store no row; a property with no rows reads back as `nil` when it is
// optional, as an empty array otherwise. Each key path is an autoclosure, as in the column form
// (see ``DBBPropertyPersistence``).
extension DBBPropertyPersistence {
    /// An array of `Bool`, integers, `Double`, `Float`, `String`, `Date`, `Decimal`, `UUID` or
    /// `URL`, one join row per element, in order.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Element: DBBArrayElement>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Element]>, columnName: String = ""
    ) {
        self.init(keyPath(), elements: PlainElement<Element>.self, columnName: columnName)
    }

    /// An optional array of `Bool`, integers, `Double`, `Float`, `String`, `Date`, `Decimal`,
    /// `UUID` or `URL`.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Element: DBBArrayElement>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Element]?>, columnName: String = ""
    ) {
        self.init(keyPath(), elements: PlainElement<Element>.self, columnName: columnName)
    }

    /// An array whose elements `Coding` keeps, one join row each, in order.
    @inlinable @inline(__always)
    init<Root: DBBTableObject, Coding: ElementCoding>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Coding.Element]>,
        elements coding: Coding.Type, columnName: String
    ) {
        self.init(
            storageType: Coding.arrayStorageType, valueType: [Coding.Element].self, columnName: columnName,
            keyPath: keyPath(),
            access: .join(
                JoinAccess(
                    values: { object in
                        unsafeDowncast(object, to: Root.self)[keyPath: keyPath()].map(Coding.joinValue(of:))
                    },
                    assign: { values, object in
                        let elements = try values.map(Coding.element(of:))
                        Self.assign(elements, to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
                        return Coding.joinValues(of: elements, read: values)
                    },
                    direct: { StoredProperty.arrayAccess(keyPath(), elements: coding, prototype: $0) })))
    }

    /// An optional array whose elements `Coding` keeps: no rows read back as `nil`.
    @inlinable @inline(__always)
    init<Root: DBBTableObject, Coding: ElementCoding>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Coding.Element]?>,
        elements coding: Coding.Type,
        columnName: String
    ) {
        self.init(
            storageType: Coding.arrayStorageType, valueType: [Coding.Element]?.self, columnName: columnName,
            keyPath: keyPath(),
            access: .join(
                JoinAccess(
                    values: { object in
                        unsafeDowncast(object, to: Root.self)[keyPath: keyPath()]?.map(Coding.joinValue(of:)) ?? []
                    },
                    assign: { values, object in
                        let elements = values.isEmpty ? nil : try values.map(Coding.element(of:))
                        Self.assign(elements, to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
                        return elements.map { Coding.joinValues(of: $0, read: values) } ?? []
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
