import DBBSQLite

/// A SELECT built from query options: its SQL, arguments, and the column properties it reads
/// after the key columns, in order.
struct SelectQuery {
    let sql: String
    private(set) var arguments: [DBBValue]
    /// The column properties read after the key columns, in the mapping's order.
    let columns: [ColumnProperty]
    let joins: [JoinProperty]
    /// Whether the rows hold the values of ``joins`` too, as arrays in the columns after
    /// ``columns`` (see ``DBBDialect/foldsJoinRows``): then no statement of join rows follows.
    let foldsJoins: Bool

    /// The column of the first of the arrays ``foldsJoins`` adds (after the key columns and
    /// ``columns``), or `nil` when the query adds none.
    var foldedJoinsFrom: Int? { foldsJoins ? 3 + columns.count : nil }

    /// The most rows a fetch may select for its join rows to be read within its statement: a
    /// page or a list of ids up to this size. Each object's join rows are then one lookup of
    /// the join table's owner index; a larger fetch reads each join table in one statement.
    static let foldedRowsLimit = 500

    /// `propertyNames`, `sorting` and `joinPropertiesToPopulate` name properties or, as in
    /// DBBBuilder, their columns (see ``TableMapping/column(namedOrStoredIn:)``).
    /// - Throws: ``DBBError`` naming an unknown name in `propertyNames`, `sorting` or
    ///   `joinPropertiesToPopulate`.
    init(_ mapping: TableMapping, options: DBBQueryOptions, sparse: Bool) throws(DBBError) {
        let table = mapping.tableName
        let dialect = mapping.dialect

        // What to load.
        var selected = mapping.columns
        var joins = mapping.joins
        if let names = options.propertyNames {
            selected = []
            joins = []
            for name in names where !Self.isKeyProperty(name) {
                if let column = mapping.column(namedOrStoredIn: name) {
                    if !selected.contains(where: { $0.name == column.name }) { selected.append(column) }
                } else if let join = mapping.join(namedOrStoredIn: name) {
                    if !joins.contains(where: { $0.name == join.name }) { joins.append(join) }
                } else {
                    throw DBBError(
                        .unknownProperty, table: table, property: name,
                        "propertyNames names '\(name)', which is neither a property nor a column that \(table) maps")
                }
            }
            // Read in the mapping's order, whatever the order of the names: a fetch of every
            // column takes its values as the object's snapshot line, which is in that order.
            selected = mapping.columns.filter { column in selected.contains { $0.name == column.name } }
        }
        // What distinct compares: the named columns, also when a sparse fetch loads none.
        let compared = options.propertyNames == nil ? mapping.columns : selected
        if let names = options.joinPropertiesToPopulate {
            joins = try names.map { name throws(DBBError) in
                guard let join = mapping.join(namedOrStoredIn: name) else {
                    throw DBBError(
                        .unknownProperty, table: table, property: name,
                        "joinPropertiesToPopulate names '\(name)', which is neither a join property of \(table) nor its column"
                    )
                }
                return join
            }
        }
        if sparse {
            selected = []
            if options.joinPropertiesToPopulate == nil { joins = [] }
        }

        // WHERE
        var whereClause = try ConditionSQL(mapping, options.conditions ?? []).sql
        if options.distinct {
            let grouping = compared.map { dialect.compared(dialect.quote($0.column), $0.storageType) }
            guard !grouping.isEmpty else {
                throw DBBError(
                    .invalidOption, table: table,
                    "distinct compares column properties, and \(options.propertyNames == nil ? "\(table) maps none" : "propertyNames names none") "
                        + "(join properties and id, createdTime, modifiedTime cannot be compared)")
            }
            let id = dialect.quote(SchemaSQL.idColumn)
            let inner =
                "SELECT MAX(\(id)) FROM \(dialect.quote(table))"
                + (whereClause.isEmpty ? "" : " WHERE \(whereClause)")
                + " GROUP BY \(grouping.joined(separator: ", "))"
            whereClause = "\(id) IN (\(inner))"
        }

        // ORDER BY, LIMIT, OFFSET: a page follows the ids, after the sorting if any (ties in it
        // broken by id), so that pages neither overlap nor skip objects.
        try Self.checkPage(limit: options.limit, offset: options.offset, table: table)
        let paged = options.limit != nil || (options.offset ?? 0) > 0
        let order = Self.pageOrder(try Self.orderClause(mapping, options.sorting ?? []), paged: paged, dialect)
        self.init(
            mapping, columns: selected, joins: joins, where: whereClause, order: order,
            page: paged ? (options.limit, options.offset ?? 0) : nil, arguments: options.argumentValues,
            rows: options.limit ?? options.rowBound)
    }

