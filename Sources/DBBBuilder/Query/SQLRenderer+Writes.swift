import DBBSQLite

// The set-based writes of the tree (WriteNode): `UPDATE … SET … WHERE …` and
// `DELETE FROM … WHERE …`, their values bound as a query's are.

extension SQLRenderer {
    /// `UPDATE "T" SET "modifiedTime" = ?1, "c" = … WHERE …`, or `DELETE FROM "T" WHERE …`.
    /// - Throws: ``DBBError/Kind/invalidOption`` for an update without assignments, of `id`,
    ///   `createdTime`, `modifiedTime`, of an array or a reference (stored in join rows), or of
    ///   one property twice, and for an aggregate in a value or the condition;
    ///   ``DBBError/Kind/invalidValue`` for a value no save would store
    ///   (NaN; on PostgreSQL text with NUL), naming the property; what a condition throws.
    mutating func statement(_ write: WriteNode) throws -> String {
        let scope = Scope(mapping: try mappings(write.source))
        let table = dialect.quote(scope.mapping.tableName)
        if write.filter.aggregates {
            throw DBBError(
                .invalidOption, table: scope.mapping.tableName,
                "the write's condition uses an aggregate (COUNT, SUM…), which a single row has no value of: "
                    + "compare with a subquery (.in(\\.x, Other.select(…))) or a value a report computed")
        }
        // A condition through joins selects the rows by id, as a typed fetch does: the written
        // table stays the statement's only one.
        let filter =
            Self.readsJoins(write.filter)
            ? SQLNode.inQuery(
                .keyColumn(SchemaSQL.idColumn),
                {
                    var joined = SelectNode(source: write.source, columns: [.keyColumn(SchemaSQL.idColumn)])
                    joined.filter = write.filter
                    return joined
                }(), negated: false)
            : write.filter
        switch write.action {
        case .delete:
            let condition = try self.condition(filter, scope)
            try checkBoundCount(scope)
            return "DELETE FROM " + table + " WHERE " + condition
        case .update(let assignments, let modifiedTime):
            guard !assignments.isEmpty else {
                throw DBBError(
                    .invalidOption, table: scope.mapping.tableName,
                    "the update sets no property: give it at least one .set(\\.property, to: value)")
            }
            var set = [
                dialect.quote(SchemaSQL.modifiedTimeColumn) + " = "
                    + (try render(.value(.real(modifiedTime.timeIntervalSinceReferenceDate)), scope))
            ]
            var unguarded = set
            var written: Set<String> = []
            var checks: [String] = []
            for assignment in assignments {
                let column = try assigned(assignment.target, scope)
                guard written.insert(column.name).inserted else {
                    throw DBBError(
                        .invalidOption, table: scope.mapping.tableName, property: column.name,
                        "the update sets \(column.name) twice: set each property once")
                }
                var value = try assignedValue(assignment.value, column, scope)
                if case .bool = column.storageType, assignment.value.isCondition { value = dialect.storedTruth(value) }
                let target = dialect.quote(column.column) + " = "
                unguarded.append(target + value)
                // A bound value was checked above; what an expression gives is checked per row.
                let isValue = if case .value = assignment.value { true } else { false }
                let isBool = if case .bool = column.storageType { true } else { false }
                let (type, canHoldNil) = (column.storageType, column.canHoldNil)
                let bounds = isBool ? 0...1 : column.integerBounds
                guard !isValue, let guarded = dialect.guarded(value, type, canHoldNil: canHoldNil, bounds: bounds)
                else {
                    set.append(target + value)
                    continue
                }
                set.append(target + guarded)
                if let check = dialect.misstored(
                    dialect.quote(column.column), type, canHoldNil: canHoldNil, bounds: bounds)
                {
                    checks.append(check)
                    checkedColumns.append(column)
                }
            }
            let condition = try self.condition(filter, scope)
            try checkBoundCount(scope)
            if !checks.isEmpty {
                diagnosis =
                    "UPDATE " + table + " SET " + unguarded.joined(separator: ", ") + " WHERE " + condition
                    + " RETURNING "
                    + ([dialect.quote(SchemaSQL.idColumn)] + checks).joined(separator: ", ")
            }
            return "UPDATE " + table + " SET " + set.joined(separator: ", ") + " WHERE " + condition
        }
    }

