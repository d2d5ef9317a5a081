import DBBSQLite

/// An inner join from `Root`'s table to `Target`'s, through a reference (`Novel.author`) or
/// an array of objects (`Crew.members`): it makes expressions of `Target` usable in a query
/// on `Root` — selected, grouped, ordered, counted, in conditions.
///
/// ```swift
/// let author = Novel.join(\.author)
/// let perAuthor = try Novel.select(author.column(\.name), .count())
///     .group(by: author.column(\.name))
///     .rows(manager)                                  // [(String, Int)]
/// ```
///
/// The query joins the property's join table and the target's table for you (no table name
/// is written); a row whose reference is `nil`, or refers to a deleted object, has no joined
/// row and is left out, and a row of an array is repeated per element (count with
/// `.count(distinct:)`). A ``DBBLeftJoin`` keeps those rows, with `nil` for the joined columns.
/// A key path the target class does not map itself throws ``DBBError/Kind/unknownProperty``
/// naming the class and the key path when the query runs. See <doc:Reports#Joins>.
public struct DBBJoin<Root: DBBTableObject, Target: DBBTableObject>: @unchecked Sendable {
    // @unchecked Sendable: see DBBExpression.
    let path: SQLJoinPath

    /// The target's mapped property `keyPath` reaches (`\.id` included).
    public func column<Value>(_ keyPath: KeyPath<Target, Value>) -> DBBExpression<Root, Value> {
        DBBExpression(.joined(path, .keyPath(keyPath)))
    }

    /// The target's mapped property of a `@DBBTable` column key.
    public func column<Value>(_ key: DBBColumnKey<Target, Value>) -> DBBExpression<Root, Value> {
        column(key.keyPath)
    }

    /// An expression of the target class (an aggregate, the calendar, arithmetic…), computed
    /// from the joined row: `author.expression(.week(of: \.born, in: "de_DE"))`.
    public func expression<Value>(_ expression: DBBExpression<Target, Value>) -> DBBExpression<Root, Value> {
        DBBExpression(.joined(path, expression.node))
    }

    /// A condition on the joined row: `author.satisfies(\.name == "Knuth" && \.born < 1950)`.
    public func satisfies(_ condition: DBBCondition<Target>) -> DBBCondition<Root> {
        DBBCondition(.joined(path, condition.node))
    }

    /// The inner join onward from the target, through its reference `property`.
    public func join<Next>(_ property: KeyPath<Target, Next?>) -> DBBJoin<Root, Next> {
        DBBJoin<Root, Next>(path: path + .step(property, left: false))
    }

    /// The inner join onward from the target, through its array `property`.
    public func join<Next>(_ property: KeyPath<Target, [Next]>) -> DBBJoin<Root, Next> {
        DBBJoin<Root, Next>(path: path + .step(property, left: false))
    }

    /// The left join onward from the target, through its reference `property`.
    public func leftJoin<Next>(_ property: KeyPath<Target, Next?>) -> DBBLeftJoin<Root, Next> {
        DBBLeftJoin<Root, Next>(path: path + .step(property, left: true))
    }

    /// The left join onward from the target, through its array `property`.
    public func leftJoin<Next>(_ property: KeyPath<Target, [Next]>) -> DBBLeftJoin<Root, Next> {
        DBBLeftJoin<Root, Next>(path: path + .step(property, left: true))
    }
}

/// A left join from `Root`'s table to `Target`'s: a ``DBBJoin`` that keeps the rows with no
/// joined row (a `nil` reference, one to a deleted object, an empty array), so its columns are
/// read as optionals: `author.column(\.name)` is a `DBBExpression<Root, String?>`.
///
/// ```swift
/// let author = Novel.leftJoin(\.author)
/// let titles = try Novel.select(.column(\.title), author.column(\.name)).rows(manager)  // [(String, String?)]
/// ```
public struct DBBLeftJoin<Root: DBBTableObject, Target: DBBTableObject>: @unchecked Sendable {
    // @unchecked Sendable: see DBBExpression.
    let path: SQLJoinPath

