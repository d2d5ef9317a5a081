import DBBSQLite

// Operators on expressions, whose result types the compiler checks: a comparison is a
// condition, arithmetic keeps its operands' type (`Int` / `Int` is integer division, truncated
// toward zero, on every backend), `+` of text is concatenation (`||`). The operators on key
// paths (`\.age > 30`) are in DBBCondition.swift.

// MARK: - Comparisons

/// `lhs = rhs`.
public func == <Root, Value: DBBColumnValue>(lhs: DBBExpression<Root, Value>, rhs: DBBExpression<Root, Value>)
    -> DBBCondition<Root>
{
    DBBCondition(.binary(lhs.node, .equal, rhs.node))
}

/// `lhs = value`; `IS NULL` for `nil`.
public func == <Root, Value: DBBColumnValue>(lhs: DBBExpression<Root, Value>, rhs: Value) -> DBBCondition<Root> {
    let value = rhs.columnValue
    return DBBCondition(value == .null ? .isNull(lhs.node, negated: false) : .binary(lhs.node, .equal, .value(value)))
}

/// `lhs <> rhs`.
public func != <Root, Value: DBBColumnValue>(lhs: DBBExpression<Root, Value>, rhs: DBBExpression<Root, Value>)
    -> DBBCondition<Root>
{
    DBBCondition(.binary(lhs.node, .notEqual, rhs.node))
}

/// `lhs <> value`; `IS NOT NULL` for `nil`.
public func != <Root, Value: DBBColumnValue>(lhs: DBBExpression<Root, Value>, rhs: Value) -> DBBCondition<Root> {
    let value = rhs.columnValue
    return DBBCondition(
        value == .null ? .isNull(lhs.node, negated: true) : .binary(lhs.node, .notEqual, .value(value)))
}

/// `lhs < rhs`.
public func < <Root, Value: DBBColumnValue & Comparable>(
    lhs: DBBExpression<Root, Value>, rhs: DBBExpression<Root, Value>
) -> DBBCondition<Root> { DBBCondition(.binary(lhs.node, .less, rhs.node)) }

/// `lhs <= rhs`.
public func <= <Root, Value: DBBColumnValue & Comparable>(
    lhs: DBBExpression<Root, Value>, rhs: DBBExpression<Root, Value>
) -> DBBCondition<Root> { DBBCondition(.binary(lhs.node, .lessOrEqual, rhs.node)) }

/// `lhs > rhs`.
public func > <Root, Value: DBBColumnValue & Comparable>(
    lhs: DBBExpression<Root, Value>, rhs: DBBExpression<Root, Value>
) -> DBBCondition<Root> { DBBCondition(.binary(lhs.node, .greater, rhs.node)) }

/// `lhs >= rhs`.
public func >= <Root, Value: DBBColumnValue & Comparable>(
    lhs: DBBExpression<Root, Value>, rhs: DBBExpression<Root, Value>
) -> DBBCondition<Root> { DBBCondition(.binary(lhs.node, .greaterOrEqual, rhs.node)) }

/// `lhs < value`.
public func < <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .less, .value(rhs.columnValue))) }

/// `lhs <= value`.
public func <= <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .lessOrEqual, .value(rhs.columnValue))) }

/// `lhs > value`.
public func > <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .greater, .value(rhs.columnValue))) }

/// `lhs >= value`.
public func >= <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .greaterOrEqual, .value(rhs.columnValue))) }

/// `lhs < value` for an optional expression (an aggregate of no rows): `NULL` is not less.
public func < <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .less, .value(rhs.columnValue))) }

/// `lhs <= value` for an optional expression.
public func <= <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .lessOrEqual, .value(rhs.columnValue))) }

/// `lhs > value` for an optional expression.
public func > <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .greater, .value(rhs.columnValue))) }

