import DBBSQLite

// Typed conditions and sorting become query options: the condition text and arguments a
// condition written by hand would be, so that both forms run the same SQL.

extension DBBCondition {
    /// The conditions and arguments of query options: a top-level `&&` chain is one condition
    /// per item (as a list of conditions is joined with `AND`), anything else one condition.
    func rendered(_ mapping: TableMapping) throws(DBBError) -> (conditions: [String], arguments: [DBBValue]) {
        var conditions: [String] = []
        var arguments: [DBBValue] = []
        for part in Self.conjuncts(node) {
            conditions.append(try Self.text(part, mapping, &arguments))
        }
        return (conditions, arguments)
    }

    /// The items of a chain of `&&`, in order.
    private static func conjuncts(_ node: Node) -> [Node] {
        if case .and(let left, let right) = node { return conjuncts(left) + conjuncts(right) }
        return [node]
    }

    /// The condition text of `node`, its values appended to `arguments` in placeholder order.
    private static func text(_ node: Node, _ mapping: TableMapping, _ arguments: inout [DBBValue]) throws(DBBError)
        -> String
    {
        switch node {
        case .compare(let keyPath, let operation, let value):
            let property = try name(keyPath, mapping)
            arguments.append(try comparable(value, property, mapping))
            return "\(property) \(operation) \(parameter(property, mapping))"
        case .null(let keyPath, let negated):
            return "\(try name(keyPath, mapping)) IS \(negated ? "NOT " : "")NULL"
        case .within(let keyPath, let values, let negated):
            let property = try name(keyPath, mapping)
            // No values: `IN ()` is not SQL everywhere; a test that is false (or true) for every row.
            guard !values.isEmpty else {
                return negated
                    ? "(\(property) IS NULL OR \(property) IS NOT NULL)"
                    : "(\(property) IS NULL AND \(property) IS NOT NULL)"
            }
            for value in values { arguments.append(try comparable(value, property, mapping)) }
            let placeholders = Array(repeating: parameter(property, mapping), count: values.count)
                .joined(separator: ", ")
            return "\(negated ? "NOT " : "")\(property) IN (\(placeholders))"
        case .like(let keyPath, let pattern, let negated):
            arguments.append(.text(pattern))
            return "\(negated ? "NOT " : "")\(try name(keyPath, mapping)) LIKE ?"
        case .and(let left, let right):
            return "(\(try text(left, mapping, &arguments))) AND (\(try text(right, mapping, &arguments)))"
        case .or(let left, let right):
            return "(\(try text(left, mapping, &arguments))) OR (\(try text(right, mapping, &arguments)))"
        case .not(let inner):
            return "NOT (\(try text(inner, mapping, &arguments)))"
        }
    }

    /// The placeholder of a value compared with `property`: as the column (or join column) of
    /// its type takes one (``DBBDialect/parameter(_:)``: PostgreSQL reads the text of a
    /// `Decimal` or `UUID` as a `numeric` or `uuid`).
    private static func parameter(_ property: String, _ mapping: TableMapping) -> String {
        guard let type = mapping.column(named: property)?.storageType ?? mapping.join(named: property)?.storageType
        else { return "?" }
        return mapping.dialect.parameter(type)
    }

    /// `value`, unless it stands for a value that cannot be stored (``unstorableStandIn``:
    /// `Decimal.nan`), which no backend compares alike (PostgreSQL's `numeric` NaN is above
    /// every number, SQLite's `NULL` equals nothing).
    private static func comparable(_ value: DBBValue, _ property: String, _ mapping: TableMapping) throws(DBBError)
        -> DBBValue
    {
        guard case .real(let real) = value, real.isNaN,
            let type = mapping.column(named: property)?.storageType ?? mapping.join(named: property)?.storageType
        else { return value }
        switch type {
        case .decimal, .decimalArray: break
        default: return value
        }
        throw DBBError(
            .invalidValue, table: mapping.tableName, property: property,
            "the condition compares \(property) with Decimal.nan, which no stored decimal is and no backend compares "
                + "alike: test for nil, or leave the condition out")
    }

    /// The mapped property `keyPath` reaches.
    static func name(_ keyPath: AnyKeyPath, _ mapping: TableMapping) throws(DBBError) -> String {
        guard let name = mapping.propertyName(for: keyPath) else {
            throw DBBError(
                .unknownProperty, table: mapping.tableName,
                "the condition's key path \(keyPath) reaches no property that \(mapping.objectType) maps itself; a "
                    + "property its superclass maps cannot be named by key path through the subclass yet: name it in a "
                    + "string condition (DBBQueryOptions(conditions: [\"column = ?\"]))")
        }
        return name
    }
}

extension DBBTableObjectFetching {
    /// The objects that `condition` selects (all when `nil`), in the order of `sortedBy`
    /// (id order when empty): a typed form of
    /// ``DBBTableObjectFetching/instances(matching:manager:sparsePopulation:)-6tzfh``.
    ///
    /// ```swift
    /// let people = try Person.instances(
    ///     where: \.age > 30 && \.lastName == "Doe", sortedBy: [.descending(\.age)], manager: manager)
    /// ```
    ///
    /// - Throws: ``DBBError/Kind/unknownProperty`` for a key path to a property the class does
    ///   not map, and what the string form throws for the same condition.
    public static func instances(
        where condition: DBBCondition<Self>? = nil, sortedBy sorting: [DBBSort<Self>] = [], limit: Int? = nil,
        manager: DBBManager
    ) throws -> [Self] {
        try instances(
            matching: try options(where: condition, sortedBy: sorting, limit: limit, manager: manager),
            manager: manager)
    }

    /// The query options a typed condition and sorting stand for.
    static func options(
        where condition: DBBCondition<Self>?, sortedBy sorting: [DBBSort<Self>], limit: Int?, manager: DBBManager
    ) throws -> DBBQueryOptions {
        let mapping = try manager.mapping(for: self)
        var options = DBBQueryOptions()
        if let condition {
            let (conditions, arguments) = try condition.rendered(mapping)
            options.conditions = conditions
            options.arguments = arguments.map { $0 }
        }
        if !sorting.isEmpty {
            options.sorting = try sorting.map { sort throws(DBBError) in
                try DBBCondition<Self>.name(sort.property, mapping) + (sort.descending ? " DESC" : "")
            }
        }
        options.limit = limit
        return options
    }
}
