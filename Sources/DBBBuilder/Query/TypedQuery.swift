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
    /// - Throws: ``DBBError/Kind/unknownProperty`` for a key path to a property the class does
    ///   not map; ``DBBError/Kind/invalidOption`` for a negative limit or offset, or a sort by a
    ///   JSON property; ``DBBError/Kind/invalidValue`` for a NaN value or an unknown locale.
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
            var renderer = SQLRenderer(dialect: mapping.dialect) { try manager.mapping(for: $0) }
            let scope = SQLRenderer.Scope(mapping: mapping)
            let filter = try condition.map { condition throws in try renderer.render(condition.node, scope) } ?? ""
            let order = try renderer.order(order, scope)
            let query = try SelectQuery(
                mapping, filter: filter, order: order, arguments: renderer.arguments, limit: limit, offset: offset)
            return (renderer, query)
        }
    }
}