    /// Every property of the objects a typed query selects: its WHERE and ORDER BY clauses
    /// as ``SQLRenderer`` wrote them (empty for none), with their arguments, and a page.
    init(
        _ mapping: TableMapping, filter: String, order: String, arguments: [DBBValue], limit: Int?, offset: Int?
    ) throws(DBBError) {
        try Self.checkPage(limit: limit, offset: offset, table: mapping.tableName)
        let paged = limit != nil || (offset ?? 0) > 0
        self.init(
            mapping, columns: mapping.columns, joins: mapping.joins, where: filter,
            order: Self.pageOrder(order, paged: paged, mapping.dialect), page: paged ? (limit, offset ?? 0) : nil,
            arguments: arguments, rows: limit)
    }

    /// The same query with other arguments (as many, for the same placeholders): a typed
    /// fetch kept by shape (``RenderedQueries``), run with a new run's values.
    func binding(_ arguments: [DBBValue]) -> SelectQuery {
        var query = self
        query.arguments = arguments
        return query
    }

    /// - Throws: ``DBBError/Kind/invalidOption`` for a negative limit or offset.
    static func checkPage(limit: Int?, offset: Int?, table: String) throws(DBBError) {
        for (name, value) in [("limit", limit), ("offset", offset)] {
            if let value, value < 0 {
                throw DBBError(.invalidOption, table: table, "\(name) is \(value); it must be 0 or more")
            }
        }
    }

    /// `order`, with ties broken by id when the query selects a page.
    private static func pageOrder(_ order: String, paged: Bool, _ dialect: any DBBDialect) -> String {
        let id = dialect.quote(SchemaSQL.idColumn)
        guard paged, !order.hasPrefix(id + " "), !order.contains(", \(id) ") else { return order }
        return order + (order.isEmpty ? "" : ", ") + id
    }

    /// Every property of the objects with `ids`: the query a fetch runs for referenced objects,
    /// written here rather than as a condition (conditions are the application's words).
    init(_ mapping: TableMapping, ids: [Int64], sparse: Bool = false) {
        self.init(
            mapping, columns: sparse ? [] : mapping.columns, joins: sparse ? [] : mapping.joins,
            where: mapping.dialect.inIDList(mapping.dialect.quote(SchemaSQL.idColumn)),
            order: "", arguments: [SQLText.idList(ids)], rows: ids.count)
    }

    /// The columns and joins `query` loads, for the objects with `ids`: one batch of a
    /// streaming fetch.
    init(_ mapping: TableMapping, loading query: SelectQuery, ids: [Int64]) {
        self.init(
            mapping, columns: query.columns, joins: query.joins,
            where: mapping.dialect.inIDList(mapping.dialect.quote(SchemaSQL.idColumn)),
            order: "", arguments: [SQLText.idList(ids)], rows: ids.count)
    }

    /// One batch of a streaming fetch in id order (keyset paging): the first `limit` objects,
    /// by id, that `query` (which has no order of its own) selects with an id above `after`
    /// (any, for `nil`) and at most `last`. The bounds take the placeholders after the query's
    /// own, by number.
    init(_ mapping: TableMapping, batchOf query: SelectQuery, after: Int64?, through last: Int64, limit: Int) {
        let id = mapping.dialect.quote(SchemaSQL.idColumn)
        var arguments = query.arguments
        arguments.append(.integer(last))
        var range = "\(id) <= ?\(arguments.count)"
        if let after {
            arguments.append(.integer(after))
            range += " AND \(id) > ?\(arguments.count)"
        }
        self.init(
            mapping, columns: query.columns, joins: query.joins,
            where: query.filter.isEmpty ? range : "(\(query.filter)) AND \(range)",
            order: id, page: (limit, 0), arguments: arguments, rows: limit)
    }

    /// `query` with no rows (`LIMIT 0`) and only the key columns: run once with its own
    /// arguments, it reports a mismatch between them and its placeholders as the query itself
    /// would, before ``init(_:batchOf:after:through:limit:)`` adds placeholders after them.
    init(_ mapping: TableMapping, noRowsOf query: SelectQuery) {
        self.init(
            mapping, columns: [], joins: [], where: query.filter, order: "", page: (0, 0), arguments: query.arguments)
    }

    /// Whether the query gives its rows an order (``DBBQueryOptions/sorting``, or the id order
    /// of a page).
    var isOrdered: Bool { !order.isEmpty }

    /// The WHERE clause, without the keyword; empty for none.
    private let filter: String
    /// The ORDER BY clause, without the keywords; empty for none.
    private let order: String

