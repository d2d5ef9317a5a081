import DBBSQLite

/// What the SQL text of a ``SelectNode`` depends on — its classes, key paths, operators,
/// functions, locales, list lengths, which clauses it has, and which of its values are equal —
/// and not the values it binds: the key under which ``RenderedQueries`` keeps its SQL. Two
/// selects of one shape render to the same text and bind their values at the same places.
///
/// ``init(_:dialect:)`` walks the tree in the order ``SQLRenderer`` binds, so that
/// ``values`` lists every value the renderer binds, in its order, one per occurrence.
struct QueryShape: Hashable {
    /// The tree without its values, in walk order.
    private(set) var tokens: [Token] = []
    /// For each bound value (in ``values``), the position of the first value equal to it: equal
    /// values share a placeholder (see ``SQLRenderer``), so that much of the values is shape.
    private(set) var equalities: [Int] = []
    /// Every value the renderer binds, one per occurrence, in binding order; not part of the key.
    private(set) var values: [DBBValue] = []
    /// Whether a value needs the renderer's checks (NaN, a value the backend cannot hold, a
    /// negative page), which name the column it is compared with: such a select is rendered, not
    /// looked up.
    private(set) var needsChecks = false

    /// A hash of the tokens' kinds and counts, made during the walk: hashing the tokens
    /// themselves (key paths, texts) would cost more than the rest of a lookup.
    private var digest = 0

    /// One element of a tree's shape.
    enum Token: Equatable {
        case kind(UInt8)
        case source(ObjectIdentifier)
        case keyPath(AnyKeyPath)
        case text(String)
        case count(Int)

        static func == (lhs: Token, rhs: Token) -> Bool {
            switch (lhs, rhs) {
            case (.kind(let a), .kind(let b)): a == b
            case (.source(let a), .source(let b)): a == b
            // A key path literal is one object wherever it is evaluated outside generic code.
            case (.keyPath(let a), .keyPath(let b)): a === b || a == b
            case (.text(let a), .text(let b)): a == b
            case (.count(let a), .count(let b)): a == b
            default: false
            }
        }
    }

    init(_ select: SelectNode, dialect: any DBBDialect) {
        tokens.reserveCapacity(32)
        walk(select, dialect)
        equalities = Self.equalities(of: values)
    }

    /// The shape of a typed fetch of objects (``DBBTableObjectFetching/instances(where:sortedBy:limit:offset:manager:)``):
    /// its condition and order; its page is written into the text (``SelectQuery``), so it is shape.
    init(
        objectsOf source: DBBTableObject.Type, filter: SQLNode?, order: [SQLOrder], limit: Int?, offset: Int?,
        dialect: any DBBDialect
    ) {
        tokens.reserveCapacity(16)
        var select = SelectNode(source: source, columns: [])
        select.filter = filter
        select.order = order
        add(.kind(255))
        walk(select, dialect)
        add(.count(limit ?? -1))
        add(.count(offset ?? 0))
        if (limit ?? 0) < 0 || (offset ?? 0) < 0 { needsChecks = true }
        equalities = Self.equalities(of: values)
    }

    /// The shape of one expression, with its values: what ``isSame(as:)`` compares.
    init(expression node: SQLNode, dialect: any DBBDialect) {
        walk(node, dialect)
    }

    /// Whether two expressions are the same tree with the same values (``BoundValue``'s
    /// equality): one expression to the engine, as a select list item and its `GROUP BY` must be.
    func isSame(as other: QueryShape) -> Bool {
        digest == other.digest && tokens == other.tokens && values.count == other.values.count
            && zip(values, other.values).allSatisfy { BoundValue(value: $0) == BoundValue(value: $1) }
    }

    /// The shape alone, to keep as a key (without the values it was walked with).
    var withoutValues: QueryShape {
        var shape = self
        shape.values = []
        return shape
    }

    static func == (lhs: QueryShape, rhs: QueryShape) -> Bool {
        lhs.digest == rhs.digest && lhs.equalities == rhs.equalities && lhs.tokens == rhs.tokens
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
        hasher.combine(equalities.count)
    }

    /// Adds `token` to the shape and its kind or count to ``digest``.
    private mutating func add(_ token: Token) {
        let part =
            switch token {
            case .kind(let kind): Int(kind)
            case .count(let count): count &+ 1_000
            case .text(let text): text.utf8.count &+ 2_000
            case .keyPath: 3_000
            case .source(let source): Int(bitPattern: UInt(bitPattern: source))
            }
        digest = digest &* 1_000_003 &+ part
        tokens.append(token)
    }

    // MARK: - The walk (the renderer's order)

