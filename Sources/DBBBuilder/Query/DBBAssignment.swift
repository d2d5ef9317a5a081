import DBBSQLite

/// One `property = value` of a set-based update
/// (`update(_:where:manager:)`): a Swift value of the property's
/// type, `nil` for an optional, or an expression of the property's type over the row.
///
/// ```swift
/// try Visit.update(.set(\.seconds, to: 0), .set(\.clicks, to: .column(\.clicks) + 1),
///                  .set(\.referrer, to: nil), where: \.page == "/", manager: manager)
/// ```
///
/// The compiler checks the value's type against the property's. A property stored in join
/// rows (an array, a reference) and `id`, `createdTime` and `modifiedTime` are refused when the
/// update runs (``DBBError/Kind/invalidOption``).
public struct DBBAssignment<Root: DBBTableObject>: @unchecked Sendable {
    // @unchecked Sendable: see DBBExpression.
    let assignment: WriteNode.Assignment

    init(_ target: SQLNode, _ value: SQLNode) { assignment = WriteNode.Assignment(target: target, value: value) }

    /// The property set to `value`, bound (`nil`: `NULL`).
    public static func set<Value: DBBColumnValue>(_ property: KeyPath<Root, Value>, to value: Value) -> Self {
        Self(.keyPath(property), .value(value.columnValue))
    }

    /// The property set to the value of `expression` in the row it writes:
    /// `.set(\.clicks, to: .column(\.clicks) + 1)`.
    public static func set<Value>(_ property: KeyPath<Root, Value>, to expression: DBBExpression<Root, Value>) -> Self {
        Self(.keyPath(property), expression.node)
    }

    /// The optional property set to the value of a non-optional `expression`.
    public static func set<Value>(_ property: KeyPath<Root, Value?>, to expression: DBBExpression<Root, Value>)
        -> Self
    {
        Self(.keyPath(property), expression.node)
    }

    /// The enum property set to `value`, stored as its raw value.
    @_disfavoredOverload
    public static func set<Value: RawRepresentable>(_ property: KeyPath<Root, Value>, to value: Value) -> Self
    where Value.RawValue: DBBColumnValue {
        Self(.keyPath(property), .value(value.rawValue.columnValue))
    }

    /// The optional enum property set to `value`, stored as its raw value (`nil`: `NULL`).
    @_disfavoredOverload
    public static func set<Value: RawRepresentable>(_ property: KeyPath<Root, Value?>, to value: Value?) -> Self
    where Value.RawValue: DBBColumnValue {
        Self(.keyPath(property), .value(value.map { $0.rawValue.columnValue } ?? .null))
    }

    /// The property of a `@DBBTable` class's column key set to `value`.
    public static func set<Value: DBBColumnValue>(_ key: DBBColumnKey<Root, Value>, to value: Value) -> Self {
        .set(key.keyPath, to: value)
    }

    /// The property of a column key set to the value of `expression`.
    public static func set<Value>(_ key: DBBColumnKey<Root, Value>, to expression: DBBExpression<Root, Value>)
        -> Self
    {
        .set(key.keyPath, to: expression)
    }
}

extension DBBExpression where Value == Bool {
    /// The condition every row satisfies: what a set-based write of every row says
    /// explicitly (`Visit.delete(where: .all, manager: manager)`), since those writes take no
    /// default condition.
    public static var all: Self { Self(.keyword("(1 = 1)")) }
}