    /// `rows`: the most rows the query can select, when it is bounded (a page, a list of ids).
    private init(
        _ mapping: TableMapping, columns: [ColumnProperty], joins: [JoinProperty], where whereClause: String,
        order: String, page: (limit: Int?, offset: Int)? = nil, arguments: [DBBValue], rows: Int? = nil
    ) {
        self.columns = columns
        self.joins = joins
        self.arguments = arguments
        (filter, self.order) = (whereClause, order)
        let dialect = mapping.dialect
        foldsJoins =
            dialect.foldsJoinRows && !joins.isEmpty && rows.map { $0 <= Self.foldedRowsLimit } ?? false
        let joinSQL = JoinSQL(dialect: dialect)
        let folded = foldsJoins ? joins.map { joinSQL.elements($0, owner: mapping) } : []
        let selected = columns.map { dialect.selected(dialect.quote($0.column), $0.storageType) }
        let columnList = ([mapping.statements.keyColumns] + selected + folded).joined(separator: ", ")
        sql =
            "SELECT \(columnList) FROM \(mapping.dialect.quote(mapping.tableName))"
            + (whereClause.isEmpty ? "" : " WHERE \(whereClause)")
            + (order.isEmpty ? "" : " ORDER BY \(order)")
            + (page.map { " LIMIT \($0.limit ?? Int(Int64.max))" + ($0.offset > 0 ? " OFFSET \($0.offset)" : "") } ?? "")
    }

    static func isKeyProperty(_ name: String) -> Bool {
        [SchemaSQL.idColumn, "idNum", SchemaSQL.createdTimeColumn, SchemaSQL.modifiedTimeColumn].contains(name)
    }

    /// `a ASC, b ASC`; a `DESC` (or `ASC`) item sets the direction of all, `"name DESC"` of one.
    private static func orderClause(_ mapping: TableMapping, _ items: [String]) throws(DBBError) -> String {
        var direction = "ASC"
        var terms: [(column: String, direction: String?, nullable: Bool)] = []
        for item in items {
            let words = item.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = words.first else { continue }
            if words.count == 1, ["ASC", "DESC"].contains(first.uppercased()) {
                direction = first.uppercased()
                continue
            }
            guard words.count <= 2, words.count == 1 || ["ASC", "DESC"].contains(words[1].uppercased()) else {
                throw DBBError(
                    .invalidOption, table: mapping.tableName,
                    "sorting item '\(item)' is not a property name, optionally followed by ASC or DESC")
            }
            let column: String
            // Whether NULL may be stored: an optional property not declared NOT NULL (the
            // creation and modification times of an adopted table, too).
            let nullable: Bool
            if isKeyProperty(first) {
                column = mapping.dialect.quote(first == "idNum" ? SchemaSQL.idColumn : first)
                nullable = column != mapping.dialect.quote(SchemaSQL.idColumn)
            } else if let property = mapping.column(namedOrStoredIn: first) {
                if case .json = property.storageType {
                    throw DBBError(
                        .invalidOption, table: mapping.tableName, property: property.name,
                        "sorting names '\(first)', a property stored as JSON, which has no order the backends share: "
                            + "sort by a property of its own that holds the value to sort by")
                }
                column = mapping.dialect.compared(mapping.dialect.quote(property.column), property.storageType)
                nullable = !property.isNotNull && property.defaultValue == .null
            } else {
                let glued = ["DESC", "ASC"].first { first.uppercased().hasSuffix($0) && first.count > $0.count }
                throw DBBError(
                    .unknownProperty, table: mapping.tableName, property: first,
                    "sorting names '\(first)', which is neither a column property of \(mapping.tableName) nor its column"
                        + (glued.map {
                            "; a direction is its own item or follows a space: '\(first.dropLast($0.count)) \($0)'"
                        } ?? ""))
            }
            terms.append((column, words.count == 2 ? words[1].uppercased() : nil, nullable))
        }
        if terms.isEmpty && !items.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
            throw DBBError(
                .invalidOption, table: mapping.tableName,
                "sorting \(items) gives a direction but no property to sort by: list the properties "
                    + "before it, e.g. [\"age\", ColumnSorting.descending]")
        }
        // Only where NULL may be: a PostgreSQL index (ASC NULLS LAST) still serves the order of a
        // column that never holds it.
        return terms.map { term in
            let chosen = term.direction ?? direction
            return "\(term.column) \(chosen)"
                + (term.nullable ? mapping.dialect.nullsOrder(descending: chosen == "DESC") : "")
        }.joined(separator: ", ")
    }
}
