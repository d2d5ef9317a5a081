import DBBFormat
import DBBLocale
import DBBSQLite

/// Writes an expression tree (``SQLNode``, ``SelectNode``) as the SQL of one dialect: its
/// quoting, its placeholders (numbered, in the order the values are bound), its spelling of
/// each type's comparison and of `LIKE`. Values are bound, never written into the text; an
/// equal value bound at the same spelling takes the same number, so that an expression
/// written twice (`dbb_week("day", $1)` in `SELECT` and in `GROUP BY`) is the same text.
///
/// The text depends only on the tree's shape and on which of its values are equal, not on the
/// values themselves.
struct SQLRenderer {
    let dialect: any DBBDialect
    /// The mapping of a class the tree reads (the query's own, a subquery's).
    let mappings: (DBBTableObject.Type) throws -> TableMapping
    /// The bound values, in placeholder order.
    private(set) var arguments: [DBBValue] = []
    /// How many values were bound, one per occurrence (an equal value bound again included).
    private(set) var occurrences = 0
    /// For each argument, the occurrence that bound it first (see ``RenderedQueries``).
    private(set) var firstOccurrences: [Int] = []
    private var numbers: [Binding: Int] = [:]
    /// An update whose expressions are guarded (``DBBDialect/guarded(_:_:canHoldNil:)``): the
    /// same update unguarded, with a `RETURNING` of `id` and, for each of ``checkedColumns``, the
    /// value it wrote when no save could have stored it — run when the guarded one fails, to
    /// name the row (and rolled back).
    var diagnosis: String?
    /// The columns whose values ``diagnosis`` returns, in its order after `id`.
    var checkedColumns: [ColumnProperty] = []

    private struct Binding: Hashable {
        let value: BoundValue
        let spelling: String
    }

    /// A column a value is compared with.
    struct Compared {
        let property: String
        let type: DBBStorageType
    }

    /// The table a part of the tree reads, and the join property whose rows an
    /// ``SQLNode/elements(_:_:negated:)`` test reads.
    struct Scope {
        let mapping: TableMapping
        var join: JoinProperty?
        /// What a column of the table is prefixed with: `nil` in a statement that reads one
        /// table (its columns bare), else the table's quoted name or its join's alias.
        var qualifier: String?
        /// The path of joins from the statement's class to this one (empty for the statement's own).
        var path = SQLJoinPath()
        /// The statement's joins, by path from its class (SQLRenderer+Joins.swift).
        var joins: [SQLJoinPath: JoinedTable] = [:]

        init(mapping: TableMapping, join: JoinProperty? = nil) {
            self.mapping = mapping
            self.join = join
        }

        /// The table, as a column is prefixed with it, or as its bare name.
        func table(_ dialect: any DBBDialect) -> String { qualifier ?? dialect.quote(mapping.tableName) }

        /// `column` of the table, prefixed when the statement reads more than one.
        func column(_ column: String, _ dialect: any DBBDialect) -> String {
            qualifier.map { $0 + "." + dialect.quote(column) } ?? dialect.quote(column)
        }
    }

    init(dialect: any DBBDialect, mappings: @escaping (DBBTableObject.Type) throws -> TableMapping) {
        self.dialect = dialect
        self.mappings = mappings
    }

    // MARK: - Statements

    /// `SELECT …` of `select`.
    mutating func statement(_ select: SelectNode) throws -> String {
        var scope = Scope(mapping: try mappings(select.source))
        let from = try from(select, &scope)
        var sql = select.distinct ? "SELECT DISTINCT " : "SELECT "
        sql += try select.columns.map { column throws in try selected(column, scope) }.joined(separator: ", ")
        sql += from
        if let filter = select.filter { sql += " WHERE " + (try condition(filter, scope)) }
        if !select.grouping.isEmpty {
            sql +=
                " GROUP BY "
                + (try select.grouping.map { node throws in try render(node, scope) }.joined(separator: ", "))
        }
        if let groupFilter = select.groupFilter { sql += " HAVING " + (try condition(groupFilter, scope)) }
        if !select.order.isEmpty { sql += " ORDER BY " + (try order(select.order, scope)) }
        sql += try page(limit: select.limit, offset: select.offset, scope.mapping)
        try refuseUnsharedShapes(select, scope)
        try checkBoundCount(scope)
        return sql
    }

