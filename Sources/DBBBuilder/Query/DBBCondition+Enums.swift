import DBBSQLite

// Conditions on enum properties, stored as their raw values: `\.status == .draft` compares the
// column with `"draft"`. An enum is tested for equality and membership; it is not ordered by
// `<` (its raw values' order need not be its cases'), and sorting by it sorts by raw value.

extension DBBExpression where Value == Bool {
    /// The enum property's value is one of `values` (`IN`); none selects nothing.
    @_disfavoredOverload
    public static func `in`<Enum: RawRepresentable>(_ property: KeyPath<Root, Enum>, _ values: [Enum]) -> Self
    where Enum.RawValue: DBBColumnValue {
        Self(.inList(.keyPath(property), values.map(\.rawValue.columnValue), negated: false))
    }

    /// The optional enum property's value is one of `values` (`IN`).
    @_disfavoredOverload
    public static func `in`<Enum: RawRepresentable>(_ property: KeyPath<Root, Enum?>, _ values: [Enum]) -> Self
    where Enum.RawValue: DBBColumnValue {
        Self(.inList(.keyPath(property), values.map(\.rawValue.columnValue), negated: false))
    }

    /// The enum property's value is none of `values` (`NOT IN`).
    @_disfavoredOverload
    public static func notIn<Enum: RawRepresentable>(_ property: KeyPath<Root, Enum>, _ values: [Enum]) -> Self
    where Enum.RawValue: DBBColumnValue {
        Self(.inList(.keyPath(property), values.map(\.rawValue.columnValue), negated: true))
    }

    /// The array of enums has an element equal to `element`.
    @_disfavoredOverload
    public static func contains<Element: RawRepresentable>(_ property: KeyPath<Root, [Element]>, _ element: Element)
        -> Self
    where Element.RawValue: DBBArrayElement & DBBColumnValue {
        anyElement(property, element.rawValue.columnValue)
    }

    /// The optional array of enums has an element equal to `element`.
    @_disfavoredOverload
    public static func contains<Element: RawRepresentable>(_ property: KeyPath<Root, [Element]?>, _ element: Element)
        -> Self
    where Element.RawValue: DBBArrayElement & DBBColumnValue {
        anyElement(property, element.rawValue.columnValue)
    }
}

/// `property = value` for an enum property: its raw value.
@_disfavoredOverload
public func == <Root: DBBTableObject, Value: RawRepresentable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    .compare(lhs, .equal, rhs.rawValue.columnValue)
}

/// `property != value` for an enum property.
@_disfavoredOverload
public func != <Root: DBBTableObject, Value: RawRepresentable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    .compare(lhs, .notEqual, rhs.rawValue.columnValue)
}

/// `property = value` for an optional enum property.
@_disfavoredOverload
public func == <Root: DBBTableObject, Value: RawRepresentable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    .compare(lhs, .equal, rhs.rawValue.columnValue)
}

/// `property != value` for an optional enum property (a `NULL` property is neither).
@_disfavoredOverload
public func != <Root: DBBTableObject, Value: RawRepresentable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    .compare(lhs, .notEqual, rhs.rawValue.columnValue)
}

/// `property == value`, by the column key of an enum property.
@_disfavoredOverload
public func == <Root: DBBTableObject, Value: RawRepresentable>(lhs: DBBColumnKey<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    lhs.keyPath == rhs
}

/// `property != value`, by the column key of an enum property.
@_disfavoredOverload
public func != <Root: DBBTableObject, Value: RawRepresentable>(lhs: DBBColumnKey<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    lhs.keyPath != rhs
}

/// `property == value`, by the column key of an optional enum property.
@_disfavoredOverload
public func == <Root: DBBTableObject, Value: RawRepresentable>(lhs: DBBColumnKey<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    lhs.keyPath == rhs
}

/// `property != value`, by the column key of an optional enum property.
@_disfavoredOverload
public func != <Root: DBBTableObject, Value: RawRepresentable>(lhs: DBBColumnKey<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
where Value.RawValue: DBBColumnValue {
    lhs.keyPath != rhs
}
