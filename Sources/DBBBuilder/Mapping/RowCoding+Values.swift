import DBBSQLite
import Foundation

// The row accessors of enums and JSON (see ``DBBPropertyPersistence``'s forms of them), which
// `@DBBTable` writes: an enum property through `decode(_:)` and `add(_:)`, whose overloads the
// compiler chooses by the property's type; a `@JSON` property through `decodeJSON(_:)` and
// `addJSON(_:)`. A property of a type no column stores meets the unavailable overloads, whose
// message says what to write.

extension DBBRowDecoder {
    /// Reads the next column into an enum property, from its raw value.
    /// - Throws: ``DBBError/Kind/invalidValue`` for a raw value that is no case of the enum.
    @_disfavoredOverload @inlinable @inline(__always)
    public mutating func decode<Value: RawRepresentable>(_ property: inout Value) throws
    where Value.RawValue: DBBColumnValue {
        if let value = try next(coded: RawValueColumn<Value>.self) { property = value }
    }

    /// Reads the next column into an optional enum property (`NULL` is `nil`).
    @_disfavoredOverload @inlinable @inline(__always)
    public mutating func decode<Value: RawRepresentable>(_ property: inout Value?) throws
    where Value.RawValue: DBBColumnValue {
        if let value = try next(coded: OptionalColumn<RawValueColumn<Value>>.self) { property = value }
    }

    /// An array of enums takes no column: the fetch loads it from its join table.
    @_disfavoredOverload @inlinable
    public mutating func decode<Element: RawRepresentable>(_ property: inout [Element]) throws
    where Element.RawValue: DBBArrayElement {}

    /// An optional array of enums takes no column: the fetch loads it from its join table.
    @_disfavoredOverload @inlinable
    public mutating func decode<Element: RawRepresentable>(_ property: inout [Element]?) throws
    where Element.RawValue: DBBArrayElement {}

    /// Reads the next column, JSON text, into a `@JSON` property.
    /// - Throws: ``DBBError/Kind/invalidValue`` for text that is not the JSON of `Value`.
    @inlinable
    public mutating func decodeJSON<Value: Codable>(_ property: inout Value) throws {
        if let value = try next(coded: JSONColumn<Value>.self) { property = value }
    }

    /// Reads the next column, JSON text or `NULL`, into an optional `@JSON` property.
    @inlinable
    public mutating func decodeJSON<Value: Codable>(_ property: inout Value?) throws {
        if let value = try next(coded: OptionalColumn<JSONColumn<Value>>.self) { property = value }
    }

    /// A property of a type no column stores: this overload exists to say so at compile time.
    @available(
        *, unavailable,
        message:
            "no column stores this property's type: give it a type DBBColumnValue covers (Bool, integers, Double, Float, String, Date, Decimal, UUID, URL), an enum with such a raw value, an array of those, Data, or table objects; mark a Codable value @JSON to store it as JSON; or mark the property @Transient"
    )
    public mutating func decode<Value>(_ property: inout Value) throws { fatalError("unavailable") }
}

extension DBBRowEncoder {
    /// Takes an enum property's raw value.
    @_disfavoredOverload @inlinable @inline(__always)
    public mutating func add<Value: RawRepresentable>(_ value: Value) where Value.RawValue: DBBColumnValue {
        add(value, coded: RawValueColumn<Value>.self)
    }

    /// Takes an optional enum property's raw value, or `NULL`.
    @_disfavoredOverload @inlinable @inline(__always)
    public mutating func add<Value: RawRepresentable>(_ value: Value?) where Value.RawValue: DBBColumnValue {
        add(value, coded: OptionalColumn<RawValueColumn<Value>>.self)
    }

    /// An array of enums takes no column (its join table holds it).
    @_disfavoredOverload @inlinable
    public mutating func add<Element: RawRepresentable>(_ value: [Element]) where Element.RawValue: DBBArrayElement {}

    /// An optional array of enums takes no column (its join table holds it).
    @_disfavoredOverload @inlinable
    public mutating func add<Element: RawRepresentable>(_ value: [Element]?) where Element.RawValue: DBBArrayElement {}

    /// Takes a `@JSON` property's JSON text.
    @inlinable
    public mutating func addJSON<Value: Codable>(_ value: Value) {
        add(value, coded: JSONColumn<Value>.self)
    }

    /// Takes an optional `@JSON` property's JSON text, or `NULL`.
    @inlinable
    public mutating func addJSON<Value: Codable>(_ value: Value?) {
        add(value, coded: OptionalColumn<JSONColumn<Value>>.self)
    }

    /// A property of a type no column stores: this overload exists to say so at compile time.
    @available(
        *, unavailable,
        message:
            "no column stores this property's type: give it a type DBBColumnValue covers (Bool, integers, Double, Float, String, Date, Decimal, UUID, URL), an enum with such a raw value, an array of those, Data, or table objects; mark a Codable value @JSON to store it as JSON; or mark the property @Transient"
    )
    public mutating func add<Value>(_ value: Value) { fatalError("unavailable") }
}