    /// `node` as a condition: a `Bool` column or value as the engine tests one (``DBBDialect/truth(_:)``).
    mutating func condition(_ node: SQLNode, _ scope: Scope) throws -> String {
        let sql = try render(node, scope)
        return node.isCondition ? sql : dialect.truth(sql)
    }

    /// `LIMIT ? OFFSET ?`, bound; `""` for neither.
    /// - Throws: ``DBBError/Kind/invalidOption`` for a negative limit or offset.
    mutating func page(limit: Int?, offset: Int?, _ mapping: TableMapping) throws(DBBError) -> String {
        try SelectQuery.checkPage(limit: limit, offset: offset, table: mapping.tableName)
        guard limit != nil || (offset ?? 0) > 0 else { return "" }
        // SQLite takes no OFFSET without a LIMIT: the largest stands for none.
        var sql = " LIMIT " + bind(.integer(Int64(limit ?? Int(Int64.max))), "?")
        if let offset, offset > 0 { sql += " OFFSET " + bind(.integer(Int64(offset)), "?") }
        return sql
    }

    /// `ORDER BY` terms: `NULL` first ascending and last descending on every engine, and the
    /// order of a JSON property refused (the engines share none). In a statement that makes no
    /// join (a fetch of objects), a term that reads through references is the value its joins
    /// give the row (``correlated(_:_:)``).
    mutating func order(_ terms: [SQLOrder], _ scope: Scope) throws -> String {
        try terms.map { term throws in
            let correlated = scope.joins.isEmpty && Self.readsJoins(term.node)
            let sql: String
            if correlated {
                sql = try self.correlated(term.node, scope)
            } else {
                try refuseJSONOrder(term.node, scope)
                sql = try render(term.node, scope)
            }
            return sql + (term.descending ? " DESC" : " ASC")
                + (try correlated || nullable(term.node, scope) ? dialect.nullsOrder(descending: term.descending) : "")
        }.joined(separator: ", ")
    }

    /// Refuses an order by a JSON property.
    func refuseJSONOrder(_ node: SQLNode, _ scope: Scope) throws {
        let (node, inner) = try innermost(node, scope)
        if case .property(let keyPath) = node, let column = try resolved(keyPath, inner).column,
            case .json = column.storageType
        {
            throw DBBError(
                .invalidOption, table: inner.mapping.tableName, property: column.name,
                "the query sorts by \(column.name), a property stored as JSON, which has no order the backends "
                    + "share: sort by a property of its own that holds the value to sort by")
        }
    }

    /// An item of a select list: a property's column as it reads back exactly
    /// (``DBBDialect/selected(_:_:)``), any other expression as it is.
    private mutating func selected(_ node: SQLNode, _ scope: Scope) throws -> String {
        let (inner, innerScope) = try innermost(node, scope)
        if case .property(let keyPath) = inner, let column = try resolved(keyPath, innerScope).column {
            return dialect.selected(innerScope.column(column.column, dialect), column.storageType)
        }
        return try render(node, scope)
    }

    // MARK: - Expressions

