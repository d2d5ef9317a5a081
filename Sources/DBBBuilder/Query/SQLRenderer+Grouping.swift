import DBBSQLite

// The report shapes SQLite runs and PostgreSQL refuses, refused alike on both before any SQL:
// a grouped select that reads a column neither grouped nor aggregated (SQLite gives one
// arbitrary row's value), and a DISTINCT sorted by what it does not select (SQLite sorts by
// one arbitrary row's value). Expressions are compared as PostgreSQL compares them: the same
// tree with the same values (``QueryShape/init(expression:dialect:)``).

extension SQLRenderer {
    /// Refuses `select` when it is grouped (a `GROUP BY`, a `HAVING`, or an aggregate anywhere)
    /// and selects, filters groups by or sorts by a column outside its groups and aggregates,
    /// or when it is `DISTINCT` and sorted by an expression it does not select.
    /// - Throws: ``DBBError/Kind/invalidOption`` naming the column and what to change.
    mutating func refuseUnsharedShapes(_ select: SelectNode, _ scope: Scope) throws {
        let table = scope.mapping.tableName
        // Aggregates where no engine computes one; each engine says so in its own words.
        if select.filter?.aggregates == true {
            throw DBBError(
                .invalidOption, table: table,
                "the report's condition (where) uses an aggregate (COUNT, SUM…), which a row has no value of: "
                    + "filter the groups with having(_:)")
        }
        if select.grouping.contains(where: \.aggregates) {
            throw DBBError(
                .invalidOption, table: table,
                "the report groups by an aggregate (COUNT, SUM…), which is computed per group: group by the "
                    + "columns or expressions of a row")
        }
        let clauses = select.columns + (select.groupFilter.map { [$0] } ?? []) + select.order.map(\.node)
        if clauses.contains(where: \.nestsAggregates) {
            throw DBBError(
                .invalidOption, table: table,
                "the report puts an aggregate inside another (.sum(.count())…), which no backend computes in one "
                    + "query: aggregate in a subquery, or in Swift over the report's rows")
        }
        if select.distinct {
            let selected = select.columns.map { QueryShape(expression: $0, dialect: dialect) }
            for term in select.order {
                let sorted = QueryShape(expression: term.node, dialect: dialect)
                guard !selected.contains(where: { $0.isSame(as: sorted) }) else { continue }
                throw DBBError(
                    .invalidOption, table: table,
                    "the report is distinct() and sorted by \(try describe(term.node, scope)), which it does not "
                        + "select: PostgreSQL sorts distinct rows only by what they hold (SQLite by an arbitrary row's "
                        + "value): select it too, or sort by an expression the report selects")
            }
        }
        let parts =
            select.columns.map { ("selects", $0) } + (select.groupFilter.map { [("filters groups by", $0)] } ?? [])
            + select.order.map { ("is sorted by", $0.node) }
        let grouped = !select.grouping.isEmpty || select.groupFilter != nil || parts.contains { $0.1.aggregates }
        guard grouped else { return }
        let groups = select.grouping.map { QueryShape(expression: $0, dialect: dialect) }
        for (role, node) in parts {
            guard let culprit = ungrouped(node, groups, { $0 }) else { continue }
            throw DBBError(
                .invalidOption, table: table,
                "the report \(role) \(try describe(culprit, scope)), which is neither grouped nor inside an aggregate: "
                    + "add it to group(by:), or read it through an aggregate (.min, .max, .count) — SQLite would give "
                    + "an arbitrary row's value, PostgreSQL refuses the query")
        }
    }

    /// The first column in `node` (outside aggregates and subqueries) that no expression of
    /// `groups` covers, nor the grouped `id` of its table; `nil` when there is none. `wrap` puts a
    /// part of `node` back under the joins `node` is reached through, to compare it with a group.
    private func ungrouped(_ node: SQLNode, _ groups: [QueryShape], _ wrap: (SQLNode) -> SQLNode) -> SQLNode? {
        func covered(_ part: SQLNode) -> Bool {
            let shape = QueryShape(expression: wrap(part), dialect: dialect)
            return groups.contains { $0.isSame(as: shape) }
        }
        if covered(node) { return nil }
        switch node {
        case .aggregate, .value, .locale, .keyword, .exists, .element:
            return nil
        case .property, .keyColumn, .elements:
            // A column of a table whose id is grouped has one value per group (PostgreSQL's
            // functional dependency on a primary key).
            return covered(.keyColumn(SchemaSQL.idColumn)) ? nil : wrap(node)
        case .prefix(_, let operand), .isNull(let operand, _), .inList(let operand, _, _),
            .inQuery(let operand, _, _), .like(let operand, _, _, _):
            return ungrouped(operand, groups, wrap)
        case .binary(let left, _, let right), .nullIfNull(let left, let right):
            return ungrouped(left, groups, wrap) ?? ungrouped(right, groups, wrap)
        case .function(_, let arguments):
            for argument in arguments {
                if let culprit = ungrouped(argument, groups, wrap) { return culprit }
            }
            return nil
        case .joined(let path, let inner):
            return ungrouped(inner, groups) { wrap(.joined(path, $0)) }
        }
    }

    /// A column node as a message names it: `Class.property`, or `Class.id`.
    private func describe(_ node: SQLNode, _ scope: Scope) throws -> String {
        let (inner, innerScope) = try innermost(node, scope)
        let table = innerScope.mapping.tableName
        switch inner {
        case .property(let keyPath), .elements(let keyPath, _, _):
            let property = try resolved(keyPath, innerScope)
            return table + "." + (property.column?.name ?? property.join?.name ?? "?")
        case .keyColumn(let name):
            return table + "." + name
        default:
            return "an expression"
        }
    }
}
