import DBBSQLite

/// A typed report query over `Root`'s table: the expressions it selects (their Swift types are
/// `Value`, a tuple of them per row), its condition, grouping, group condition, order and page.
///
/// ```swift
/// let weeks = try Visit.select(.week(of: \.day, in: "ru_RU"), .count(), .sum(\.seconds))
///     .where(\.seconds > 10)
///     .group(by: .week(of: \.day, in: "ru_RU"))
///     .having(.count() >= 2)
///     .order(by: .ascending(.week(of: \.day, in: "ru_RU")))
///     .rows(manager)                                  // [(String?, Int, Double?)]
/// ```
///
/// Each backend's dialect writes the tree straight to SQL, binding its values in order;
/// ``sql(on:)`` shows that SQL. See <doc:Reports>.
public struct DBBSelect<Root: DBBTableObject, each Value>: @unchecked Sendable {
    // @unchecked Sendable: see DBBExpression.
    /// The query's tree. Each clause makes a new query (with its own ``rendering``).
    let select: SelectNode
    /// The SQL this query (this value and its copies) rendered on the last manager it ran on.
    private let rendering = RenderedSelect()

    init(_ select: SelectNode) { self.select = select }

    // MARK: - Clauses

    /// Only the rows that satisfy `condition` (`WHERE`); a second `where` adds its condition
    /// with `AND`.
    public func `where`(_ condition: DBBCondition<Root>) -> Self {
        var node = select
        node.filter = select.filter.map { $0 && condition.node } ?? condition.node
        return Self(node)
    }

    /// One row per distinct value of the expressions (`GROUP BY`): the selected expressions
    /// are then these and aggregates.
    public func group<each Grouped>(by expressions: repeat DBBExpression<Root, each Grouped>) -> Self {
        var node = select
        for expression in repeat each expressions { node.grouping.append(expression.node) }
        return Self(node)
    }

    /// Only the groups that satisfy `condition` (`HAVING`), usually on aggregates; a second
    /// `having` adds its condition with `AND`.
    public func having(_ condition: DBBCondition<Root>) -> Self {
        var node = select
        node.groupFilter = select.groupFilter.map { $0 && condition.node } ?? condition.node
        return Self(node)
    }

    /// The rows in this order (`ORDER BY`), after any order given before. `NULL` sorts first
    /// ascending and last descending on every backend.
    public func order(by sorting: DBBSort<Root>...) -> Self {
        var node = select
        // A closure, not `\.order`: the runtime cannot instantiate a key path formed in a
        // context generic over a parameter pack (Swift 6.3: "could not demangle keypath type").
        node.order += sorting.map { $0.order }
        return Self(node)
    }

    /// At most `count` rows (`LIMIT`).
    public func limit(_ count: Int) -> Self {
        var node = select
        node.limit = count
        return Self(node)
    }

    /// The rows after the first `count` (`OFFSET`): with ``order(by:)``, a page.
    public func offset(_ count: Int) -> Self {
        var node = select
        node.offset = count
        return Self(node)
    }

    /// One row per distinct combination of the selected values (`SELECT DISTINCT`).
    public func distinct() -> Self {
        var node = select
        node.distinct = true
        return Self(node)
    }

    // MARK: - Running

    /// The SQL the query runs on `manager`'s backend and the values it binds, in placeholder
    /// order: for debugging and tests. Its text depends only on the query's shape (and on which
    /// of its values are equal), never on the values.
    /// - Throws: what `rows(_:)` throws before it runs anything.
    public func sql(on manager: DBBManager) throws -> DBBQuerySQL { try rendered(manager).1 }

    /// Runs the query in one read transaction and returns its rows, each a tuple of the
    /// selected values read by position with their Swift types.
    /// - Throws: ``DBBError/Kind/unknownProperty`` for a key path to a property the class does
    ///   not map; ``DBBError/Kind/invalidValue`` for a NaN value, an unknown locale, or a `NULL`
    ///   selected into a non-optional type; ``DBBError/Kind/invalidOption`` for a negative
    ///   limit or offset; what the database reports.
    public func rows(_ manager: DBBManager) throws -> [(repeat each Value)]
    where repeat each Value: DBBColumnValue {
        let (mapping, statement) = try rendered(manager)
        return try manager.observing(.fetch, table: mapping.tableName, sql: statement.sql) {
            try manager.read(mapping) { connection in
                var rows: [(repeat each Value)] = []
                try connection.forEachRow(statement.sql, statement.arguments) { reader in
                    var index = 0
                    rows.append((repeat try Self.read((each Value).self, reader, &index, mapping)))
                }
                return rows
            }
        }
    }

    /// The query's mapping and SQL on `manager`'s backend: kept by the query for its next run on
    /// the same manager (a query built once and run in a loop walks its tree once), else looked
    /// up by shape in the manager's ``RenderedQueries``, else rendered.
    func rendered(_ manager: DBBManager) throws -> (TableMapping, DBBQuerySQL) {
        if let kept = rendering.kept(on: manager) { return kept }
        let rendered = try renderedByShape(manager)
        rendering.keep(rendered, on: manager)
        return rendered
    }

    private func renderedByShape(_ manager: DBBManager) throws -> (TableMapping, DBBQuerySQL) {
        let mapping = try manager.mapping(for: select.source)
        let sql = try manager.renderedQueries.sql(of: select, dialect: mapping.dialect) {
            var renderer = SQLRenderer(dialect: mapping.dialect) { try manager.mapping(for: $0) }
            let sql = try renderer.statement(select)
            manager.access.knowRendered(sql, parameterCount: renderer.arguments.count, isQuery: true)
            return (renderer, sql)
        }
        return (mapping, sql)
    }

    /// The value of column `index` as a `Selected`; moves `index` on.
    static func read<Selected: DBBColumnValue>(
        _ type: Selected.Type, _ reader: DBBColumnReader, _ index: inout Int, _ mapping: TableMapping
    ) throws -> Selected {
        defer { index += 1 }
        guard let value = try Selected.read(from: reader, at: index) else {
            throw DBBError(
                .invalidValue, table: mapping.tableName,
                "column \(index + 1) of the query is NULL, which a \(Selected.self) cannot hold: select it as an "
                    + "optional, or give a fallback with .coalesce")
        }
        return value
    }
}

/// The SQL a typed query runs and the values it binds, in placeholder order
/// (``DBBSelect/sql(on:)``).
public struct DBBQuerySQL: Sendable, Hashable, CustomStringConvertible {
    /// The statement, in the backend's spelling and placeholders (`?1` on SQLite, `$1` on PostgreSQL).
    public let sql: String
    /// The bound values; the value of placeholder *n* is `arguments[n - 1]`.
    public let arguments: [DBBValue]

    public var description: String { sql + (arguments.isEmpty ? "" : " -- \(arguments)") }
}

extension DBBTableObjectFetching {
    /// A typed report query selecting `columns` from this class's table, one tuple per row:
    /// `Visit.select(.column(\.page), .count())` reads `[(String, Int)]`.
    public static func select<each Value>(_ columns: repeat DBBExpression<Self, each Value>)
        -> DBBSelect<Self, repeat each Value>
    {
        var nodes: [SQLNode] = []
        for column in repeat each columns { nodes.append(column.node) }
        return DBBSelect(SelectNode(source: self, columns: nodes))
    }
}