    /// The SQL of `node`; `beside` is the column it is compared with, whose placeholder a
    /// value takes.
    mutating func render(_ node: SQLNode, _ scope: Scope, beside: Compared? = nil) throws -> String {
        switch node {
        case .property(let keyPath):
            let property = try resolved(keyPath, scope)
            if let column = property.column {
                return dialect.compared(scope.column(column.column, dialect), column.storageType)
            }
            let join = property.join!
            guard join.isReference else { throw Self.wholeArray(join, scope.mapping) }
            return JoinSQL(dialect: dialect).referencedID(join, owner: scope.mapping, as: scope.table(dialect))
        case .keyColumn(let name):
            return scope.column(name, dialect)
        case .element:
            guard let join = scope.join else { preconditionFailure("an array element outside its test") }
            return dialect.compared(
                dialect.quote(join.joinTable) + "." + dialect.quote(join.column), join.storageType)
        case .value(let value):
            return try bound(value, beside: beside, scope)
        case .locale(let identifier):
            do {
                _ = try DBBLocaleCalendar(localeIdentifier: identifier)
            } catch {
                throw DBBError(
                    .invalidValue, table: scope.mapping.tableName,
                    "the query's locale '\(identifier.prefix(80))' is not an available locale identifier: "
                        + "write one such as 'en_US', 'ru_RU' or 'de_DE'")
            }
            return bind(.text(identifier), "?")
        case .keyword(let sql):
            return sql
        case .prefix(let word, let operand):
            return word + "(" + (try word == "NOT " ? condition(operand, scope) : render(operand, scope)) + ")"
        case .binary(let left, let operation, let right):
            let (leftType, rightType) =
                operation.compares ? (try column(left, scope), try column(right, scope)) : (nil, nil)
            let logical = operation == .and || operation == .or
            let (lhs, rhs) = (
                try operand(left, scope, beside: rightType, within: operation),
                try operand(right, scope, beside: leftType, within: operation)
            )
            return (logical && !left.isCondition ? dialect.truth(lhs) : lhs) + " \(operation.rawValue) "
                + (logical && !right.isCondition ? dialect.truth(rhs) : rhs)
        case .isNull(let operand, let negated):
            if case .property(let keyPath) = operand, let join = try resolved(keyPath, scope).join, !join.isReference {
                // An array is "null" when it has no element.
                return try elements(keyPath, nil, negated: !negated, scope)
            }
            return try self.operand(operand, scope) + (negated ? " IS NOT NULL" : " IS NULL")
        case .inList(let operand, let values, let negated):
            guard !values.isEmpty else { return negated ? "1 = 1" : "1 = 0" }
            let type = try column(operand, scope)
            let tested = try self.operand(operand, scope)
            var list: [String] = []
            list.reserveCapacity(values.count)
            for value in values { list.append(try bound(value, beside: type, scope)) }
            if arguments.count > PlaceholderSQL.highestNumber { throw Self.tooManyValues(values.count, type, scope) }
            return tested + (negated ? " NOT IN (" : " IN (") + list.joined(separator: ", ") + ")"
        case .inQuery(let operand, let select, let negated):
            return try self.operand(operand, scope) + (negated ? " NOT IN (" : " IN (") + statement(select) + ")"
        case .exists(let select, let negated):
            return (negated ? "NOT EXISTS (" : "EXISTS (") + (try statement(select)) + ")"
        case .elements(let keyPath, let condition, let negated):
            return try elements(keyPath, condition, negated: negated, scope)
        case .like(let operand, let pattern, let ignoringCase, let negated):
            if pattern.utf8.contains(0) { throw Self.nulPattern(try column(operand, scope), scope.mapping) }
            let tested = try self.operand(operand, scope)
            let sql = dialect.like(
                tested, try bound(.text(dialect.likePattern(pattern, ignoringCase: ignoringCase)), beside: nil, scope),
                ignoringCase: ignoringCase)
            return negated ? "NOT (" + sql + ")" : sql
        case .function(let name, let arguments):
            return name + "("
                + (try arguments.map { argument throws in try render(argument, scope) })
                .joined(separator: ", ") + ")"
        case .nullIfNull(let tested, let body):
            return "CASE WHEN " + (try operand(tested, scope)) + " IS NULL THEN NULL ELSE " + (try render(body, scope))
                + " END"
        case .aggregate(let aggregate, let argument, let distinct, let result):
            let sql =
                aggregate.rawValue + "(" + (distinct ? "DISTINCT " : "")
                + (try argument.map { argument throws in try render(argument, scope) } ?? "*") + ")"
            return result.map { dialect.result(sql, as: $0) } ?? sql
        case .joined(let path, let node):
            return try render(node, joined(path, scope), beside: beside)
        }
    }

    /// `node` as the operand of an operator: in parentheses unless it is one term, or a chain
    /// of the `AND` or `OR` it is an operand of (`a AND b AND c`).
    private mutating func operand(
        _ node: SQLNode, _ scope: Scope, beside: Compared? = nil, within parent: SQLOperator? = nil
    ) throws -> String {
        if case .joined(let path, let node) = node {
            return try operand(node, joined(path, scope), beside: beside, within: parent)
        }
        let sql = try render(node, scope, beside: beside)
        switch node {
        case .binary(_, let operation, _) where operation == parent && (operation == .and || operation == .or):
            return sql
        case .property, .keyColumn, .element, .value, .locale, .keyword, .function, .nullIfNull, .aggregate:
            return sql
        case .exists(_, let negated), .elements(_, _, let negated):
            return negated ? "(" + sql + ")" : sql
        default:
            return "(" + sql + ")"
        }
    }

