import DBBSQLite

// The typed fetch of objects: its condition and sorting are rendered from the expression tree
// (SQLRenderer) straight into the fetch's SELECT, which then loads objects as any fetch does.

extension DBBTableObjectFetching {
    /// The objects that `condition` selects (all when `nil`), in the order of `sortedBy`
    /// (id order when empty), a page of them with `limit` and `offset` (ties in the order
    /// broken by id, so that pages neither overlap nor skip objects).
    ///
    /// ```swift
    /// let people = try Person.instances(
    ///     where: \.age > 30 && \.lastName == "Doe", sortedBy: [.descending(\.age)], limit: 20, offset: 40,
    ///     manager: manager)
    /// ```
    ///
    /// The condition and the sort keys may read through joins (``DBBJoin``): the objects whose
    /// joined rows satisfy the condition are selected, each once; a sort key read through an
    /// inner join leaves out the objects without a joined row, one read through a left join
    /// sorts them as `nil`.
    ///
    /// - Throws: ``DBBError/Kind/unknownProperty`` for a key path to a property the class does
    ///   not map; ``DBBError/Kind/invalidOption`` for a negative limit or offset, a sort by a
    ///   JSON property or through an array's join; ``DBBError/Kind/invalidValue`` for a NaN
    ///   value or an unknown locale.
    public static func instances(
        where condition: DBBCondition<Self>? = nil, sortedBy sorting: [DBBSort<Self>] = [], limit: Int? = nil,
        offset: Int? = nil, manager: DBBManager
    ) throws -> [Self] {
        let mapping = try manager.mapping(for: self)
        return try fetch(
            try typedQuery(where: condition, sortedBy: sorting, limit: limit, offset: offset, mapping, manager),
            mapping, manager: manager)
    }

    /// The SELECT of a typed fetch.
    static func typedQuery(
        where condition: DBBCondition<Self>?, sortedBy sorting: [DBBSort<Self>], limit: Int?, offset: Int?,
        _ mapping: TableMapping, _ manager: DBBManager
    ) throws -> SelectQuery {
        let order = sorting.map(\.order)
        let shape = QueryShape(
            objectsOf: self, filter: condition?.node, order: order, limit: limit, offset: offset,
            dialect: mapping.dialect)
        return try manager.renderedQueries.objects(shape) {
            if let node = condition?.node, node.aggregates { throw Self.aggregateRefused("condition", mapping) }
            if order.contains(where: \.node.aggregates) { throw Self.aggregateRefused("sorting", mapping) }
            var renderer = SQLRenderer(dialect: mapping.dialect) { try manager.mapping(for: $0) }
            let scope = SQLRenderer.Scope(mapping: mapping)
            let filter = try filterNode(condition?.node, sorting).map { node throws in
                try renderer.condition(node, scope)
            }
            let order = try renderer.order(order, scope)
            try renderer.checkBoundCount(scope)
            let query = try SelectQuery(
                mapping, filter: filter ?? "", order: order, arguments: renderer.arguments, limit: limit,
                offset: offset)
            manager.access.knowRendered(query.sql, parameterCount: renderer.arguments.count, isQuery: true)
            return (renderer, query)
        }
    }

    /// The error of an aggregate (COUNT, SUM…) in a fetch's condition or sorting: an object is
    /// one row, which has no value of it (the engines fail unlike each other).
    private static func aggregateRefused(_ part: String, _ mapping: TableMapping) -> DBBError {
        DBBError(
            .invalidOption, table: mapping.tableName,
            "the fetch's \(part) uses an aggregate (COUNT, SUM…), which one object's row has no value of: group "
                + "and aggregate in a report (\(mapping.objectType).select(…).group(by:)), or compare with a subquery")
    }

    /// The node of a fetch's condition: one that reads through joins, or a sort that reads
    /// through an inner join (which leaves out the objects without a joined row, as in a
    /// report), selects the objects whose ids the join query selects
    /// (`id IN (SELECT <table>.id FROM <table> JOIN … WHERE …)`). It binds the condition's
    /// values as the condition itself would (``QueryShape`` walks the condition).
    private static func filterNode(_ condition: SQLNode?, _ sorting: [DBBSort<Self>]) -> SQLNode? {
        let inner = sorting.flatMap { SQLRenderer.joinPaths(of: $0.order.node) }.filter {
            $0.steps.contains { !$0.left }
        }
        guard inner.count > 0 || condition.map(SQLRenderer.readsJoins) == true else { return condition }
        var joined = SelectNode(source: self, columns: [.keyColumn(SchemaSQL.idColumn)])
        joined.filter = condition
        joined.joins = inner
        return .inQuery(.keyColumn(SchemaSQL.idColumn), joined, negated: false)
    }
}
