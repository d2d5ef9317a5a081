import DBBSQLite

// Conditions on key paths and the builders of conditions (`.in`, `.like`, `.contains`,
// `.isNull`): ``DBBCondition`` is a boolean ``DBBExpression``; see DBBExpression.swift.

extension DBBExpression where Value == Bool {
    /// `property <operation> value`.
    static func compare<Property>(_ property: KeyPath<Root, Property>, _ operation: SQLOperator, _ value: DBBValue)
        -> Self
    {
        Self(.binary(.keyPath(property), operation, .value(value)))
    }

    // MARK: - NULL

    /// The property is `NULL` (`nil`), or — for an array — has no element.
    public static func isNull<Property>(_ property: KeyPath<Root, Property>) -> Self {
        Self(.isNull(.keyPath(property), negated: false))
    }

    /// The property is not `NULL`, or — for an array — has an element.
    public static func isNotNull<Property>(_ property: KeyPath<Root, Property>) -> Self {
        Self(.isNull(.keyPath(property), negated: true))
    }

    /// The expression is `NULL`.
    public static func isNull<Tested>(_ expression: DBBExpression<Root, Tested>) -> Self {
        Self(.isNull(expression.node, negated: false))
    }

    /// The expression is not `NULL`.
    public static func isNotNull<Tested>(_ expression: DBBExpression<Root, Tested>) -> Self {
        Self(.isNull(expression.node, negated: true))
    }

    // MARK: - IN

    /// The property's value is one of `values` (`IN`); none selects nothing.
    public static func `in`<Property: DBBColumnValue>(_ property: KeyPath<Root, Property>, _ values: [Property]) -> Self
    {
        Self(.inList(.keyPath(property), values.map(\.columnValue), negated: false))
    }

    /// The optional property's value is one of `values` (`IN`).
    public static func `in`<Property: DBBColumnValue>(_ property: KeyPath<Root, Property?>, _ values: [Property])
        -> Self
    {
        Self(.inList(.keyPath(property), values.map(\.columnValue), negated: false))
    }

    /// The property's value is none of `values` (`NOT IN`); none selects every row.
    public static func notIn<Property: DBBColumnValue>(_ property: KeyPath<Root, Property>, _ values: [Property])
        -> Self
    {
        Self(.inList(.keyPath(property), values.map(\.columnValue), negated: true))
    }

    /// The expression's value is one of `values` (`IN`); none selects nothing.
    public static func `in`<Tested: DBBColumnValue>(_ expression: DBBExpression<Root, Tested>, _ values: [Tested])
        -> Self
    {
        Self(.inList(expression.node, values.map(\.columnValue), negated: false))
    }

    /// The expression's value is none of `values` (`NOT IN`).
    public static func notIn<Tested: DBBColumnValue>(_ expression: DBBExpression<Root, Tested>, _ values: [Tested])
        -> Self
    {
        Self(.inList(expression.node, values.map(\.columnValue), negated: true))
    }

    /// The property's value is one the one-column `query` selects (`IN (SELECT …)`).
    public static func `in`<Property, Other>(_ property: KeyPath<Root, Property>, _ query: DBBSelect<Other, Property>)
        -> Self
    {
        Self(.inQuery(.keyPath(property), query.select, negated: false))
    }

    /// The expression's value is one the one-column `query` selects (`IN (SELECT …)`).
    public static func `in`<Tested, Other>(_ expression: DBBExpression<Root, Tested>, _ query: DBBSelect<Other, Tested>)
        -> Self
    {
        Self(.inQuery(expression.node, query.select, negated: false))
    }

    /// The property's value is none that the one-column `query` selects (`NOT IN (SELECT …)`;
    /// as in SQL, a `NULL` among them makes it select nothing).
    public static func notIn<Property, Other>(_ property: KeyPath<Root, Property>, _ query: DBBSelect<Other, Property>)
        -> Self
    {
        Self(.inQuery(.keyPath(property), query.select, negated: true))
    }

    /// `query` selects a row (`EXISTS (SELECT …)`).
    public static func exists<Other, each Selected>(_ query: DBBSelect<Other, repeat each Selected>) -> Self {
        Self(.exists(query.select, negated: false))
    }

    // MARK: - LIKE

    /// The text property matches the `LIKE` pattern: `%` any text, `_` one character, `\`
    /// before a character makes it plain (`"100\\%"`). Case-sensitive on every backend, or,
    /// with `ignoringCase`, with `A`–`Z` equal to `a`–`z` (no other letter folded) on every
    /// backend.
    public static func like(_ property: KeyPath<Root, String>, _ pattern: String, ignoringCase: Bool = false) -> Self {
        Self(.like(.keyPath(property), pattern: pattern, ignoringCase: ignoringCase, negated: false))
    }

