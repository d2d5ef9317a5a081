import DBBSQLite

// Keyset paging of the typed fetch: the page after an object is the rows whose sort key comes
// after the object's in the query's order, ties broken by id — a condition on the sort key,
// not an OFFSET, so rows inserted or deleted before the page move nothing in it.

extension DBBTableObjectFetching {
    /// The objects that `condition` selects which come after `last` in the order of `sortedBy`
    /// (ties broken by id), at most `limit` of them: the next page of a keyset paging.
    ///
    /// ```swift
    /// var page = try Visit.instances(sortedBy: [.descending(\.seconds)], limit: 50, manager: manager)
    /// while let last = page.last {
    ///     // … use page …
    ///     page = try Visit.instances(sortedBy: [.descending(\.seconds)], after: last, limit: 50, manager: manager)
    /// }
    /// ```
    ///
    /// The sort key is read from `last` as it is in memory (it may have been deleted since);
    /// `NULL` sorts first ascending and last descending on every backend, so a page after an
    /// object whose key is `nil` goes on among the other `nil`s by id. Unlike `offset`, rows
    /// inserted or deleted before the page neither repeat nor skip a row.
    ///
    /// - Throws: ``DBBError/Kind/invalidOption`` when `last` is new (no row), when a sort term
    ///   is not a property, `\.id`, `\.createdTime` or `\.modifiedTime` (its value cannot be
    ///   read from the object: an aggregate, an expression, an array or a reference), or names a
    ///   property a partial fetch left out of `last`; ``DBBError/Kind/foreignObject`` when
    ///   `last` belongs to another manager; otherwise as `instances(where:sortedBy:limit:offset:manager:)`.
    public static func instances(
        where condition: DBBCondition<Self>? = nil, sortedBy sorting: [DBBSort<Self>] = [], after last: Self,
        limit: Int? = nil, manager: DBBManager
    ) throws -> [Self] {
        let mapping = try manager.mapping(for: self)
        let (filter, order) = try keyset(where: condition, sortedBy: sorting, after: last, mapping, manager)
        return try fetch(
            try typedQuery(where: filter, sortedBy: order, limit: limit, offset: nil, mapping, manager), mapping,
            manager: manager)
    }

    /// The condition and order of the page after `last`: `condition AND (k1 after v1 OR (k1 = v1
    /// AND (k2 after v2 OR …)))`, the last key `id`.
    static func keyset(
        where condition: DBBCondition<Self>?, sortedBy sorting: [DBBSort<Self>], after last: Self,
        _ mapping: TableMapping, _ manager: DBBManager
    ) throws -> (DBBCondition<Self>, [DBBSort<Self>]) {
        guard last.dbManager === manager else {
            throw DBBError(
                .foreignObject, table: mapping.tableName, rowID: last.id,
                "the page is after an object of another DBBManager instance (\(last.dbManager.databaseLabel)"
                    + (last.dbManager.databaseLabel == manager.databaseLabel ? ", the same database" : "")
                    + ") than the one given (\(manager.databaseLabel)): page after an object this manager fetched")
        }
        guard !last.isNew else {
            throw DBBError(
                .invalidOption, table: mapping.tableName,
                "the page is after a new object, which has no row and so no place in the order: "
                    + "page after an object the previous page returned")
        }
        var terms = sorting.map { $0.order }
        if !terms.contains(where: { term in
            if case .keyColumn(SchemaSQL.idColumn) = term.node { return true }
            return false
        }) {
            terms.append(SQLOrder(node: .keyColumn(SchemaSQL.idColumn), descending: false))
        }
        // From the last term to the first: after_i OR (equal_i AND <the rest>).
        var rest: SQLNode?
        for term in terms.reversed() {
            let value = try sortValue(of: term.node, in: last, mapping)
            let after = Self.after(term, value)
            guard let tail = rest else {
                rest = after
                continue
            }
            let equal: SQLNode =
                value == .null ? .isNull(term.node, negated: false) : .binary(term.node, .equal, .value(value))
            let tie: SQLNode = .binary(equal, .and, tail)
            rest = after.map { .binary($0, .or, tie) } ?? tie
        }
        // `rest` is never nil: id is a term, and id is never NULL.
        let keyset = DBBCondition<Self>(rest!)
        return (condition.map { $0 && keyset } ?? keyset, terms.map { DBBSort(order: $0) })
    }

    /// The rows whose `term` comes strictly after `value` in its direction (`NULL` first
    /// ascending, last descending), or `nil` for none.
    private static func after(_ term: SQLOrder, _ value: DBBValue) -> SQLNode? {
        let node = term.node
        switch (term.descending, value == .null) {
        case (false, true): return .isNull(node, negated: true)  // every value comes after NULL
        case (false, false): return .binary(node, .greater, .value(value))
        case (true, true): return nil  // NULL is last
        case (true, false):
            if case .keyColumn(SchemaSQL.idColumn) = node { return .binary(node, .less, .value(value)) }
            return .binary(.binary(node, .less, .value(value)), .or, .isNull(node, negated: false))
        }
    }

    /// The value the sort key `node` has in `object`, as stored.
    private static func sortValue(of node: SQLNode, in object: Self, _ mapping: TableMapping) throws -> DBBValue {
        switch node {
        case .keyColumn(SchemaSQL.idColumn): return .integer(object.id)
        case .keyColumn(SchemaSQL.createdTimeColumn):
            return object.createdTime.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
        case .keyColumn(SchemaSQL.modifiedTimeColumn):
            return object.modifiedTime.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
        case .property(let keyPath):
            if let name = mapping.propertyName(for: keyPath), let column = mapping.column(named: name) {
                if object.isPartiallyLoaded, object.unloadedPropertyNames.contains(name) {
                    throw DBBError(
                        .invalidOption, table: mapping.tableName, property: name, rowID: object.id,
                        "the page is after an object whose \(name), a sort key, a partial fetch left out: "
                            + "fetch \(name) with the page")
                }
                return column.access.value(object)
            }
        default: break
        }
        throw DBBError(
            .invalidOption, table: mapping.tableName,
            "a page after an object sorts by its properties (\\.id, \\.createdTime, \\.modifiedTime included), "
                + "whose values it reads from the object; sort by a property, not an expression, an aggregate, an "
                + "array or a reference, or page with offset")
    }
}
