import DBBSQLite

// Joins through the mapping: a statement whose expressions read through ``SQLNode/joined(_:_:)``
// (or that ``SelectNode/joins`` lists) joins, for each path, the join table of the reference or
// array and then the target's table:
//
//     FROM Novel
//     JOIN Novel_author AS "Novel.author#" ON "Novel.author#".Novel_ID = Novel.id
//     JOIN Penman AS "Novel.author" ON "Novel.author".id = "Novel.author#".author
//
// (`LEFT JOIN` both for a left join). Every table is then named before its columns: the
// statement's own by its name, each joined one by its alias — the path of property names
// from the statement's class, a left step marked `?` (`"Novel.author?.mentor"`), so that a
// class joined twice, or to itself, is two tables. The join table's alias is the target's
// with `#`. An alias longer than the dialect's names (PostgreSQL's 63 bytes) is `#n` instead.

/// The steps of joins from a class to another: each a reference or array property (by key
/// path, of the class the step before reaches) and whether it is a left join.
struct SQLJoinPath: Hashable, @unchecked Sendable {
    // @unchecked Sendable: key paths of stored properties are immutable values.

    struct Step: Hashable {
        let keyPath: AnyKeyPath
        let left: Bool
    }

    var steps: [Step] = []

    /// `self`, then `other`'s steps.
    static func + (lhs: SQLJoinPath, rhs: SQLJoinPath) -> SQLJoinPath { SQLJoinPath(steps: lhs.steps + rhs.steps) }
}

/// A table a statement joins: the target's mapping and its quoted alias.
struct JoinedTable {
    let mapping: TableMapping
    let alias: String
    /// The alias before quoting, which the aliases of joins through this one extend.
    let name: String
}

extension SQLRenderer {
    /// `" FROM <table>"` and the joins of every path the statement reads through; records each
    /// joined table in `scope`, which then names its own table before its columns.
    /// - Throws: ``DBBError/Kind/unknownProperty`` for a join key path the class does not map
    ///   itself; ``DBBError/Kind/invalidOption`` for one that is not a reference or an array of
    ///   objects.
    /// - Parameters:
    ///   - alias: the alias of the statement's own table, if it needs one (``correlated(_:_:)``).
    ///   - sorting: refuse a join through an array (``correlated(_:_:)``).
    mutating func from(
        _ select: SelectNode, _ scope: inout Scope, alias rootAlias: String? = nil, sorting: Bool = false
    )
        throws -> String
    {
        let table = dialect.quote(scope.mapping.tableName)
        let paths = Self.joinPaths(select)
        guard !paths.isEmpty else { return " FROM " + table }
        scope.qualifier = rootAlias.map { dialect.quote($0) } ?? table
        var sql = " FROM " + table + (rootAlias.map { " AS " + dialect.quote($0) } ?? "")
        for (number, path) in paths.enumerated() {
            let parent = SQLJoinPath(steps: Array(path.steps.dropLast()))
            let owner = parent.steps.isEmpty ? scope : try joined(parent, scope)
            let step = path.steps[path.steps.count - 1]
            let (join, targetType) = try joinProperty(step.keyPath, owner)
            if sorting && !join.isReference {
                throw DBBError(
                    .invalidOption, table: owner.mapping.tableName, property: join.name,
                    "the fetch sorts by a value of \(join.name), an array of \(owner.mapping.objectType), whose "
                        + "elements give no one value per object: sort by a value read through references, or select "
                        + "it in a report (select(…).group(by:).order(by:))")
            }
            let target = try mappings(targetType)
            var name =
                (parent.steps.isEmpty ? scope.mapping.tableName : scope.joins[parent]!.name) + "."
                + join.name + (step.left ? "?" : "")
            if let longest = dialect.longestName, name.utf8.count >= longest { name = "#\(number + 1)" }
            let (rows, alias) = (dialect.quote(name + "#"), dialect.quote(name))
            let kind = step.left ? " LEFT JOIN " : " JOIN "
            sql +=
                kind + dialect.quote(join.joinTable) + " AS " + rows + " ON " + rows + "."
                + dialect.quote(join.parentColumn) + " = " + owner.column(SchemaSQL.idColumn, dialect)
            sql +=
                kind + dialect.quote(target.tableName) + " AS " + alias + " ON " + alias + "."
                + dialect.quote(SchemaSQL.idColumn) + " = " + rows + "." + dialect.quote(join.column)
            scope.joins[path] = JoinedTable(mapping: target, alias: alias, name: name)
        }
        return sql
    }

