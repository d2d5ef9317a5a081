import DBBSQLite

/// A condition on the mapped properties of `Root`, written with key paths and Swift values and
/// checked by the compiler: the value must have the property's type.
///
/// ```swift
/// let adults = try Person.instances(
///     where: \.age >= 18 && (\.lastName == "Doe" || \.nickname == nil),
///     sortedBy: [.descending(\.age), .ascending(\.lastName)], manager: manager)
/// let hers = try Meeting.instances(where: .contains(\.participants, ada), manager: manager)
/// ```
///
/// A condition becomes the string conditions and arguments of ``DBBQueryOptions`` — the same
/// text a condition written by hand would be (`age >= ?`, `lastName = ?`), the same SQL on each
/// backend — so it means what the string form means, join properties included (see
/// ``DBBQueryOptions/conditions``). A key path to a property the class does not map throws
/// ``DBBError/Kind/unknownProperty`` when the fetch runs; with a `@DBBTable` class, conditions
/// on its `Columns` keys do not compile for a property it does not map.
public struct DBBCondition<Root: DBBTableObject>: @unchecked Sendable {
    // @unchecked Sendable: key paths of stored properties are immutable values (Swift does not
    // mark key path classes Sendable); the values are DBBValues.

    indirect enum Node {
        /// `property <operator> ?`.
        case compare(AnyKeyPath, String, DBBValue)
        /// `property IS NULL`, or `IS NOT NULL` when negated.
        case null(AnyKeyPath, negated: Bool)
        /// `property IN (?, …)`, or `NOT IN` when negated.
        case within(AnyKeyPath, [DBBValue], negated: Bool)
        /// `property LIKE ?`, or `NOT LIKE` when negated.
        case like(AnyKeyPath, String, negated: Bool)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    // MARK: - Building conditions

    /// The property is `NULL` (`nil`), or — for an array — has no element.
    public static func isNull<Value>(_ property: KeyPath<Root, Value>) -> Self { Self(.null(property, negated: false)) }

    /// The property is not `NULL`, or — for an array — has an element.
    public static func isNotNull<Value>(_ property: KeyPath<Root, Value>) -> Self {
        Self(.null(property, negated: true))
    }

    /// The property's value is one of `values` (`IN`); none selects nothing.
    public static func `in`<Value: DBBColumnValue>(_ property: KeyPath<Root, Value>, _ values: [Value]) -> Self {
        Self(.within(property, values.map(\.columnValue), negated: false))
    }

    /// The optional property's value is one of `values` (`IN`).
    public static func `in`<Value: DBBColumnValue>(_ property: KeyPath<Root, Value?>, _ values: [Value]) -> Self {
        Self(.within(property, values.map(\.columnValue), negated: false))
    }

    /// The property's value is none of `values` (`NOT IN`).
    public static func notIn<Value: DBBColumnValue>(_ property: KeyPath<Root, Value>, _ values: [Value]) -> Self {
        Self(.within(property, values.map(\.columnValue), negated: true))
    }

    /// The text property matches the `LIKE` pattern (`%` any text, `_` one character).
    public static func like(_ property: KeyPath<Root, String>, _ pattern: String) -> Self {
        Self(.like(property, pattern, negated: false))
    }

    /// The optional text property matches the `LIKE` pattern.
    public static func like(_ property: KeyPath<Root, String?>, _ pattern: String) -> Self {
        Self(.like(property, pattern, negated: false))
    }

    /// The array property has an element equal to `element`.
    public static func contains<Element: DBBArrayElement & DBBColumnValue>(
        _ property: KeyPath<Root, [Element]>, _ element: Element
    ) -> Self {
        Self(.compare(property, "=", element.columnValue))
    }

    /// The optional array property has an element equal to `element`.
    public static func contains<Element: DBBArrayElement & DBBColumnValue>(
        _ property: KeyPath<Root, [Element]?>, _ element: Element
    ) -> Self {
        Self(.compare(property, "=", element.columnValue))
    }

    /// The property refers to `object` among the objects of its array.
    public static func contains<Object: DBBTableObject>(_ property: KeyPath<Root, [Object]>, _ object: Object) -> Self {
        Self(.compare(property, "=", .integer(object.id)))
    }

    /// The optional array property refers to `object`.
    public static func contains<Object: DBBTableObject>(_ property: KeyPath<Root, [Object]?>, _ object: Object)
        -> Self
    {
        Self(.compare(property, "=", .integer(object.id)))
    }

    /// Both conditions.
    public static func && (lhs: Self, rhs: Self) -> Self { Self(.and(lhs.node, rhs.node)) }

    /// Either condition.
    public static func || (lhs: Self, rhs: Self) -> Self { Self(.or(lhs.node, rhs.node)) }

    /// The opposite condition (`NOT (…)`).
    public static prefix func ! (condition: Self) -> Self { Self(.not(condition.node)) }
}

// MARK: - Comparisons

/// `property = value`.
public func == <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(rhs.columnValue == .null ? .null(lhs, negated: false) : .compare(lhs, "=", rhs.columnValue))
}

/// `property != value` (in SQL: a `NULL` property is neither equal nor unequal).
public func != <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(rhs.columnValue == .null ? .null(lhs, negated: true) : .compare(lhs, "!=", rhs.columnValue))
}

/// `property = value` for an optional property.
public func == <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, "=", rhs.columnValue))
}

/// `property != value` for an optional property.
public func != <Root: DBBTableObject, Value: DBBColumnValue>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, "!=", rhs.columnValue))
}

/// `property IS NULL`: `\.nickname == nil`.
public func == <Root: DBBTableObject, Value>(lhs: KeyPath<Root, Value?>, rhs: _OptionalNilComparisonType)
    -> DBBCondition<Root>
{
    DBBCondition(.null(lhs, negated: false))
}

/// `property IS NOT NULL`: `\.nickname != nil`.
public func != <Root: DBBTableObject, Value>(lhs: KeyPath<Root, Value?>, rhs: _OptionalNilComparisonType)
    -> DBBCondition<Root>
{
    DBBCondition(.null(lhs, negated: true))
}

/// The reference is `object`: `\.project == apollo`.
public func == <Root: DBBTableObject, Object: DBBTableObject>(lhs: KeyPath<Root, Object?>, rhs: Object)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, "=", .integer(rhs.id)))
}

/// `property < value`.
public func < <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, "<", rhs.columnValue))
}

/// `property <= value`.
public func <= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, "<=", rhs.columnValue))
}

/// `property > value`.
public func > <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, ">", rhs.columnValue))
}

/// `property >= value`.
public func >= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, ">=", rhs.columnValue))
}

/// `property < value` for an optional property (a `NULL` property is not less than anything).
public func < <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, "<", rhs.columnValue))
}

/// `property <= value` for an optional property.
public func <= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, "<=", rhs.columnValue))
}

/// `property > value` for an optional property.
public func > <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, ">", rhs.columnValue))
}

/// `property >= value` for an optional property.
public func >= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    DBBCondition(.compare(lhs, ">=", rhs.columnValue))
}

/// One sort key of a typed fetch: a mapped property and a direction.
public struct DBBSort<Root: DBBTableObject>: @unchecked Sendable {
    let property: AnyKeyPath
    let descending: Bool

    /// Smallest first (`NULL` first).
    public static func ascending<Value>(_ property: KeyPath<Root, Value>) -> Self {
        Self(property: property, descending: false)
    }

    /// Largest first (`NULL` last).
    public static func descending<Value>(_ property: KeyPath<Root, Value>) -> Self {
        Self(property: property, descending: true)
    }
}