    /// `EXISTS (SELECT 1 FROM <join table> WHERE <owner> = <table>.id AND <condition>)`, or
    /// `NOT EXISTS`: whether an element of the array `keyPath` reaches satisfies `condition`.
    private mutating func elements(_ keyPath: AnyKeyPath, _ condition: SQLNode?, negated: Bool, _ scope: Scope) throws
        -> String
    {
        guard let join = try resolved(keyPath, scope).join, !join.isReference else {
            let name = scope.mapping.propertyName(for: keyPath) ?? "\(keyPath)"
            throw DBBError(
                .invalidOption, table: scope.mapping.tableName, property: name,
                "the query tests \(name) as an array, which \(scope.mapping.objectType) does not map it as")
        }
        let joinTable = dialect.quote(join.joinTable)
        var sql =
            (negated ? "NOT EXISTS (SELECT 1 FROM " : "EXISTS (SELECT 1 FROM ") + joinTable + " WHERE " + joinTable
            + "."
            + dialect.quote(join.parentColumn) + " = " + scope.table(dialect) + "." + dialect.quote(SchemaSQL.idColumn)
        if let condition {
            var inner = scope
            inner.join = join
            sql += " AND " + (try operand(condition, inner))
        }
        return sql + ")"
    }

    // MARK: - Values

    /// The placeholder of `value`, bound at the placeholder of the column `beside`'s type.
    /// - Throws: ``DBBError/Kind/invalidValue`` naming the property for NaN (`Double.nan`,
    ///   `Decimal.nan`), which the engines compare unlike each other (SQLite binds it as `NULL`,
    ///   PostgreSQL orders it above every number), and for a value the engine cannot hold
    ///   (PostgreSQL's text refuses NUL).
    private mutating func bound(_ value: DBBValue, beside column: Compared?, _ scope: Scope) throws(DBBError)
        -> String
    {
        if case .real(let real) = value, real.isNaN {
            let nan =
                switch column?.type {
                case .decimal, .decimalArray: "Decimal.nan"
                default: "NaN"
                }
            throw DBBError(
                .invalidValue, table: scope.mapping.tableName, property: column?.property,
                "the query compares \(column?.property ?? "a value") with \(nan), which no stored value is and no "
                    + "backend compares alike: test for nil, or leave the condition out")
        }
        if dialect.refusesValues, let refusal = dialect.refusal(of: value) {
            throw DBBError(
                .invalidValue, table: scope.mapping.tableName, property: column?.property,
                "the query's value \(column.map { "for \($0.property) " } ?? "")cannot be bound: \(refusal.message)")
        }
        return bind(value, column.map { dialect.parameter($0.type) } ?? "?")
    }

    /// The placeholder of `value` in `spelling` (`?`, `CAST(? AS "numeric")`): the number of an
    /// equal value bound so before, or the next one.
    private mutating func bind(_ value: DBBValue, _ spelling: String) -> String {
        let key = Binding(value: BoundValue(value: value), spelling: spelling)
        let number: Int
        if let known = numbers[key] {
            number = known
        } else {
            arguments.append(value)
            firstOccurrences.append(occurrences)
            number = arguments.count
            numbers[key] = number
        }
        occurrences += 1
        let placeholder = dialect.placeholder(number)
        return spelling == "?" ? placeholder : spelling.replacingOccurrences(of: "?", with: placeholder)
    }

    // MARK: - Properties

    /// The column or join property `keyPath` reaches in the scope's class.
    /// - Throws: ``DBBError/Kind/unknownProperty`` naming the class and the key path.
    func resolved(_ keyPath: AnyKeyPath, _ scope: Scope) throws(DBBError) -> (
        column: ColumnProperty?, join: JoinProperty?
    ) {
        let mapping = scope.mapping
        if let name = mapping.propertyName(for: keyPath) {
            if let column = mapping.column(named: name) { return (column, nil) }
            if let join = mapping.join(named: name) { return (nil, join) }
        }
        if let joined = scope.joins[scope.path] {
            throw DBBError(
                .unknownProperty, table: mapping.tableName,
                "the query's key path \(keyPath) reaches no property that \(mapping.objectType) (joined as "
                    + "\(joined.name)) maps itself: a @Transient property has no column, and a property its superclass "
                    + "maps cannot be named by key path through the subclass yet: read it with SQL (manager.query)")
        }
        throw DBBError(
            .unknownProperty, table: mapping.tableName,
            "the query's key path \(keyPath) reaches no property that \(mapping.objectType) maps itself; a "
                + "property its superclass maps cannot be named by key path through the subclass yet: name it in a "
                + "string condition (DBBQueryOptions(conditions: [\"column = ?\"]))")
    }