    /// `(SELECT <node> FROM <table> AS "<table>#" <joins> WHERE "<table>#".id = <table>.id)`: the
    /// value `node` reads through references for the row of the enclosing statement, which makes
    /// no join (a fetch of objects sorted by a joined value); `NULL` where a join has no row.
    /// - Throws: ``DBBError/Kind/invalidOption`` for a join through an array.
    mutating func correlated(_ node: SQLNode, _ scope: Scope) throws -> String {
        var inner = Scope(mapping: scope.mapping)
        var alias = scope.mapping.tableName + "#"
        if let longest = dialect.longestName, alias.utf8.count > longest { alias = "#0" }
        let from = try from(
            SelectNode(source: scope.mapping.objectType, columns: [node]), &inner, alias: alias, sorting: true)
        try refuseJSONOrder(node, inner)
        return "(SELECT " + (try render(node, inner)) + from + " WHERE " + inner.column(SchemaSQL.idColumn, dialect)
            + " = " + scope.table(dialect) + "." + dialect.quote(SchemaSQL.idColumn) + ")"
    }

    /// The scope of the class `path` (relative to `scope`'s class) reaches.
    func joined(_ path: SQLJoinPath, _ scope: Scope) throws -> Scope {
        let full = scope.path + path
        guard let table = scope.joins[full] else {
            throw DBBError(
                .invalidOption, table: scope.mapping.tableName,
                "the query reads through a join where no statement makes it: use the join in a select, a where, "
                    + "a group, a having or an order of \(scope.mapping.objectType)'s query")
        }
        var inner = Scope(mapping: table.mapping)
        inner.qualifier = table.alias
        inner.path = full
        inner.joins = scope.joins
        return inner
    }

    /// `node` without the joins it reads through, and the scope of the class they reach.
    func innermost(_ node: SQLNode, _ scope: Scope) throws -> (SQLNode, Scope) {
        guard case .joined(let path, let inner) = node else { return (node, scope) }
        return try innermost(inner, joined(path, scope))
    }

    /// The reference or array of objects `keyPath` reaches in the owner's class, and its
    /// target class.
    private func joinProperty(_ keyPath: AnyKeyPath, _ owner: Scope) throws -> (JoinProperty, DBBTableObject.Type) {
        let property = try resolved(keyPath, owner)
        if let join = property.join {
            switch join.storageType {
            case .dbbObject(let type), .dbbObjectArray(let type): return (join, type)
            default: break
            }
        }
        let name = property.column?.name ?? property.join?.name ?? "\(keyPath)"
        throw DBBError(
            .invalidOption, table: owner.mapping.tableName, property: name,
            "the query joins through \(name), which \(owner.mapping.objectType) maps as a value, not as a reference "
                + "to a table object or an array of them: join through one of those")
    }

    // MARK: - The paths a statement reads through

    /// Every join path the statement makes, each after the paths it extends, in the order of
    /// first use: its listed joins, then those of its columns, condition, grouping, group
    /// condition and order. Subqueries make their own.
    static func joinPaths(_ select: SelectNode) -> [SQLJoinPath] {
        var paths: [SQLJoinPath] = []
        for path in select.joins { add(path, to: &paths) }
        for node in select.columns { collect(node, SQLJoinPath(), into: &paths) }
        if let filter = select.filter { collect(filter, SQLJoinPath(), into: &paths) }
        for node in select.grouping { collect(node, SQLJoinPath(), into: &paths) }
        if let groupFilter = select.groupFilter { collect(groupFilter, SQLJoinPath(), into: &paths) }
        for term in select.order { collect(term.node, SQLJoinPath(), into: &paths) }
        return paths
    }

    /// Whether `node` reads through a join.
    static func readsJoins(_ node: SQLNode) -> Bool { !joinPaths(of: node).isEmpty }

    /// The join paths `node` reads through, each after the paths it extends.
    static func joinPaths(of node: SQLNode) -> [SQLJoinPath] {
        var paths: [SQLJoinPath] = []
        collect(node, SQLJoinPath(), into: &paths)
        return paths
    }

    /// Adds `path` and each path it extends, unless there.
    private static func add(_ path: SQLJoinPath, to paths: inout [SQLJoinPath]) {
        for count in path.steps.indices {
            let prefix = SQLJoinPath(steps: Array(path.steps.prefix(count + 1)))
            if !paths.contains(prefix) { paths.append(prefix) }
        }
    }

    /// Adds the join paths `node` reads through, relative to `prefix`.
    private static func collect(_ node: SQLNode, _ prefix: SQLJoinPath, into paths: inout [SQLJoinPath]) {
        switch node {
        case .property, .keyColumn, .element, .value, .locale, .keyword, .exists:
            break
        case .prefix(_, let operand), .isNull(let operand, _), .inList(let operand, _, _),
            .inQuery(let operand, _, _), .like(let operand, _, _, _):
            collect(operand, prefix, into: &paths)
        case .binary(let left, _, let right), .nullIfNull(let left, let right):
            collect(left, prefix, into: &paths)
            collect(right, prefix, into: &paths)
        case .elements(_, let condition, _):
            if let condition { collect(condition, prefix, into: &paths) }
        case .function(_, let arguments):
            for argument in arguments { collect(argument, prefix, into: &paths) }
        case .aggregate(_, let argument, _, _):
            if let argument { collect(argument, prefix, into: &paths) }
        case .joined(let path, let inner):
            let full = prefix + path
            add(full, to: &paths)
            collect(inner, full, into: &paths)
        }
    }
}
