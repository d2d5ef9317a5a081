import DBBBuilder
import Foundation

/// One run of generated queries against one database, and what differed.
struct DifferentialRun {
    enum Kind: CaseIterable { case grouped, whole, rows, distinct, fetch }

    let manager: DBBManager
    let samples: [Sample]
    let seed: UInt64
    let keys = DifferentialKey.all()
    /// What each key gives for each sample (by id), computed in Swift once.
    let keyAnswers: [[Int64: String?]]
    private(set) var failures: [String] = []
    private(set) var nonEmpty = 0
    private(set) var kinds: Set<Kind> = []

    init(manager: DBBManager, samples: [Sample], seed: UInt64) {
        self.manager = manager
        self.samples = samples
        self.seed = seed
        keyAnswers = keys.map { key in Dictionary(uniqueKeysWithValues: samples.map { ($0.id, key.answer($0)) }) }
    }

    /// Generates query `number`, runs it and compares it with Swift's answer.
    mutating func query(_ number: Int, _ random: inout SeededRandom) throws {
        let keyIndex = Int.random(in: 0..<keys.count, using: &random)
        let (key, answers) = (keys[keyIndex], keyAnswers[keyIndex])
        let condition = DifferentialConditions(samples: samples, keys: keys, keyAnswers: keyAnswers).random(&random)
        let kept = samples.filter { condition.answer($0) == true }
        let kind = random.pick([Kind.grouped, .grouped, .grouped, .whole, .rows, .rows, .distinct, .fetch, .fetch])
        kinds.insert(kind)
        let described = "query \(number) (seed \(seed)), \(kind) by \(key.text) where \(condition.text)"
        do {
            let question = Question(key: key, answers: answers, condition: condition, kept: kept)
            let difference: String?
            switch kind {
            case .grouped: difference = try grouped(question, &random)
            case .whole: difference = try whole(question, &random)
            case .rows: difference = try rows(question, &random)
            case .distinct: difference = try distinct(question, &random)
            case .fetch: difference = try fetch(question, &random)
            }
            if let difference { failures.append("\(described): \(difference)") }
        } catch {
            failures.append("\(described): threw \(error)")
        }
    }

    // MARK: - Kinds of query

    /// What a generated query asks: its key (and Swift's value of it per sample), its
    /// condition, and the samples Swift finds satisfy it.
    struct Question {
        let key: DifferentialKey
        let answers: [Int64: String?]
        let condition: DifferentialCondition
        let kept: [Sample]
    }