    /// The property and storage type of the column `node` is, if it is one: what a value
    /// compared with it is bound as, and what an error about that value names.
    private func column(_ node: SQLNode, _ scope: Scope) throws -> Compared? {
        switch node {
        case .property(let keyPath):
            let property = try resolved(keyPath, scope)
            if let column = property.column { return Compared(property: column.name, type: column.storageType) }
            return property.join.map { Compared(property: $0.name, type: $0.storageType) }
        case .element: return scope.join.map { Compared(property: $0.name, type: $0.storageType) }
        case .joined(let path, let node): return try column(node, joined(path, scope))
        default: return nil
        }
    }

    /// Whether `node` may be `NULL`: an optional column not declared `NOT NULL`, the times of
    /// creation and modification, any expression but `id`.
    private func nullable(_ node: SQLNode, _ scope: Scope) throws -> Bool {
        switch node {
        case .joined(let path, let node):
            // A left join's columns are NULL where it has no row.
            if (scope.path + path).steps.contains(where: \.left) { return true }
            return try nullable(node, joined(path, scope))
        case .property(let keyPath):
            guard let column = try resolved(keyPath, scope).column else { return true }
            return !column.isNotNull && column.defaultValue == .null
        case .keyColumn(let name): return name != SchemaSQL.idColumn
        default: return true
        }
    }

    /// The error of a `LIKE` pattern holding NUL, which no engine matches: SQLite's `LIKE` and
    /// `GLOB` read a pattern only up to its first NUL (`'a\0b'` would match `a`), and
    /// PostgreSQL's text holds none.
    private static func nulPattern(_ column: Compared?, _ mapping: TableMapping) -> DBBError {
        DBBError(
            .invalidValue, table: mapping.tableName, property: column?.property,
            "the query's LIKE pattern\(column.map { " for \($0.property)" } ?? "") holds NUL (\\0), which no backend "
                + "matches (SQLite reads a pattern only up to it, PostgreSQL stores no NUL in text): compare such text "
                + "with == instead")
    }

    /// Refuses a statement that binds more values than SQLite's default build takes (32,766;
    /// PostgreSQL takes 65,535), alike on every backend: an `IN` list that ends past the limit
    /// is named where it is rendered; values bound after a long list are counted here.
    func checkBoundCount(_ scope: Scope) throws(DBBError) {
        guard arguments.count > PlaceholderSQL.highestNumber else { return }
        throw DBBError(
            .invalidOption, table: scope.mapping.tableName,
            "the query binds \(arguments.count) values, more than the \(PlaceholderSQL.highestNumber) a statement holds "
                + "on every backend: split its IN lists and query once per part, or select the values with a "
                + "subquery (.in(\\.x, Other.select(…)))")
    }

    /// The error of a statement whose `IN` lists bind more values than SQLite's default build
    /// takes (32,766; PostgreSQL takes 65,535): refused alike on every backend.
    private static func tooManyValues(_ count: Int, _ column: Compared?, _ scope: Scope) -> DBBError {
        DBBError(
            .invalidOption, table: scope.mapping.tableName, property: column?.property,
            "the query's IN list\(column.map { " for \($0.property)" } ?? "") of \(count) values takes the statement "
                + "past \(PlaceholderSQL.highestNumber) bound values, more than a statement holds on every backend: "
                + "split the list and query once per part, or select the values with a subquery "
                + "(.in(\\.x, Other.select(…)))")
    }

    /// The error of an array property used as one value.
    private static func wholeArray(_ join: JoinProperty, _ mapping: TableMapping) -> DBBError {
        DBBError(
            .invalidOption, table: mapping.tableName, property: join.name,
            "the query uses the array property \(join.name) as one value: test its elements with "
                + ".contains(\\.\(join.name), element), or whether it has any with .isNull or .isNotNull")
    }
}