    private mutating func walk(_ select: SelectNode, _ dialect: any DBBDialect) {
        add(.source(ObjectIdentifier(select.source)))
        add(.count(select.columns.count))
        add(.kind(select.distinct ? 1 : 0))
        // The joins it makes whether or not an expression reads through them (no values).
        add(.count(select.joins.count))
        for path in select.joins { walk(path) }
        for column in select.columns { walk(column, dialect) }
        walk(optional: select.filter, dialect)
        add(.count(select.grouping.count))
        for node in select.grouping { walk(node, dialect) }
        walk(optional: select.groupFilter, dialect)
        add(.count(select.order.count))
        for term in select.order {
            add(.kind(term.descending ? 1 : 0))
            walk(term.node, dialect)
        }
        // SQLRenderer.page: LIMIT when there is a limit or an offset, OFFSET when it is positive.
        if let limit = select.limit, limit < 0 { needsChecks = true }
        if let offset = select.offset, offset < 0 { needsChecks = true }
        let offset = select.offset ?? 0
        add(.kind((select.limit != nil ? 1 : 0) | (offset > 0 ? 2 : 0)))
        if select.limit != nil || offset > 0 { bind(.integer(Int64(select.limit ?? Int(Int64.max))), dialect) }
        if offset > 0 { bind(.integer(Int64(offset)), dialect) }
    }

    private mutating func walk(optional node: SQLNode?, _ dialect: any DBBDialect) {
        guard let node else { return add(.kind(0)) }
        add(.kind(1))
        walk(node, dialect)
    }

    private mutating func walk(_ node: SQLNode, _ dialect: any DBBDialect) {
        switch node {
        case .property(let keyPath):
            add(.kind(10))
            add(.keyPath(keyPath))
        case .keyColumn(let name):
            add(.kind(11))
            add(.text(name))
        case .element:
            add(.kind(12))
        case .value(let value):
            add(.kind(13))
            bind(value, dialect)
        case .locale(let identifier):
            // The identifier is shape (checked once, when the shape is first rendered) and bound.
            add(.kind(14))
            add(.text(identifier))
            values.append(.text(identifier))
        case .keyword(let sql):
            add(.kind(15))
            add(.text(sql))
        case .prefix(let word, let operand):
            add(.kind(16))
            add(.text(word))
            walk(operand, dialect)
        case .binary(let left, let operation, let right):
            add(.kind(17))
            add(.text(operation.rawValue))
            walk(left, dialect)
            walk(right, dialect)
        case .isNull(let operand, let negated):
            add(.kind(negated ? 19 : 18))
            walk(operand, dialect)
        case .inList(let operand, let list, let negated):
            add(.kind(negated ? 21 : 20))
            add(.count(list.count))
            // SQLRenderer writes an empty list as a constant, without its operand.
            guard !list.isEmpty else { return }
            walk(operand, dialect)
            for value in list { bind(value, dialect) }
        case .inQuery(let operand, let select, let negated):
            add(.kind(negated ? 23 : 22))
            walk(operand, dialect)
            walk(select, dialect)
        case .exists(let select, let negated):
            add(.kind(negated ? 25 : 24))
            walk(select, dialect)
        case .elements(let keyPath, let condition, let negated):
            add(.kind(negated ? 27 : 26))
            add(.keyPath(keyPath))
            walk(optional: condition, dialect)
        case .like(let operand, let pattern, let ignoringCase, let negated):
            add(.kind((ignoringCase ? 1 : 0) | (negated ? 2 : 0) | 28))
            walk(operand, dialect)
            // A pattern holding NUL is the renderer's to refuse.
            if pattern.utf8.contains(0) { needsChecks = true }
            bind(.text(dialect.likePattern(pattern, ignoringCase: ignoringCase)), dialect)
        case .function(let name, let arguments):
            add(.kind(32))
            add(.text(name))
            add(.count(arguments.count))
            for argument in arguments { walk(argument, dialect) }
        case .nullIfNull(let tested, let body):
            add(.kind(33))
            walk(tested, dialect)
            walk(body, dialect)
        case .aggregate(let aggregate, let argument, let distinct, let result):
            add(.kind(distinct ? 35 : 34))
            add(.text(aggregate.rawValue))
            add(.text(result?.description ?? ""))
            walk(optional: argument, dialect)
        case .joined(let path, let inner):
            add(.kind(36))
            walk(path)
            walk(inner, dialect)
        }
    }

    /// A join path: its steps' key paths and kinds (the aliases and joins the renderer writes).
    private mutating func walk(_ path: SQLJoinPath) {
        add(.count(path.steps.count))
        for step in path.steps {
            add(.keyPath(step.keyPath))
            add(.kind(step.left ? 1 : 0))
        }
    }

    /// A value the renderer binds; marks the shape for the renderer's checks when it would refuse it.
    private mutating func bind(_ value: DBBValue, _ dialect: any DBBDialect) {
        if case .real(let real) = value, real.isNaN { needsChecks = true }
        if dialect.refusesValues, dialect.refusal(of: value) != nil { needsChecks = true }
        values.append(value)
    }

    /// For each value, the position of the first value equal to it (``BoundValue``'s equality).
    private static func equalities(of values: [DBBValue]) -> [Int] {
        guard values.count > 1 else { return values.isEmpty ? [] : [0] }
        var result: [Int] = []
        result.reserveCapacity(values.count)
        if values.count <= 16 {
            for (index, value) in values.enumerated() {
                let bound = BoundValue(value: value)
                result.append(values[..<index].firstIndex { BoundValue(value: $0) == bound } ?? index)
            }
        } else {
            var first: [BoundValue: Int] = [:]
            for (index, value) in values.enumerated() {
                let bound = BoundValue(value: value)
                if let known = first[bound] {
                    result.append(known)
                } else {
                    first[bound] = index
                    result.append(index)
                }
            }
        }
        return result
    }
}
