import DBBSQLite
import Foundation

// Enums and JSON: properties whose type is not a column value itself. An enum (any
// `RawRepresentable` type whose raw value is a column value) is stored as its raw value; a
// `Codable` value marked `json:` as JSON text (`jsonb` on PostgreSQL). See
// <doc:TableObjectsAndMappings#Value-types>.
extension DBBPropertyPersistence {
    /// An enum stored as its raw value (`.string` for a `String` enum, `.int` for an `Int` one):
    /// the column a property of the raw type has, so a `String` property becomes an enum with no
    /// change to the table. A stored raw value that is no case of the enum fails the fetch with
    /// ``DBBError/Kind/invalidValue`` naming the property, the row and the value.
    @_disfavoredOverload @inlinable @inline(__always)
    public init<Root: DBBTableObject, Value: RawRepresentable>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Value>, columnName: String = ""
    ) where Value.RawValue: DBBColumnValue {
        self.init(keyPath(), coding: RawValueColumn<Value>.self, columnName: columnName)
    }

    /// An optional enum stored as its raw value, `nil` as `NULL`.
    @_disfavoredOverload @inlinable @inline(__always)
    public init<Root: DBBTableObject, Value: RawRepresentable>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Value?>, columnName: String = ""
    ) where Value.RawValue: DBBColumnValue {
        self.init(keyPath(), coding: OptionalColumn<RawValueColumn<Value>>.self, columnName: columnName)
    }

    /// An array of enums, their raw values one join row each (the join table of an array of
    /// the raw type).
    @_disfavoredOverload @inlinable @inline(__always)
    public init<Root: DBBTableObject, Element: RawRepresentable>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Element]>, columnName: String = ""
    ) where Element.RawValue: DBBArrayElement {
        self.init(keyPath(), elements: RawValueElement<Element>.self, columnName: columnName)
    }

    /// An optional array of enums.
    @_disfavoredOverload @inlinable @inline(__always)
    public init<Root: DBBTableObject, Element: RawRepresentable>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, [Element]?>, columnName: String = ""
    ) where Element.RawValue: DBBArrayElement {
        self.init(keyPath(), elements: RawValueElement<Element>.self, columnName: columnName)
    }

    /// A `Codable` value stored as JSON (`.json`): text on SQLite, `jsonb` on PostgreSQL, in a
    /// column of the object's table — a struct, a dictionary, an array of structs as one value.
    /// `@JSON` on a `@DBBTable` property writes this mapping.
    ///
    /// The JSON is `JSONEncoder`'s with sorted keys. Typed conditions test it only for `nil`
    /// (`.isNull(\.property)`); sorting by it is refused. Stored text that is not the JSON
    /// of the type fails the fetch with ``DBBError/Kind/invalidValue`` naming property and row; a
    /// value whose `encode(to:)` throws fails the save, naming the property.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Value: Codable>(
        json keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Value>, columnName: String = ""
    ) {
        self.init(keyPath(), coding: JSONColumn<Value>.self, columnName: columnName)
    }

    /// An optional `Codable` value stored as JSON, `nil` as `NULL`.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Value: Codable>(
        json keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Value?>, columnName: String = ""
    ) {
        self.init(keyPath(), coding: OptionalColumn<JSONColumn<Value>>.self, columnName: columnName)
    }

    /// A property of a type no column stores: this form exists to say so when the mapping is
    /// compiled.
    @available(
        *, unavailable,
        message:
            "no column stores this property's type: give it a type DBBColumnValue covers (Bool, integers, Double, Float, String, Date, Decimal, UUID, URL), an enum with such a raw value, an array of those, Data, or table objects; store a Codable value as JSON (@JSON in a @DBBTable class, DBBPropertyPersistence(json:) by hand); or leave the property out of the mapping (@Transient)"
    )
    public init<Root: DBBTableObject, Value>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Value>, columnName: String = ""
    ) {
        fatalError("unavailable")
    }
}