    /// A report grouped by the key: a count, an integer, a double and a date aggregate, maybe
    /// HAVING, ordered by the key or an aggregate, maybe a page.
    private mutating func grouped(_ question: Question, _ random: inout SeededRandom) throws -> String? {
        let (key, answers, condition, kept) = (question.key, question.answers, question.condition, question.kept)
        let chosen = DifferentialChoice(key, answers, &random)
        var query = Sample.select(
            key.expression, chosen.count.expression, chosen.integer.expression, chosen.double.expression,
            chosen.date.expression
        )
        .where(condition.condition).group(by: key.expression)
        var having: ([Sample]) -> Bool = { _ in true }
        var text = chosen.text
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let least = Int.random(in: 1...4, using: &random)
            query = query.having(.count() >= least)
            having = { $0.count >= least }
            text += " HAVING count >= \(least)"
        case 1:
            let above = Int.random(in: -500...500, using: &random)
            query = query.having(DBBExpression<Sample, Int>.sum(\.amount) > above)
            having = { $0.reduce(0) { $0 + $1.amount } > above }
            text += " HAVING sum(amount) > \(above)"
        case 2:
            let below = Int.random(in: -40...40, using: &random)
            query = query.having(
                DBBExpression<Sample, Int>.max(\.score) < below || DBBExpression<Sample, Int>.count(\.score) == 0)
            having = { members in members.compactMap(\.score).max().map { $0 < below } ?? true }
            text += " HAVING max(score) < \(below) OR count(score) = 0"
        default: break
        }
        let groups = Dictionary(grouping: kept) { answers[$0.id]!.exact }.filter { having($0.value) }
        var expected = groups.map { key, members in
            chosen.report(key?.text, members)
        }
        let ordered = key.sortable && random.chance(80)
        if ordered {
            let descending = random.chance(40)
            if random.chance(50) {
                query = query.order(by: descending ? .descending(key.expression) : .ascending(key.expression))
                expected.sort { Self.ascending($0.key, $1.key) != descending && $0.key.exact != $1.key.exact }
                text += " ORDER BY key \(descending ? "DESC" : "ASC")"
            } else {
                query = query.order(by: .descending(chosen.count.expression), .ascending(key.expression))
                expected.sort { $0.count != $1.count ? $0.count > $1.count : Self.ascending($0.key, $1.key) }
                text += " ORDER BY count DESC, key"
            }
            if random.chance(40) { Self.page(&query, &expected, &text, limits: 0...6, offsets: 0...4, &random) }
        }
        var actual = try query.rows(manager).map {
            Report(key: $0.0, count: $0.1, integer: $0.2, double: $0.3, date: $0.4, tolerance: 0)
        }
        if !ordered {
            expected.sort { Self.ascending($0.key, $1.key) }
            actual.sort { Self.ascending($0.key, $1.key) }
        }
        if !actual.isEmpty { nonEmpty += 1 }
        return compare(actual, expected, text) { try query.sql(on: manager) }
    }

    /// The aggregates of every kept sample: one row, even of none.
    private mutating func whole(_ question: Question, _ random: inout SeededRandom) throws -> String? {
        let (key, answers, condition, kept) = (question.key, question.answers, question.condition, question.kept)
        let chosen = DifferentialChoice(key, answers, &random)
        let query = Sample.select(
            chosen.count.expression, chosen.integer.expression, chosen.double.expression, chosen.date.expression
        )
        .where(condition.condition)
        let actual = try query.rows(manager).map {
            Report(key: nil, count: $0.0, integer: $0.1, double: $0.2, date: $0.3, tolerance: 0)
        }
        let expected = [chosen.report(nil, kept)]
        if !kept.isEmpty { nonEmpty += 1 }
        return compare(actual, expected, chosen.text) {
            try query.sql(on: manager)
        }
    }

    /// Rows, not groups: id, the key, arithmetic, `COALESCE` and the label, ordered by the key
    /// (when it sorts alike everywhere) and id, maybe a page.
    private mutating func rows(_ question: Question, _ random: inout SeededRandom) throws -> String? {
        let (key, answers, condition, kept) = (question.key, question.answers, question.condition, question.kept)
        let amount = DBBExpression<Sample, Int>.column(\.amount)
        var query = Sample.select(
            .column(\.id), key.expression, amount * 2 - amount / 3, DBBExpression<Sample, Int>.coalesce(\.score, -1),
            .column(\.label)
        ).where(condition.condition)
        typealias Row = (id: Int64, key: String?, arithmetic: Int, score: Int, label: String?)
        var expected: [Row] = kept.map {
            ($0.id, answers[$0.id]!, $0.amount * 2 - $0.amount / 3, $0.score ?? -1, $0.label)
        }
        var text = "id, key, amount * 2 - amount / 3, coalesce(score, -1), label"
        let byKey = key.sortable && random.chance(60)
        if byKey {
            query = query.order(by: .ascending(key.expression), .descending(\.id))
            expected.sort { $0.key.exact != $1.key.exact ? Self.ascending($0.key, $1.key) : $0.id > $1.id }
            text += " ORDER BY key, id DESC"
        } else {
            query = query.order(by: .descending(\.id))
            expected.sort { $0.id > $1.id }
            text += " ORDER BY id DESC"
        }
        if random.chance(50) { Self.page(&query, &expected, &text, limits: 0...30, offsets: 0...40, &random) }
        let actual = try query.rows(manager)
        if !actual.isEmpty { nonEmpty += 1 }
        let same =
            actual.count == expected.count
            && zip(actual, expected).allSatisfy {
                $0.0 == $1.id && $0.1.exact == $1.key.exact && $0.2 == $1.arithmetic && $0.3 == $1.score
                    && $0.4.exact == $1.label.exact
            }
        return same
            ? nil : difference(actual.map { "\($0)" }, expected.map { "\($0)" }, text) { try query.sql(on: manager) }
    }

    /// `SELECT DISTINCT key`, as a set, or ordered and paged when the key sorts alike everywhere.
    private mutating func distinct(_ question: Question, _ random: inout SeededRandom) throws -> String? {
        let (key, answers, condition, kept) = (question.key, question.answers, question.condition, question.kept)
        var query = Sample.select(key.expression).where(condition.condition).distinct()
        var expected = Set(kept.map { answers[$0.id]!.exact }).map { $0?.text }.sorted(by: Self.ascending)
        var text = "DISTINCT key"
        if key.sortable {
            let descending = random.chance(50)
            query = query.order(by: descending ? .descending(key.expression) : .ascending(key.expression))
            if descending { expected.reverse() }
            text += " ORDER BY key \(descending ? "DESC" : "ASC")"
            Self.page(&query, &expected, &text, limits: 1...10, offsets: 0...3, &random)
        }
        var actual = try query.rows(manager)
        if !key.sortable { actual.sort(by: Self.ascending) }
        if !actual.isEmpty { nonEmpty += 1 }
        return actual.map(\.exact) == expected.map(\.exact)
            ? nil
            : difference(actual.map { "\($0 ?? "nil")" }, expected.map { "\($0 ?? "nil")" }, text) {
                try query.sql(on: manager)
            }
    }

    /// A typed fetch of objects: sorted by a column (its `NULL`s first ascending, last
    /// descending) or the key, then id, maybe a page; the ids compared.
    private mutating func fetch(_ question: Question, _ random: inout SeededRandom) throws -> String? {
        let (key, answers, condition, kept) = (question.key, question.answers, question.condition, question.kept)
        let descending = random.chance(50)
        var expected = kept
        var sorting = DBBSort<Sample>.ascending(\.id)
        var text = ""
        func order<Value>(_ value: @escaping (Sample) -> Value?, _ less: @escaping (Value, Value) -> Bool)
            -> (Sample, Sample) -> Bool
        {
            { a, b in
                switch (value(a), value(b)) {
                case (nil, nil): return a.id < b.id
                case (nil, _): return !descending
                case (_, nil): return descending
                case (let x?, let y?):
                    if less(x, y) { return !descending }
                    if less(y, x) { return descending }
                    return a.id < b.id
                }
            }
        }
        /// The sort by a property, and Swift's order of the kept samples by its value.
        func by<Property, Value: Comparable>(
            _ name: String, _ property: KeyPath<Sample, Property>, _ value: @escaping (Sample) -> Value?
        ) {
            sorting = descending ? .descending(property) : .ascending(property)
            (text, expected) = (name, kept.sorted(by: order(value, <)))
        }
        switch Int.random(in: 0..<6, using: &random) {
        case 0: by("amount", \.amount) { $0.amount }
        case 1: by("score", \.score) { $0.score }
        case 2: by("day", \.day) { $0.day }
        case 3: by("ratio", \.ratio) { $0.ratio }
        case 4: by("big", \.big) { $0.big }
        default:
            if key.sortable {
                sorting = descending ? .descending(key.expression) : .ascending(key.expression)
                (text, expected) = ("key", kept.sorted(by: order({ answers[$0.id]!.exact }, <)))
            } else {
                by("weight", \.weight) { $0.weight }
            }
        }
        let paged = random.chance(50)
        let (limit, offset) = (Int.random(in: 0...25, using: &random), Int.random(in: 0...30, using: &random))
        if paged { expected = Array(expected.dropFirst(offset).prefix(limit)) }
        let fetched = try Sample.instances(
            where: condition.condition, sortedBy: [sorting, .ascending(\.id)], limit: paged ? limit : nil,
            offset: paged ? offset : nil, manager: manager)
        if !fetched.isEmpty { nonEmpty += 1 }
        let actual = fetched.map(\.id)
        return actual == expected.map(\.id)
            ? nil
            : difference(
                actual.map { "\($0)" }, expected.map { "\($0.id)" },
                "instances sorted by \(text) \(descending ? "DESC" : "ASC"), id\(paged ? " LIMIT \(limit) OFFSET \(offset)" : "")"
            )
    }

    /// A page of the query at random (`LIMIT`, `OFFSET`), and the same page of Swift's rows.
    static func page<Row, each Value>(
        _ query: inout DBBSelect<Sample, repeat each Value>, _ expected: inout [Row], _ text: inout String,
        limits: ClosedRange<Int>, offsets: ClosedRange<Int>, _ random: inout SeededRandom
    ) {
        let (limit, offset) = (Int.random(in: limits, using: &random), Int.random(in: offsets, using: &random))
        query = query.limit(limit).offset(offset)
        expected = Array(expected.dropFirst(offset).prefix(limit))
        text += " LIMIT \(limit) OFFSET \(offset)"
    }

    // MARK: - Comparing

    /// A row of a report, as the backend gives it or as Swift computes it.
    struct Report: CustomStringConvertible {
        let key: String?
        let count: Int
        let integer: Int?
        let double: Double?
        let date: Date?
        let tolerance: Double

        var description: String {
            "(\(key.map { String(reflecting: $0) } ?? "nil"), \(count), \(integer.map(String.init) ?? "nil"), "
                + "\(double.map { "\($0)" } ?? "nil"), \(date.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil"))"
        }

        func matches(_ expected: Report) -> Bool {
            key.exact == expected.key.exact && count == expected.count && integer == expected.integer
                && DifferentialAggregates.close(double, expected.double, expected.tolerance) && date == expected.date
        }
    }

    private func compare(
        _ actual: [Report], _ expected: [Report], _ text: String, _ sql: () throws -> DBBQuerySQL
    ) -> String? {
        if actual.count == expected.count, zip(actual, expected).allSatisfy({ $0.matches($1) }) { return nil }
        return difference(actual.map(\.description), expected.map(\.description), text, sql)
    }

    /// Where `actual` first differs from `expected`, with the query.
    private func difference(
        _ actual: [String], _ expected: [String], _ text: String, _ sql: () throws -> DBBQuerySQL? = { nil }
    ) -> String {
        let first =
            zip(actual, expected).enumerated().first { $1.0 != $1.1 }?.offset ?? min(actual.count, expected.count)
        return "\(text): \(actual.count) rows, Swift \(expected.count); first difference at \(first): "
            + "\(first < actual.count ? actual[first] : "none") ≠ Swift's \(first < expected.count ? expected[first] : "none")"
            + ((try? sql()).flatMap { $0 }.map { "\n  SQL: \($0)" } ?? "")
    }

    /// `nil` first, then ascending by bytes: the order of `NULL` on every backend, and of texts
    /// on SQLite (and on PostgreSQL for the keys that sort alike under any collation).
    static func ascending(_ a: String?, _ b: String?) -> Bool {
        switch (a.exact, b.exact) {
        case (nil, nil): false
        case (nil, _): true
        case (_, nil): false
        case (let a?, let b?): a < b
        }
    }
}