    /// The column an assignment writes.
    private func assigned(_ target: SQLNode, _ scope: Scope) throws(DBBError) -> ColumnProperty {
        let table = scope.mapping.tableName
        switch target {
        case .keyColumn(let name) where name == SchemaSQL.modifiedTimeColumn:
            throw DBBError(
                .invalidOption, table: table, property: name,
                "the update sets modifiedTime, which every update sets to the time it runs: leave it out")
        case .keyColumn(let name):
            throw DBBError(
                .invalidOption, table: table, property: name,
                "the update sets \(name), which identifies the row (and is kept by the package): leave it out")
        case .property(let keyPath):
            let property = try resolved(keyPath, scope)
            if let column = property.column { return column }
            let join = property.join!
            throw DBBError(
                .invalidOption, table: table, property: join.name,
                "the update sets \(join.name), \(join.isReference ? "a reference" : "an array") stored in join rows "
                    + "(\(join.joinTable)), which a set-based update does not write: fetch the objects, set it and "
                    + "save them")
        default:
            preconditionFailure("an assignment's target is a property")
        }
    }

    /// The SQL of the value an assignment gives `column`: a value bound as a save binds it
    /// (refused as a save refuses it), or an expression.
    private mutating func assignedValue(_ value: SQLNode, _ column: ColumnProperty, _ scope: Scope) throws -> String {
        if Self.readsJoins(value) {
            throw DBBError(
                .invalidOption, table: scope.mapping.tableName, property: column.name,
                "the update sets \(column.name) to a value read through a join, which an UPDATE of one table has "
                    + "no row of: read the values with a report, then update by them")
        }
        if value.aggregates {
            throw DBBError(
                .invalidOption, table: scope.mapping.tableName, property: column.name,
                "the update sets \(column.name) to an aggregate (COUNT, SUM…), which a single row has no value of: "
                    + "set it to a value a report computed")
        }
        if case .value(let stored) = value,
            let error = RowWriter.unstorable(
                stored, in: column.storageType, dialect, refusesValues: dialect.refusesValues)
        {
            throw error.about(table: scope.mapping.tableName, property: column.name)
        }
        return try render(value, scope, beside: Compared(property: column.name, type: column.storageType))
    }
}

extension SQLNode {
    /// Whether the node is or holds an aggregate outside a subquery: what a row of an
    /// `UPDATE` or `DELETE` has no value of.
    var aggregates: Bool {
        switch self {
        case .aggregate: true
        case .property, .keyColumn, .element, .value, .locale, .keyword, .exists: false
        case .prefix(_, let operand), .isNull(let operand, _), .inList(let operand, _, _),
            .inQuery(let operand, _, _), .like(let operand, _, _, _):
            operand.aggregates
        case .binary(let left, _, let right), .nullIfNull(let left, let right): left.aggregates || right.aggregates
        case .elements(_, let condition, _): condition?.aggregates ?? false
        case .function(_, let arguments): arguments.contains { $0.aggregates }
        case .joined(_, let node): node.aggregates
        }
    }

    /// Whether the node is a condition to the engine (a comparison, `AND`, `NOT`, `IS NULL`, `IN`,
    /// `LIKE`, `EXISTS`), rather than a value that is a `Bool` to Swift (a `Bool` column, a bound
    /// `true`), which ``DBBDialect/truth(_:)`` makes one.
    var isCondition: Bool {
        switch self {
        case .binary(_, let operation, _): operation.compares || operation == .and || operation == .or
        case .prefix(let word, _): word == "NOT "
        case .isNull, .inList, .inQuery, .exists, .elements, .like: true
        case .keyword(let sql): sql == "(1 = 1)"
        case .joined(_, let inner): inner.isCondition
        case .nullIfNull(_, let body): body.isCondition
        case .property, .keyColumn, .element, .value, .locale, .function, .aggregate: false
        }
    }

    /// Whether the node holds an aggregate of an aggregate outside a subquery.
    var nestsAggregates: Bool {
        switch self {
        case .aggregate(_, let argument, _, _): argument?.aggregates ?? false
        case .property, .keyColumn, .element, .value, .locale, .keyword, .exists: false
        case .prefix(_, let operand), .isNull(let operand, _), .inList(let operand, _, _),
            .inQuery(let operand, _, _), .like(let operand, _, _, _):
            operand.nestsAggregates
        case .binary(let left, _, let right), .nullIfNull(let left, let right):
            left.nestsAggregates || right.nestsAggregates
        case .elements(_, let condition, _): condition?.nestsAggregates ?? false
        case .function(_, let arguments): arguments.contains { $0.nestsAggregates }
        case .joined(_, let node): node.nestsAggregates
        }
    }
}
