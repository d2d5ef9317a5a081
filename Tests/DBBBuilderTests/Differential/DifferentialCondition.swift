import DBBBuilder
import Foundation

/// A condition of the generated queries, and its answer in Swift under SQL's three-valued
/// logic: `nil` is unknown (a `NULL` compared), which `WHERE` leaves out as it does `false`.
struct DifferentialCondition {
    let text: String
    let condition: DBBCondition<Sample>
    let answer: (Sample) -> Bool?

    static func && (lhs: Self, rhs: Self) -> Self {
        Self(text: "(\(lhs.text) AND \(rhs.text))", condition: lhs.condition && rhs.condition) { sample in
            let (left, right) = (lhs.answer(sample), rhs.answer(sample))
            if left == false || right == false { return false }
            return left == nil || right == nil ? nil : true
        }
    }

    static func || (lhs: Self, rhs: Self) -> Self {
        Self(text: "(\(lhs.text) OR \(rhs.text))", condition: lhs.condition || rhs.condition) { sample in
            let (left, right) = (lhs.answer(sample), rhs.answer(sample))
            if left == true || right == true { return true }
            return left == nil || right == nil ? nil : false
        }
    }

    static prefix func ! (operand: Self) -> Self {
        Self(text: "NOT \(operand.text)", condition: !operand.condition) { operand.answer($0).map { !$0 } }
    }

    // MARK: - Comparisons

    /// The six comparisons, by number.
    static let operators = ["=", "<>", "<", "<=", ">", ">="]

    /// `property <operator> value`.
    static func compare<Value: DBBColumnValue & Comparable>(
        _ name: String, _ property: KeyPath<Sample, Value>, _ operation: Int, _ value: Value
    ) -> Self {
        compare(name, .column(property), operation, value) { $0[keyPath: property] }
    }

    /// `property <operator> value` for an optional property: unknown where it is `NULL`.
    static func compare<Value: DBBColumnValue & Comparable>(
        _ name: String, _ property: KeyPath<Sample, Value?>, _ operation: Int, _ value: Value
    ) -> Self {
        compare(name, .column(property), operation, value) { $0[keyPath: property] }
    }

    /// `expression <operator> value`, the expression's answer computed by `answer`.
    static func compare<Value: DBBColumnValue & Comparable>(
        _ name: String, _ expression: DBBExpression<Sample, Value>, _ operation: Int, _ value: Value,
        _ answer: @escaping (Sample) -> Value?
    ) -> Self {
        let conditions = [
            expression == value, expression != value, expression < value, expression <= value, expression > value,
            expression >= value,
        ]
        return Self(text: "\(name) \(operators[operation]) \(value)", condition: conditions[operation]) { sample in
            answer(sample).map { compared($0, operation, value) }
        }
    }

    /// `expression <operator> value` for an optional expression (an `=` or `<>` with `nil` is
    /// `IS NULL` or `IS NOT NULL`).
    static func compare<Value: DBBColumnValue & Comparable>(
        _ name: String, _ expression: DBBExpression<Sample, Value?>, _ operation: Int, _ value: Value?,
        _ answer: @escaping (Sample) -> Value?
    ) -> Self {
        guard let value else {
            let negated = operation % 2 == 1
            return Self(
                text: "\(name) IS \(negated ? "NOT " : "")NULL",
                condition: negated ? expression != nil : expression == nil
            ) { (answer($0) == nil) != negated }
        }
        let conditions = [
            expression == value, expression != value, expression < value, expression <= value, expression > value,
            expression >= value,
        ]
        return Self(text: "\(name) \(operators[operation]) \(value)", condition: conditions[operation]) { sample in
            answer(sample).map { compared($0, operation, value) }
        }
    }

    /// `left <operation> right` as the engines compare: texts by their bytes (Swift's `==`
    /// would make `é` and `e` with a combining accent equal), anything else by value.
    static func compared<Value: Comparable>(_ left: Value, _ operation: Int, _ right: Value) -> Bool {
        if let left = left as? String, let right = right as? String {
            return compared(Exact(left), operation, Exact(right))
        }
        return switch operation {
        case 0: left == right
        case 1: left != right
        case 2: left < right
        case 3: left <= right
        case 4: left > right
        default: left >= right
        }
    }

    // MARK: - LIKE

    /// Whether `text` matches the `LIKE` pattern as the typed `.like` documents it: `%` any
    /// text, `_` one character (a Unicode scalar, as the engines count them), `\` makes the next
    /// plain (a `\` at the end is itself); with `ignoringCase`, `A`–`Z` equal `a`–`z` only.
    static func like(_ text: String, _ pattern: String, ignoringCase: Bool) -> Bool {
        enum Token: Equatable {
            case any, one
            case scalar(Unicode.Scalar)
        }
        func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
            ignoringCase && ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }
        var tokens: [Token] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                tokens.append(.scalar(folded(scalars[index + 1])))
                index += 2
                continue
            }
            tokens.append(scalar == "%" ? .any : scalar == "_" ? .one : .scalar(folded(scalar)))
            index += 1
        }
        let subject = text.unicodeScalars.map(folded)
        // matches[j]: whether the tokens so far match the first j scalars.
        var matches = [Bool](repeating: false, count: subject.count + 1)
        matches[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: subject.count + 1)
            for j in 0...subject.count {
                switch token {
                case .any: next[j] = matches[j] || (j > 0 && next[j - 1])
                case .one: next[j] = j > 0 && matches[j - 1]
                case .scalar(let scalar): next[j] = j > 0 && matches[j - 1] && subject[j - 1] == scalar
                }
            }
            matches = next
        }
        return matches[subject.count]
    }

    /// `text` as a pattern that matches only itself.
    static func literal(_ text: String) -> String {
        text.unicodeScalars.reduce(into: "") { pattern, scalar in
            if "%_\\".unicodeScalars.contains(scalar) { pattern.append("\\") }
            pattern.unicodeScalars.append(scalar)
        }
    }
}

/// A text compared, hashed and sorted by its UTF-8 bytes, as SQLite compares text and as
/// PostgreSQL tests equality; Swift's `String` compares by canonical equivalence.
struct Exact: Hashable, Comparable {
    let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.utf8) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}

extension Optional where Wrapped == String {
    /// The text by its bytes.
    var exact: Exact? { map(Exact.init) }
}
