import DBBBuilder
import Foundation

/// An aggregate of the generated reports, and what Swift computes for a group's samples.
struct DifferentialAggregate<Value> {
    let text: String
    let expression: DBBExpression<Sample, Value>
    let answer: ([Sample]) -> Value
    /// For a `Double`: how far the backends' sum may stray from Swift's (they add in another
    /// order): 1e-9 of the sum of the magnitudes. 0 for the others: compared exactly.
    var tolerance: ([Sample]) -> Double = { _ in 0 }
}

/// The aggregates the generated reports choose from, one list per result type.
enum DifferentialAggregates {
    typealias Aggregate = DifferentialAggregate

    /// `COUNT(*)`, `COUNT(column)` of an optional column, `COUNT(DISTINCT …)` of a column and
    /// of a calendar key.
    static func counts(_ key: DifferentialKey, _ answers: [Int64: String?]) -> [Aggregate<Int>] {
        [
            Aggregate(text: "count(*)", expression: .count()) { $0.count },
            Aggregate(text: "count(score)", expression: .count(\.score)) { $0.count(where: { $0.score != nil }) },
            Aggregate(text: "count(day)", expression: .count(\.day)) { $0.count(where: { $0.day != nil }) },
            Aggregate(text: "count(distinct amount)", expression: .count(distinct: \.amount)) {
                Set($0.map(\.amount)).count
            },
            Aggregate(text: "count(distinct kind)", expression: .count(distinct: \.kind)) { Set($0.map(\.kind)).count },
            Aggregate(text: "count(distinct \(key.text))", expression: .count(distinct: key.expression)) {
                Set($0.compactMap { answers[$0.id]! }).count
            },
        ]
    }

    /// Sums (of columns, optional ones, arithmetic and `COALESCE`), minimums and maximums of
    /// integers, Int64's extremes among them.
    static var integers: [Aggregate<Int?>] {
        [
            Aggregate(text: "sum(amount)", expression: .sum(\.amount)) {
                $0.isEmpty ? nil : $0.reduce(0) { $0 + $1.amount }
            },
            Aggregate(text: "sum(score)", expression: .sum(\.score)) { samples in
                let scores = samples.compactMap(\.score)
                return scores.isEmpty ? nil : scores.reduce(0, +)
            },
            Aggregate(
                text: "sum(amount * 3 - 7)", expression: .sum(DBBExpression<Sample, Int>.column(\.amount) * 3 - 7)
            ) {
                $0.isEmpty ? nil : $0.reduce(0) { $0 + $1.amount * 3 - 7 }
            },
            Aggregate(text: "sum(amount / -7)", expression: .sum(DBBExpression<Sample, Int>.column(\.amount) / -7)) {
                $0.isEmpty ? nil : $0.reduce(0) { $0 + $1.amount / -7 }
            },
            Aggregate(
                text: "sum(coalesce(score, 100))", expression: .sum(DBBExpression<Sample, Int>.coalesce(\.score, 100))
            ) {
                $0.isEmpty ? nil : $0.reduce(0) { $0 + ($1.score ?? 100) }
            },
            Aggregate(text: "min(big)", expression: .min(\.big)) { $0.map(\.big).min() },
            Aggregate(text: "max(big)", expression: .max(\.big)) { $0.map(\.big).max() },
            Aggregate(text: "min(amount)", expression: .min(\.amount)) { $0.map(\.amount).min() },
            Aggregate(text: "max(score)", expression: .max(\.score)) { $0.compactMap(\.score).max() },
            Aggregate(text: "min(-amount)", expression: .min(-DBBExpression<Sample, Int>.column(\.amount))) {
                $0.map { -$0.amount }.min()
            },
        ]
    }

    /// Averages and sums of doubles (within a tolerance), minimums and maximums (exactly).
    static var doubles: [Aggregate<Double?>] {
        [
            Aggregate(
                text: "avg(amount)", expression: .average(\.amount),
                answer: { $0.isEmpty ? nil : Double($0.reduce(0) { $0 + $1.amount }) / Double($0.count) },
                tolerance: { _ in 1e-9 }),
            Aggregate(
                text: "avg(ratio)", expression: .average(\.ratio),
                answer: { $0.isEmpty ? nil : $0.reduce(0.0) { $0 + $1.ratio } / Double($0.count) },
                tolerance: { 1e-9 * $0.reduce(0.0) { $0 + abs($1.ratio) } / Double(max($0.count, 1)) }),
            Aggregate(
                text: "sum(ratio)", expression: .sum(\.ratio),
                answer: { $0.isEmpty ? nil : $0.reduce(0.0) { $0 + $1.ratio } },
                tolerance: { 1e-9 * $0.reduce(0.0) { $0 + abs($1.ratio) } }),
            Aggregate(
                text: "sum(weight)", expression: .sum(\.weight),
                answer: { samples in
                    let weights = samples.compactMap(\.weight)
                    return weights.isEmpty ? nil : weights.reduce(0, +)
                },
                tolerance: { 1e-9 * $0.reduce(0.0) { $0 + abs($1.weight ?? 0) } }),
            Aggregate(text: "min(ratio)", expression: .min(\.ratio)) { $0.map(\.ratio).min() },
            Aggregate(text: "max(weight)", expression: .max(\.weight)) { $0.compactMap(\.weight).max() },
        ]
    }

    /// The first and last day.
    static var dates: [Aggregate<Date?>] {
        [
            Aggregate(text: "min(day)", expression: .min(\.day)) { $0.compactMap(\.day).min() },
            Aggregate(text: "max(day)", expression: .max(\.day)) { $0.compactMap(\.day).max() },
        ]
    }

    /// Whether a backend's double is Swift's, within `tolerance`.
    static func close(_ actual: Double?, _ expected: Double?, _ tolerance: Double) -> Bool {
        switch (actual, expected) {
        case (nil, nil): true
        case (let actual?, let expected?): actual == expected || abs(actual - expected) <= tolerance
        default: false
        }
    }
}

/// One aggregate of each result type, chosen at random: what a generated report selects.
struct DifferentialChoice {
    let count: DifferentialAggregate<Int>
    let integer: DifferentialAggregate<Int?>
    let double: DifferentialAggregate<Double?>
    let date: DifferentialAggregate<Date?>

    init(_ key: DifferentialKey, _ answers: [Int64: String?], _ random: inout SeededRandom) {
        count = random.pick(DifferentialAggregates.counts(key, answers))
        integer = random.pick(DifferentialAggregates.integers)
        double = random.pick(DifferentialAggregates.doubles)
        date = random.pick(DifferentialAggregates.dates)
    }

    var text: String { "\(count.text), \(integer.text), \(double.text), \(date.text)" }

    /// Swift's row for the group `key` of `members`.
    func report(_ key: String?, _ members: [Sample]) -> DifferentialRun.Report {
        DifferentialRun.Report(
            key: key, count: count.answer(members), integer: integer.answer(members), double: double.answer(members),
            date: date.answer(members), tolerance: double.tolerance(members))
    }
}
