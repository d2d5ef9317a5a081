import DBBSQLite

// Aggregates over the rows of a group (or of the whole result without `group(by:)`). Their
// types say what SQL gives: `COUNT` is never NULL; `SUM`, `AVG`, `MIN` and `MAX` of no rows
// (or of only NULLs) are, so they are optional. Every backend gives the same type: a sum of
// integers is an integer, an average a `Double` (PostgreSQL's `numeric` is cast).

extension DBBExpression {
    /// `COUNT(*)`: the rows.
    public static func count() -> DBBExpression<Root, Int> {
        DBBExpression<Root, Int>(.aggregate(.count, nil, distinct: false, result: nil))
    }

    /// `COUNT(expression)`: the rows where it is not `NULL`.
    public static func count<Counted>(_ expression: DBBExpression<Root, Counted>) -> DBBExpression<Root, Int> {
        DBBExpression<Root, Int>(.aggregate(.count, expression.node, distinct: false, result: nil))
    }

    /// `COUNT(property)`: the rows where the property is not `NULL`.
    public static func count<Counted>(_ property: KeyPath<Root, Counted>) -> DBBExpression<Root, Int> {
        count(DBBExpression<Root, Counted>.column(property))
    }

    /// `COUNT(DISTINCT expression)`: the different values, `NULL` not counted.
    public static func count<Counted>(distinct expression: DBBExpression<Root, Counted>) -> DBBExpression<Root, Int> {
        DBBExpression<Root, Int>(.aggregate(.count, expression.node, distinct: true, result: nil))
    }

    /// `COUNT(DISTINCT property)`.
    public static func count<Counted>(distinct property: KeyPath<Root, Counted>) -> DBBExpression<Root, Int> {
        count(distinct: DBBExpression<Root, Counted>.column(property))
    }

    /// `SUM(expression)`: `nil` for no rows. A sum beyond `Int64` is an error on every backend.
    public static func sum<Number: DBBArithmeticValue>(_ expression: DBBExpression<Root, Number>)
        -> DBBExpression<Root, Number?>
    {
        DBBExpression<Root, Number?>(.aggregate(.sum, expression.node, distinct: false, result: Number.storageType))
    }

    /// `SUM(property)`.
    public static func sum<Number: DBBArithmeticValue>(_ property: KeyPath<Root, Number>) -> DBBExpression<
        Root, Number?
    > {
        sum(DBBExpression<Root, Number>.column(property))
    }

    /// `SUM(property)` of an optional property (its `NULL`s left out).
    public static func sum<Number: DBBArithmeticValue>(_ property: KeyPath<Root, Number?>)
        -> DBBExpression<Root, Number?>
    {
        DBBExpression<Root, Number?>(.aggregate(.sum, .keyPath(property), distinct: false, result: Number.storageType))
    }

    /// `SUM(expression)` of an optional expression (a left join's column), its `NULL`s left out.
    public static func sum<Number: DBBArithmeticValue>(_ expression: DBBExpression<Root, Number?>)
        -> DBBExpression<Root, Number?>
    {
        DBBExpression<Root, Number?>(.aggregate(.sum, expression.node, distinct: false, result: Number.storageType))
    }

    /// `AVG(expression)` of an optional expression, as a `Double`, its `NULL`s left out.
    public static func average<Number: DBBArithmeticValue>(_ expression: DBBExpression<Root, Number?>)
        -> DBBExpression<Root, Double?>
    {
        DBBExpression<Root, Double?>(.aggregate(.average, expression.node, distinct: false, result: .float))
    }

    /// `MIN(expression)` of an optional expression, its `NULL`s left out.
    public static func min<Compared: DBBColumnValue & Comparable>(_ expression: DBBExpression<Root, Compared?>)
        -> DBBExpression<Root, Compared?>
    {
        DBBExpression<Root, Compared?>(.aggregate(.minimum, expression.node, distinct: false, result: nil))
    }

    /// `MAX(expression)` of an optional expression, its `NULL`s left out.
    public static func max<Compared: DBBColumnValue & Comparable>(_ expression: DBBExpression<Root, Compared?>)
        -> DBBExpression<Root, Compared?>
    {
        DBBExpression<Root, Compared?>(.aggregate(.maximum, expression.node, distinct: false, result: nil))
    }

    /// `AVG(expression)`, as a `Double`: `nil` for no rows.
    public static func average<Number: DBBArithmeticValue>(_ expression: DBBExpression<Root, Number>)
        -> DBBExpression<Root, Double?>
    {
        DBBExpression<Root, Double?>(.aggregate(.average, expression.node, distinct: false, result: .float))
    }

    /// `AVG(property)`, as a `Double`.
    public static func average<Number: DBBArithmeticValue>(_ property: KeyPath<Root, Number>)
        -> DBBExpression<Root, Double?>
    {
        average(DBBExpression<Root, Number>.column(property))
    }

    /// `MIN(expression)`: `nil` for no rows.
    public static func min<Compared: DBBColumnValue & Comparable>(_ expression: DBBExpression<Root, Compared>)
        -> DBBExpression<Root, Compared?>
    {
        DBBExpression<Root, Compared?>(.aggregate(.minimum, expression.node, distinct: false, result: nil))
    }

    /// `MIN(property)`.
    public static func min<Compared: DBBColumnValue & Comparable>(_ property: KeyPath<Root, Compared>)
        -> DBBExpression<Root, Compared?>
    {
        min(DBBExpression<Root, Compared>.column(property))
    }

    /// `MIN(property)` of an optional property.
    public static func min<Compared: DBBColumnValue & Comparable>(_ property: KeyPath<Root, Compared?>)
        -> DBBExpression<Root, Compared?>
    {
        DBBExpression<Root, Compared?>(.aggregate(.minimum, .keyPath(property), distinct: false, result: nil))
    }

    /// `MAX(expression)`: `nil` for no rows.
    public static func max<Compared: DBBColumnValue & Comparable>(_ expression: DBBExpression<Root, Compared>)
        -> DBBExpression<Root, Compared?>
    {
        DBBExpression<Root, Compared?>(.aggregate(.maximum, expression.node, distinct: false, result: nil))
    }

    /// `MAX(property)`.
    public static func max<Compared: DBBColumnValue & Comparable>(_ property: KeyPath<Root, Compared>)
        -> DBBExpression<Root, Compared?>
    {
        max(DBBExpression<Root, Compared>.column(property))
    }

    /// `MAX(property)` of an optional property.
    public static func max<Compared: DBBColumnValue & Comparable>(_ property: KeyPath<Root, Compared?>)
        -> DBBExpression<Root, Compared?>
    {
        DBBExpression<Root, Compared?>(.aggregate(.maximum, .keyPath(property), distinct: false, result: nil))
    }
}
