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
        var renderer = SQLRenderer(dialect: mapping.dialect) { try manager.mapping(for: $0) }
        let scope = SQLRenderer.Scope(mapping: mapping)
        let filter =
            try condition.map { condition throws in try renderer.render(filterNode(condition.node), scope) } ?? ""
        for term in sorting where SQLRenderer.readsJoins(term.order.node) {
            throw DBBError(
                .invalidOption, table: mapping.tableName,
                "the fetch of \(self) sorts by a value of a joined class, which a fetch of objects cannot: sort by "
                    + "\(self)'s own properties, or select the joined value in a report (\(self).select(…).order(by:))")
        }
        let order = try renderer.order(sorting.map(\.order), scope)
        return try SelectQuery(
            mapping, filter: filter, order: order, arguments: renderer.arguments, limit: limit, offset: offset)
    }

    /// The node of a fetch's condition: one that reads through joins selects the objects whose
    /// ids the join query selects (`id IN (SELECT <table>.id FROM <table> JOIN … WHERE …)`).
    private static func filterNode(_ condition: SQLNode) -> SQLNode {
        guard SQLRenderer.readsJoins(condition) else { return condition }
        var joined = SelectNode(source: self, columns: [.keyColumn(SchemaSQL.idColumn)])
        joined.filter = condition
        return .inQuery(.keyColumn(SchemaSQL.idColumn), joined, negated: false)
    }
}