    /// The optional text property matches the `LIKE` pattern (a `NULL` property does not).
    public static func like(_ property: KeyPath<Root, String?>, _ pattern: String, ignoringCase: Bool = false) -> Self {
        Self(.like(.keyPath(property), pattern: pattern, ignoringCase: ignoringCase, negated: false))
    }

    /// The text expression matches the `LIKE` pattern.
    public static func like(_ expression: DBBExpression<Root, String>, _ pattern: String, ignoringCase: Bool = false)
        -> Self
    {
        Self(.like(expression.node, pattern: pattern, ignoringCase: ignoringCase, negated: false))
    }

    /// The optional text expression matches the `LIKE` pattern.
    public static func like(_ expression: DBBExpression<Root, String?>, _ pattern: String, ignoringCase: Bool = false)
        -> Self
    {
        Self(.like(expression.node, pattern: pattern, ignoringCase: ignoringCase, negated: false))
    }

    // MARK: - Arrays

    /// The array property has an element equal to `element`.
    public static func contains<Element: DBBArrayElement & DBBColumnValue>(
        _ property: KeyPath<Root, [Element]>, _ element: Element
    ) -> Self {
        anyElement(property, element.columnValue)
    }

    /// The optional array property has an element equal to `element`.
    public static func contains<Element: DBBArrayElement & DBBColumnValue>(
        _ property: KeyPath<Root, [Element]?>, _ element: Element
    ) -> Self {
        anyElement(property, element.columnValue)
    }

    /// The property refers to `object` among the objects of its array.
    public static func contains<Object: DBBTableObject>(_ property: KeyPath<Root, [Object]>, _ object: Object) -> Self {
        anyElement(property, .integer(object.id))
    }

    /// The optional array property refers to `object`.
    public static func contains<Object: DBBTableObject>(_ property: KeyPath<Root, [Object]?>, _ object: Object)
        -> Self
    {
        anyElement(property, .integer(object.id))
    }

    /// Some element of the array `property` equals `value`: `EXISTS` over its join rows.
    static func anyElement<Property>(_ property: KeyPath<Root, Property>, _ value: DBBValue) -> Self {
        Self(.elements(property, .binary(.element, .equal, .value(value)), negated: false))
    }
}

// MARK: - Comparisons

/// `property = value`.
public func == <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    rhs.columnValue == .null ? .isNull(lhs) : .compare(lhs, .equal, rhs.columnValue)
}

/// `property != value` (in SQL: a `NULL` property is neither equal nor unequal).
public func != <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    rhs.columnValue == .null ? .isNotNull(lhs) : .compare(lhs, .notEqual, rhs.columnValue)
}

/// `property = value` for an optional property.
public func == <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .equal, rhs.columnValue)
}

/// `property != value` for an optional property.
public func != <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .notEqual, rhs.columnValue)
}

/// `property IS NULL`: `\.nickname == nil`.
public func == <Root: DBBTableObject, Value>(lhs: KeyPath<Root, Value?>, rhs: _OptionalNilComparisonType)
    -> DBBCondition<Root>
{
    .isNull(lhs)
}

/// `property IS NOT NULL`: `\.nickname != nil`.
public func != <Root: DBBTableObject, Value>(lhs: KeyPath<Root, Value?>, rhs: _OptionalNilComparisonType)
    -> DBBCondition<Root>
{
    .isNotNull(lhs)
}

/// The reference is `object`: `\.project == apollo`.
public func == <Root: DBBTableObject, Object: DBBTableObject>(lhs: KeyPath<Root, Object?>, rhs: Object)
    -> DBBCondition<Root>
{
    .compare(lhs, .equal, .integer(rhs.id))
}

/// `property < value`.
public func < <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .less, rhs.columnValue)
}

/// `property <= value`.
public func <= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .lessOrEqual, rhs.columnValue)
}

/// `property > value`.
public func > <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .greater, rhs.columnValue)
}

/// `property >= value`.
public func >= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .greaterOrEqual, rhs.columnValue)
}

/// `property < value` for an optional property (a `NULL` property is not less than anything).
public func < <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .less, rhs.columnValue)
}

/// `property <= value` for an optional property.
public func <= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .lessOrEqual, rhs.columnValue)
}

/// `property > value` for an optional property.
public func > <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .greater, rhs.columnValue)
}

/// `property >= value` for an optional property.
public func >= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    .compare(lhs, .greaterOrEqual, rhs.columnValue)
}
