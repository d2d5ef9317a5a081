import DBBBuilder
import Foundation

/// Makes random conditions over the samples: every operator on every kind of column, the
/// calendar keys, arithmetic, `COALESCE`, `||` of texts, `LIKE`, `IN` lists (empty ones too),
/// subqueries and `EXISTS`, combined with `AND`, `OR` and `NOT`.
struct DifferentialConditions {
    let samples: [Sample]
    let keys: [DifferentialKey]
    /// What each key gives for each sample, by id.
    let keyAnswers: [[Int64: String?]]

    func random(_ random: inout SeededRandom, depth: Int = 0) -> DifferentialCondition {
        guard depth < 2, random.chance(40) else { return leaf(&random, subqueries: depth == 0) }
        switch Int.random(in: 0..<5, using: &random) {
        case 0, 1: return self.random(&random, depth: depth + 1) && self.random(&random, depth: depth + 1)
        case 2, 3: return self.random(&random, depth: depth + 1) || self.random(&random, depth: depth + 1)
        default: return !self.random(&random, depth: depth + 1)
        }
    }

    /// One test of one column or expression.
    func leaf(_ random: inout SeededRandom, subqueries: Bool) -> DifferentialCondition {
        let sample = random.pick(samples)
        let operation = Int.random(in: 0..<6, using: &random)
        typealias Condition = DifferentialCondition
        switch Int.random(in: 0..<(subqueries ? 24 : 20), using: &random) {
        case 0:
            let value = random.chance(70) ? sample.amount : Int.random(in: -1100...1100, using: &random)
            return .compare("amount", \.amount, operation, value)
        case 1:
            let value = random.pick([Int.min, Int.min + 1, Int.max, Int.max - 1, 0, sample.big, sample.big])
            return .compare("big", \.big, operation, value)
        case 2:
            return .compare("score", \.score, operation, sample.score ?? Int.random(in: -60...60, using: &random))
        case 3:
            return .compare("ratio", \.ratio, operation, random.pick([sample.ratio, 0.0, -0.0, 123.456]))
        case 4:
            return .compare(
                "weight", \.weight, operation,
                random.pick([sample.weight ?? 1, 0.0, -0.0, Double.leastNonzeroMagnitude]))
        case 5:
            return .compare(
                "id", \.id, operation, random.chance(80) ? sample.id : Int64(random.pick([0, -1, Int.max])))
        case 6:
            let day = sample.day ?? Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &random))
            return .compare("day", \.day, operation, day)
        case 7:
            let (name, negated) = (random.pick(["score", "label", "day", "weight"]), random.chance(50))
            let answer: (Sample) -> Bool =
                switch name {
                case "score": { $0.score == nil }
                case "label": { $0.label == nil }
                case "day": { $0.day == nil }
                default: { $0.weight == nil }
                }
            let condition: DBBCondition<Sample> =
                switch name {
                case "score": \.score == nil
                case "label": \.label == nil
                case "day": \.day == nil
                default: \.weight == nil
                }
            return negated
                ? Condition(text: "\(name) IS NOT NULL", condition: !condition) { !answer($0) }
                : Condition(text: "\(name) IS NULL", condition: condition) { answer($0) }
        case 8:
            let list = DifferentialFixture.kinds.filter { _ in random.chance(40) }
            return random.chance(50)
                ? Condition(text: "kind IN \(list)", condition: .in(\.kind, list)) { list.contains($0.kind) }
                : Condition(text: "kind NOT IN \(list)", condition: .notIn(\.kind, list)) { !list.contains($0.kind) }
        case 9:
            let list = (0..<Int.random(in: 0...4, using: &random)).map { _ in random.pick(samples).score ?? 0 }
            return Condition(text: "score IN \(list)", condition: .in(\.score, list)) { sample in
                list.isEmpty ? false : sample.score.map { list.contains($0) }
            }
        case 10:
            let text = sample.label ?? random.pick(DifferentialFixture.hostileTexts)
            return .compare("label", \.label, operation % 2, text)
        case 11, 18, 19:
            return like(sample, &random)
        case 12:
            let index = Int.random(in: 0..<keys.count, using: &random)
            let key = keys[index]
            let answers = keyAnswers[index]
            // Texts compare by collation: only `=` and `<>` for a key that does not sort alike.
            return .compare(
                key.text, key.expression, key.sortable ? operation : operation % 2, answers[sample.id]!
            ) { answers[$0.id]! }
        case 13:
            let (factor, offset) = (Int.random(in: -3...3, using: &random), Int.random(in: -10...10, using: &random))
            let value = sample.amount * factor + offset + Int.random(in: -2...2, using: &random)
            return .compare(
                "amount * \(factor) + \(offset)", DBBExpression<Sample, Int>.column(\.amount) * factor + offset,
                operation, value
            ) { $0.amount * factor + offset }
        case 14:
            // Integer division truncates toward zero on every backend, as in Swift.
            let divisor = random.pick([7, -7, 3, 1000])
            return .compare(
                "amount / \(divisor)", DBBExpression<Sample, Int>.column(\.amount) / divisor, operation,
                sample.amount / divisor
            ) {
                $0.amount / divisor
            }
        case 15:
            let fallback = Int.random(in: -5...5, using: &random)
            let value = sample.score ?? fallback
            return .compare(
                "coalesce(score, \(fallback))", DBBExpression<Sample, Int>.coalesce(\.score, fallback), operation, value
            ) {
                $0.score ?? fallback
            }
        case 16:
            let suffix = random.pick(DifferentialFixture.hostileTexts)
            let value = sample.kind + suffix
            return .compare(
                "kind || \(suffix)", DBBExpression<Sample, String>.column(\.kind) + suffix, operation % 2, value
            ) { $0.kind + suffix }
        case 17:
            let flag = random.chance(50)
            return Condition(text: "flag = \(flag)", condition: \.flag == flag) { $0.flag == flag }
        default:
            return subquery(&random)
        }
    }

    /// `LIKE` on the label, a calendar key or a concatenation: a pattern that matches a
    /// label literally, a piece of one (its `%`, `_` and `\` then wildcards and escapes), or
    /// wildcards and letters at random; case-sensitive or folding ASCII.
    private func like(_ sample: Sample, _ random: inout SeededRandom) -> DifferentialCondition {
        let ignoringCase = random.chance(40)
        // Half the time a hostile text, so that each of LIKE's and GLOB's characters comes up.
        let label = random.chance(50) ? random.pick(DifferentialFixture.hostileTexts) : sample.label ?? "ü"
        let pattern: String
        switch Int.random(in: 0..<3, using: &random) {
        case 0: pattern = DifferentialCondition.literal(label)
        case 1:
            let scalars = Array(label.unicodeScalars)
            let start = Int.random(in: 0...scalars.count, using: &random)
            let end = Int.random(in: start...scalars.count, using: &random)
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[start..<end])
            pattern = "%" + String(piece) + (random.chance(50) ? "%" : "")
        default:
            let pieces = ["%", "_", "\\", "a", "A", "b", "ü", "'", "[", "*", "?", "日", "x", "e"]
            pattern = (0..<Int.random(in: 0...4, using: &random)).map { _ in random.pick(pieces) }.joined()
        }
        let text = "LIKE \(pattern.debugDescription)\(ignoringCase ? " ignoring case" : "")"
        if random.chance(25) {
            let index = Int.random(in: 0..<keys.count, using: &random)
            let answers = keyAnswers[index]
            let weekPattern = random.pick(["19%", "20_1-%", "%-0_", "%01%", "Q_ '%", "%2%"])
            return DifferentialCondition(
                text: "\(keys[index].text) LIKE \(weekPattern)",
                condition: .like(keys[index].expression, weekPattern, ignoringCase: ignoringCase)
            ) { sample in
                answers[sample.id]!.map { DifferentialCondition.like($0, weekPattern, ignoringCase: ignoringCase) }
            }
        }
        if random.chance(20) {
            return DifferentialCondition(
                text: "kind || label \(text)",
                condition: .like(
                    DBBExpression<Sample, String>.column(\.kind) + .coalesce(\.label, ""), pattern,
                    ignoringCase: ignoringCase)
            ) { DifferentialCondition.like($0.kind + ($0.label ?? ""), pattern, ignoringCase: ignoringCase) }
        }
        return DifferentialCondition(
            text: "label \(text)", condition: .like(\.label, pattern, ignoringCase: ignoringCase)
        ) { sample in sample.label.map { DifferentialCondition.like($0, pattern, ignoringCase: ignoringCase) } }
    }

    /// `IN (SELECT …)`, `NOT IN (SELECT …)` (a `NULL` among the selected makes it unknown)
    /// and `EXISTS`, each over a condition of its own.
    private func subquery(_ random: inout SeededRandom) -> DifferentialCondition {
        let inner = leaf(&random, subqueries: false)
        let chosen = samples.filter { inner.answer($0) == true }
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let scores = chosen.map(\.score)
            return DifferentialCondition(
                text: "score IN (SELECT score WHERE \(inner.text))",
                condition: .in(\.score, Sample.select(.column(\.score)).where(inner.condition))
            ) { sample in Self.isIn(sample.score, scores) }
        case 1:
            let scores = chosen.map(\.score)
            return DifferentialCondition(
                text: "score NOT IN (SELECT score WHERE \(inner.text))",
                condition: .notIn(\.score, Sample.select(.column(\.score)).where(inner.condition))
            ) { sample in Self.isIn(sample.score, scores).map { !$0 } }
        case 2:
            let found = !chosen.isEmpty
            return DifferentialCondition(
                text: "EXISTS (SELECT id WHERE \(inner.text))",
                condition: .exists(Sample.select(.column(\.id)).where(inner.condition))
            ) { _ in found }
        default:
            let index = Int.random(in: 0..<keys.count, using: &random)
            let key = keys[index]
            let answers = keyAnswers[index]
            let selected = chosen.map { answers[$0.id]!.exact }
            return DifferentialCondition(
                text: "\(key.text) IN (SELECT \(key.text) WHERE \(inner.text))",
                condition: .in(key.expression, Sample.select(key.expression).where(inner.condition))
            ) { sample in Self.isIn(answers[sample.id]!.exact, selected) }
        }
    }

    /// `value IN (list)` in SQL: unknown for a `NULL` value (unless the list is empty) and for
    /// a value not found in a list holding `NULL`.
    static func isIn<Value: Equatable>(_ value: Value?, _ list: [Value?]) -> Bool? {
        if list.isEmpty { return false }
        guard let value else { return nil }
        if list.contains(where: { $0 == value }) { return true }
        return list.contains(where: { $0 == nil }) ? nil : false
    }
}
