import DBBSQLite
import Foundation

/// One node of a typed query's expression tree: what ``DBBExpression``, ``DBBCondition``,
/// ``DBBSort`` and ``DBBSelect`` hold, untyped. ``SQLRenderer`` writes a tree as the SQL of a
/// dialect, binding each value in order; nothing on the way is SQL text.
indirect enum SQLNode: @unchecked Sendable {
    // @unchecked Sendable: key paths of stored properties are immutable values (Swift does not
    // mark key path classes Sendable); everything else is a value.

    /// A mapped property of the query's class, by key path: a column, a reference (the id it
    /// holds) or an array (only inside ``elements(_:_:negated:)``).
    case property(AnyKeyPath)
    /// `id`, `createdTime` or `modifiedTime`, which every table has.
    case keyColumn(String)
    /// The element of the array whose join rows ``elements(_:_:negated:)`` reads.
    case element
    /// A bound value.
    case value(DBBValue)
    /// A locale identifier, checked before the query runs and bound.
    case locale(String)
    /// SQL the library writes itself (a function's fixed argument: `'quarter'`, `'start'`).
    case keyword(String)
    /// `NOT x`, `-x`.
    case prefix(String, SQLNode)
    /// `x <op> y`: comparisons, arithmetic, `AND`, `OR`, `||`.
    case binary(SQLNode, SQLOperator, SQLNode)
    /// `x IS NULL`, or `IS NOT NULL`.
    case isNull(SQLNode, negated: Bool)
    /// `x IN (v, …)`, or `NOT IN`; no value selects no row (or every row, negated).
    case inList(SQLNode, [DBBValue], negated: Bool)
    /// `x IN (SELECT …)`, or `NOT IN`.
    case inQuery(SQLNode, SelectNode, negated: Bool)
    /// `EXISTS (SELECT …)`, or `NOT EXISTS`.
    case exists(SelectNode, negated: Bool)
    /// Whether some element of the array property satisfies the condition on ``element``
    /// (any element when `nil`), or, negated, none does.
    case elements(AnyKeyPath, SQLNode?, negated: Bool)
    /// `x LIKE pattern`: case-sensitive, or folding only `A`–`Z`; `\` escapes.
    case like(SQLNode, pattern: String, ignoringCase: Bool, negated: Bool)
    /// `name(arguments…)`.
    case function(String, [SQLNode])
    /// `CASE WHEN x IS NULL THEN NULL ELSE y END`: a function that refuses `NULL`, given `NULL`.
    case nullIfNull(SQLNode, SQLNode)
    /// An aggregate over the rows of a group, its result read as `result` (see
    /// ``DBBDialect/result(_:as:)``).
    case aggregate(SQLAggregate, SQLNode?, distinct: Bool, result: DBBStorageType?)
    /// An expression of the class a join reaches (its key paths are the joined class's),
    /// read through that join; the path is relative to the class of the enclosing part of the
    /// tree (see SQLRenderer+Joins.swift).
    case joined(SQLJoinPath, SQLNode)
}

/// The binary operators of ``SQLNode/binary(_:_:_:)``.
enum SQLOperator: String, Sendable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case and = "AND"
    case or = "OR"
    case plus = "+"
    case minus = "-"
    case times = "*"
    case divided = "/"
    case remainder = "%"
    case concatenated = "||"

    /// Whether the operator compares its operands (so that a value beside a column takes the
    /// column's placeholder, and the column is compared as the dialect compares its type).
    var compares: Bool {
        switch self {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: true
        default: false
        }
    }
}

/// The aggregates of ``SQLNode/aggregate(_:_:distinct:result:)``.
enum SQLAggregate: String, Sendable {
    case count = "COUNT"
    case sum = "SUM"
    case average = "AVG"
    case minimum = "MIN"
    case maximum = "MAX"
}

/// A SELECT statement of the tree: over one class's table (its mapping is found when it is
/// rendered), what it selects, filters, groups and orders.
struct SelectNode: @unchecked Sendable {
    // @unchecked Sendable: a class's metatype and nodes (see SQLNode).

    /// The class whose table the statement reads.
    let source: DBBTableObject.Type
    var columns: [SQLNode]
    var distinct = false
    var filter: SQLNode?
    var grouping: [SQLNode] = []
    var groupFilter: SQLNode?
    var order: [SQLOrder] = []
    var limit: Int?
    var offset: Int?
    /// Joins the statement makes whether or not an expression reads through them
    /// (``DBBSelect/join(_:)``); the others follow from the ``SQLNode/joined(_:_:)`` nodes.
    var joins: [SQLJoinPath] = []

    init(source: DBBTableObject.Type, columns: [SQLNode]) {
        self.source = source
        self.columns = columns
    }
}

/// One term of an `ORDER BY`.
struct SQLOrder: Sendable {
    let node: SQLNode
    let descending: Bool
}

extension SQLNode {
    /// The node of a property `keyPath` reaches: ``keyColumn(_:)`` for `id`, `createdTime` and
    /// `modifiedTime` (which the mapping does not list among its properties).
    static func keyPath<Root: DBBTableObject, Value>(_ keyPath: KeyPath<Root, Value>) -> SQLNode {
        if Value.self == Int64.self || Value.self == Date?.self,
            let name = KeyColumnPaths.column(of: keyPath, in: Root.self)
        {
            return .keyColumn(name)
        }
        return .property(keyPath)
    }

    /// `lhs AND rhs`.
    static func && (lhs: SQLNode, rhs: SQLNode) -> SQLNode { .binary(lhs, .and, rhs) }
}

/// The key paths of `id`, `createdTime` and `modifiedTime` of each class a query named, made
/// once: a key path formed in generic code is instantiated at each use, which a query built in
/// a loop would pay for every time.
enum KeyColumnPaths {
    private static let known = Locked<[ObjectIdentifier: [AnyKeyPath: String]]>([:])

    /// The key column `keyPath` reaches in `Root`, or `nil` for any other property.
    static func column<Root: DBBTableObject>(of keyPath: AnyKeyPath, in root: Root.Type) -> String? {
        let key = ObjectIdentifier(root)
        if let paths = known.withLock({ $0[key] }) { return paths[keyPath] }
        let paths: [AnyKeyPath: String] = [
            \Root.id: SchemaSQL.idColumn, \Root.createdTime: SchemaSQL.createdTimeColumn,
            \Root.modifiedTime: SchemaSQL.modifiedTimeColumn,
        ]
        known.withLock { $0[key] = paths }
        return paths[keyPath]
    }
}