    /// The target's mapped property `keyPath` reaches, `nil` where there is no joined row.
    public func column<Value>(_ keyPath: KeyPath<Target, Value>) -> DBBExpression<Root, Value?> {
        DBBExpression(.joined(path, .keyPath(keyPath)))
    }

    /// The target's optional property `keyPath` reaches, `nil` where it is or there is no joined row.
    public func column<Value>(_ keyPath: KeyPath<Target, Value?>) -> DBBExpression<Root, Value?> {
        DBBExpression(.joined(path, .keyPath(keyPath)))
    }

    /// The target's mapped property of a `@DBBTable` column key.
    public func column<Value>(_ key: DBBColumnKey<Target, Value>) -> DBBExpression<Root, Value?> {
        column(key.keyPath)
    }

    /// The target's optional property of a `@DBBTable` column key.
    public func column<Value>(_ key: DBBColumnKey<Target, Value?>) -> DBBExpression<Root, Value?> {
        column(key.keyPath)
    }

    /// An expression of the target class, `nil` where there is no joined row.
    public func expression<Value>(_ expression: DBBExpression<Target, Value>) -> DBBExpression<Root, Value?> {
        DBBExpression(.joined(path, expression.node))
    }

    /// An optional expression of the target class, `nil` where it is or there is no joined row.
    public func expression<Value>(_ expression: DBBExpression<Target, Value?>) -> DBBExpression<Root, Value?> {
        DBBExpression(.joined(path, expression.node))
    }

    /// A condition on the joined row; where there is none it is `NULL`, which neither it nor
    /// its negation (`!`) selects: test for the row with `.isNull(join.column(\.id))`.
    public func satisfies(_ condition: DBBCondition<Target>) -> DBBCondition<Root> {
        DBBCondition(.joined(path, condition.node))
    }

    /// The left join onward from the target, through its reference `property`.
    public func leftJoin<Next>(_ property: KeyPath<Target, Next?>) -> DBBLeftJoin<Root, Next> {
        DBBLeftJoin<Root, Next>(path: path + .step(property, left: true))
    }

    /// The left join onward from the target, through its array `property`.
    public func leftJoin<Next>(_ property: KeyPath<Target, [Next]>) -> DBBLeftJoin<Root, Next> {
        DBBLeftJoin<Root, Next>(path: path + .step(property, left: true))
    }
}

extension SQLJoinPath {
    /// The path of one step.
    static func step(_ property: AnyKeyPath, left: Bool) -> SQLJoinPath {
        SQLJoinPath(steps: [Step(keyPath: property, left: left)])
    }
}

extension DBBTableObjectFetching {
    /// The inner join through the reference `property`: `Novel.join(\.author)`.
    public static func join<Target>(_ property: KeyPath<Self, Target?>) -> DBBJoin<Self, Target> {
        DBBJoin(path: .step(property, left: false))
    }

    /// The inner join through the array of objects `property`: `Crew.join(\.members)`, one row
    /// per element.
    public static func join<Target>(_ property: KeyPath<Self, [Target]>) -> DBBJoin<Self, Target> {
        DBBJoin(path: .step(property, left: false))
    }

    /// The left join through the reference `property`: rows with no target kept.
    public static func leftJoin<Target>(_ property: KeyPath<Self, Target?>) -> DBBLeftJoin<Self, Target> {
        DBBLeftJoin(path: .step(property, left: true))
    }

    /// The left join through the array of objects `property`: rows with no element kept.
    public static func leftJoin<Target>(_ property: KeyPath<Self, [Target]>) -> DBBLeftJoin<Self, Target> {
        DBBLeftJoin(path: .step(property, left: true))
    }
}

extension DBBSelect {
    /// Makes the inner join whether or not an expression reads through it: only the rows that
    /// have a joined row, one per joined row.
    public func join<Target>(_ join: DBBJoin<Root, Target>) -> Self {
        var node = select
        node.joins.append(join.path)
        return Self(node)
    }

    /// Makes the left join whether or not an expression reads through it: every row, one per
    /// joined row (an array's element) and one for none.
    public func join<Target>(_ join: DBBLeftJoin<Root, Target>) -> Self {
        var node = select
        node.joins.append(join.path)
        return Self(node)
    }
}
