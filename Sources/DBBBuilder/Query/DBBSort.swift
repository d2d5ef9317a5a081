import DBBSQLite

/// One sort key of a typed query: an expression (a mapped property, `\.id`, an aggregate…) and
/// a direction. `NULL` sorts first ascending and last descending on every backend.
public struct DBBSort<Root: DBBTableObject>: @unchecked Sendable {
    // @unchecked Sendable: see DBBExpression.
    let order: SQLOrder

    /// Smallest first (`NULL` first).
    public static func ascending<Value>(_ property: KeyPath<Root, Value>) -> Self {
        Self(order: SQLOrder(node: .keyPath(property), descending: false))
    }

    /// Largest first (`NULL` last).
    public static func descending<Value>(_ property: KeyPath<Root, Value>) -> Self {
        Self(order: SQLOrder(node: .keyPath(property), descending: true))
    }

    /// Smallest first, by column key.
    public static func ascending<Value>(_ key: DBBColumnKey<Root, Value>) -> Self { .ascending(key.keyPath) }

    /// Largest first, by column key.
    public static func descending<Value>(_ key: DBBColumnKey<Root, Value>) -> Self { .descending(key.keyPath) }

    /// Smallest value of the expression first: `.ascending(.week(of: \.day, in: "de_DE"))`.
    public static func ascending<Value>(_ expression: DBBExpression<Root, Value>) -> Self {
        Self(order: SQLOrder(node: expression.node, descending: false))
    }

    /// Largest value of the expression first: `.descending(.sum(\.seconds))`.
    public static func descending<Value>(_ expression: DBBExpression<Root, Value>) -> Self {
        Self(order: SQLOrder(node: expression.node, descending: true))
    }
}