/// `lhs >= value` for an optional expression.
public func >= <Root, Value: DBBColumnValue & Comparable>(lhs: DBBExpression<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{ DBBCondition(.binary(lhs.node, .greaterOrEqual, .value(rhs.columnValue))) }

// MARK: - Arithmetic and text

extension DBBExpression where Value: DBBArithmeticValue {
    /// `lhs + rhs`.
    public static func + (lhs: Self, rhs: Self) -> Self { Self(.binary(lhs.node, .plus, rhs.node)) }
    /// `lhs + value`.
    public static func + (lhs: Self, rhs: Value) -> Self { Self(.binary(lhs.node, .plus, .value(rhs.columnValue))) }
    /// `lhs - rhs`.
    public static func - (lhs: Self, rhs: Self) -> Self { Self(.binary(lhs.node, .minus, rhs.node)) }
    /// `lhs - value`.
    public static func - (lhs: Self, rhs: Value) -> Self { Self(.binary(lhs.node, .minus, .value(rhs.columnValue))) }
    /// `lhs * rhs`.
    public static func * (lhs: Self, rhs: Self) -> Self { Self(.binary(lhs.node, .times, rhs.node)) }
    /// `lhs * value`.
    public static func * (lhs: Self, rhs: Value) -> Self { Self(.binary(lhs.node, .times, .value(rhs.columnValue))) }
    /// `lhs / rhs`: for integers, truncated toward zero. A division by zero is `NULL` on
    /// SQLite and an error on PostgreSQL: keep zero out of the divisor.
    public static func / (lhs: Self, rhs: Self) -> Self { Self(.binary(lhs.node, .divided, rhs.node)) }
    /// `lhs / value`.
    public static func / (lhs: Self, rhs: Value) -> Self {
        Self(.binary(lhs.node, .divided, .value(rhs.columnValue)))
    }
    /// `-operand`.
    public static prefix func - (operand: Self) -> Self { Self(.prefix("-", operand.node)) }
}

extension DBBExpression where Value == String {
    /// `lhs || rhs`: the texts one after the other.
    public static func + (lhs: Self, rhs: Self) -> Self { Self(.binary(lhs.node, .concatenated, rhs.node)) }
    /// `lhs || text`.
    public static func + (lhs: Self, rhs: String) -> Self {
        Self(.binary(lhs.node, .concatenated, .value(.text(rhs))))
    }
}

// MARK: - Logic

extension DBBExpression where Value == Bool {
    /// Both conditions.
    public static func && (lhs: Self, rhs: Self) -> Self { Self(.binary(lhs.node, .and, rhs.node)) }

    /// Either condition.
    public static func || (lhs: Self, rhs: Self) -> Self { Self(.binary(lhs.node, .or, rhs.node)) }

    /// The opposite condition (`NOT (…)`).
    public static prefix func ! (condition: Self) -> Self { Self(.prefix("NOT ", condition.node)) }
}

// MARK: - NULL

extension DBBExpression {
    /// `COALESCE(expression, fallback)`: the expression's value, or `fallback` where it is `NULL`.
    public static func coalesce<Wrapped: DBBColumnValue>(
        _ expression: DBBExpression<Root, Wrapped?>, _ fallback: Wrapped
    )
        -> DBBExpression<Root, Wrapped>
    {
        DBBExpression<Root, Wrapped>(.function("COALESCE", [expression.node, .value(fallback.columnValue)]))
    }

    /// `COALESCE(expression, fallback)` of two expressions.
    public static func coalesce<Wrapped>(
        _ expression: DBBExpression<Root, Wrapped?>, _ fallback: DBBExpression<Root, Wrapped>
    ) -> DBBExpression<Root, Wrapped> {
        DBBExpression<Root, Wrapped>(.function("COALESCE", [expression.node, fallback.node]))
    }

    /// The optional property's value, or `fallback` where it is `NULL`.
    public static func coalesce<Wrapped: DBBColumnValue>(_ property: KeyPath<Root, Wrapped?>, _ fallback: Wrapped)
        -> DBBExpression<Root, Wrapped>
    {
        coalesce(DBBExpression<Root, Wrapped?>.column(property), fallback)
    }
}
