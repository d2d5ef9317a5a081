import DBBSQLite
import Foundation

/// Reads a fetched row into an object's column properties, one column after the other, in the
/// mapping's column order (property-name order), and records what each column held for the
/// object's change tracking. ``DBBTableObject/readColumns(_:)`` is handed one; `@DBBTable`
/// writes the calls.
///
/// ```swift
/// override func readColumns(_ row: inout DBBRowDecoder) throws {
///     if let value = try row.next(Int.self) { self.age = value }   // NULL leaves it as it is
///     try row.decode(&self.nickname)
/// }
/// ```
public struct DBBRowDecoder: ~Copyable {
    @usableFromInline let row: DBBColumnReader
    /// The column of ``row`` that holds the first mapped property.
    @usableFromInline let first: Int
    /// Where the values read go, as stored: the object's snapshot line.
    @usableFromInline let stored: UnsafeMutablePointer<DBBValue>
    /// How many columns the object's mapping has: no more are read.
    @usableFromInline let width: Int
    /// How many values are read (and initialized in ``stored``).
    @usableFromInline var count = 0

    init(_ row: DBBColumnReader, first column: Int, into stored: UnsafeMutablePointer<DBBValue>, width: Int) {
        (self.row, self.first, self.stored, self.width) = (row, column, stored, width)
    }

    /// The value of the next column as a `Value`, or `nil` for a `NULL` read into a
    /// non-optional type (leave the property as it is: the snapshot records the `NULL`, so a
    /// save writes the property's value).
    /// - Throws: ``DBBError/Kind/invalidValue`` when the stored value has no value of the type
    ///   (the fetch then fails naming the property and row).
    @inlinable @inline(__always)
    public mutating func next<Value: DBBColumnValue>(_ type: Value.Type) throws -> Value? {
        try next(coded: PlainColumn<Value>.self)
    }

    /// The value of the next column as `Coding` reads it (see ``next(_:)``).
    @inlinable @inline(__always)
    mutating func next<Coding: ColumnCoding>(coded: Coding.Type) throws -> Coding.Value? {
        precondition(count < width, "readColumns(_:) reads more columns than the class maps")
        let value = try Coding.read(from: row, at: first &+ count)
        (stored + count).initialize(to: value.map(Coding.columnValue(of:)) ?? .null)
        count &+= 1
        return value
    }

    /// Reads the next column into a column property (see ``next(_:)``).
    @inlinable @inline(__always)
    public mutating func decode<Value: DBBColumnValue>(_ property: inout Value) throws {
        if let value = try next(Value.self) { property = value }
    }

    /// A reference to another table object takes no column: the fetch loads it from its join table.
    @inlinable
    public mutating func decode<Object: DBBTableObject>(_ property: inout Object?) throws {}

    /// An array of table objects takes no column: the fetch loads it from its join table.
    @inlinable
    public mutating func decode<Object: DBBTableObject>(_ property: inout [Object]) throws {}

    /// An optional array of table objects takes no column: the fetch loads it from its join table.
    @inlinable
    public mutating func decode<Object: DBBTableObject>(_ property: inout [Object]?) throws {}

    /// An array of values takes no column: the fetch loads it from its join table.
    @inlinable
    public mutating func decode<Element: DBBArrayElement>(_ property: inout [Element]) throws {}

    /// An optional array of values takes no column: the fetch loads it from its join table.
    @inlinable
    public mutating func decode<Element: DBBArrayElement>(_ property: inout [Element]?) throws {}

    /// `Data` takes no column: the fetch loads it from its join table.
    @inlinable
    public mutating func decode(_ property: inout Data) throws {}

    /// `Data?` takes no column: the fetch loads it from its join table.
    @inlinable
    public mutating func decode(_ property: inout Data?) throws {}
}

/// Takes an object's column-property values for a statement, one column after the other, in
/// the mapping's column order (property-name order). ``DBBTableObject/writeColumns(_:)`` is
/// handed one; `@DBBTable` writes the calls.
public struct DBBRowEncoder: ~Copyable {
    /// Where the values go, as stored.
    @usableFromInline let values: UnsafeMutablePointer<DBBValue>
    /// How many columns the object's mapping has: no more are taken.
    @usableFromInline let width: Int
    /// How many values are taken (and initialized in ``values``).
    @usableFromInline var count = 0

    init(into values: UnsafeMutablePointer<DBBValue>, width: Int) {
        (self.values, self.width) = (values, width)
    }

    /// Takes a column property's value.
    @inlinable @inline(__always)
    public mutating func add<Value: DBBColumnValue>(_ value: Value) {
        add(value, coded: PlainColumn<Value>.self)
    }

    /// Takes a column property's value as `Coding` stores it.
    @inlinable @inline(__always)
    mutating func add<Coding: ColumnCoding>(_ value: Coding.Value, coded: Coding.Type) {
        precondition(count < width, "writeColumns(_:) writes more columns than the class maps")
        (values + count).initialize(to: Coding.columnValue(of: value))
        count &+= 1
    }

    /// A reference to another table object takes no column (its join table holds it).
    @inlinable
    public mutating func add<Object: DBBTableObject>(_ value: Object?) {}

    /// An array of table objects takes no column (its join table holds it).
    @inlinable
    public mutating func add<Object: DBBTableObject>(_ value: [Object]) {}

    /// An optional array of table objects takes no column (its join table holds it).
    @inlinable
    public mutating func add<Object: DBBTableObject>(_ value: [Object]?) {}

    /// An array of values takes no column (its join table holds it).
    @inlinable
    public mutating func add<Element: DBBArrayElement>(_ value: [Element]) {}

    /// An optional array of values takes no column (its join table holds it).
    @inlinable
    public mutating func add<Element: DBBArrayElement>(_ value: [Element]?) {}

    /// `Data` takes no column (its join table holds it).
    @inlinable
    public mutating func add(_ value: Data) {}

    /// `Data?` takes no column (its join table holds it).
    @inlinable
    public mutating func add(_ value: Data?) {}
}
