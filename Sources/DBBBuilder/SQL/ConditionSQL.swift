import DBBFormat

/// The WHERE clause of query options: each condition in parentheses, joined with `AND`, or
/// with `OR` when one item of the list is `"OR"` (an `"AND"` item is accepted too).
///
/// Property names in a condition become their quoted column names (so a property named
/// `order` or `group` works); string literals, quoted identifiers, parameters, qualified names
/// (`t.name`) and function names (`date(…)`) are left alone. A condition on a join property
/// reads its join rows:
///
/// - A reference (`project`) is read as a nullable column holding the referenced id, so any
///   SQL means what SQL means: `project = ?`, `project IS NULL`, `project = ? OR project IS NULL`,
///   `? != project` (which, as in SQL, does not select objects whose reference is `nil`).
/// - An array (`participants`) is a set of values, tested in one of these forms:
///
/// | condition | selects the objects… |
/// | --- | --- |
/// | `participants IN (?)`, `participants = ?`, `participants LIKE ?` | with an element that satisfies it |
/// | `NOT participants IN (?)`, `participants NOT IN (?)`, `participants != ?` | with no element that satisfies the positive form (an empty array included) |
/// | `participants IS NULL` | with no element |
/// | `participants IS NOT NULL` | with at least one element |
///
/// Any other condition naming an array (`? != participants`, `participants = ? OR participants IS
/// NULL`) is refused with ``DBBError/Kind/invalidOption`` rather than guessed at.
struct ConditionSQL {
    let sql: String

    init(_ mapping: TableMapping, _ conditions: [String]) throws(DBBError) {
        var conjunction = " AND "
        var parts: [String] = []
        for condition in conditions {
            let trimmed = condition.trimmingCharacters(in: .whitespacesAndNewlines)
            switch trimmed.uppercased() {
            case "OR": conjunction = " OR "
            case "AND": continue
            case "":
                throw DBBError(.invalidOption, table: mapping.tableName, "an empty condition in the conditions list")
            default:
                let part = try Self.condition(trimmed, mapping)
                parts.append(mapping.dialect.condition(part))
            }
        }
        sql = parts.joined(separator: conjunction)
    }

    /// One condition, in parentheses, its properties mapped; through the join table when it
    /// names a join property.
    private static func condition(_ written: String, _ mapping: TableMapping) throws(DBBError) -> String {
        // Comments go: a `-- …` at the end would swallow the closing parenthesis.
        let text = withoutComments(written, mapping.dialect)
        let tokens = SQLTokenizer.tokens(text, syntax: mapping.dialect.syntax)
        var joins: [JoinProperty] = []
        var columns = 0
        let sql = mapProperties(tokens, in: text) { name in
            if let join = mapping.join(named: name) {
                if !joins.contains(where: { $0.name == name }) { joins.append(join) }
                // A reference reads as a nullable column: the id it holds, or NULL.
                return join.isReference
                    ? JoinSQL(dialect: mapping.dialect).referencedID(join, owner: mapping)
                    : SQLText.quoteAlways(join.column)
            }
            if let column = mapping.column(named: name) {
                columns += 1
                return mapping.dialect.compared(SQLText.quoteAlways(column.column), column.storageType)
            }
            // The key columns, named as such in a condition: quoted, so that PostgreSQL
            // keeps their case.
            if name == "idNum" { return SQLText.quoteAlways(SchemaSQL.idColumn) }
            if let reserved = DBBFormat.reservedColumns.first(where: { TableMapping.sameIdentifier($0, name) }) {
                return SQLText.quoteAlways(reserved)
            }
            // A column named in another case, which SQLite reads as that column and
            // PostgreSQL would fold to lower case.
            if let column = mapping.column(namedOrStoredIn: name) {
                columns += 1
                return mapping.dialect.compared(SQLText.quoteAlways(column.column), column.storageType)
            }
            return nil
        }
        // No array: plain SQL over columns (references included).
        guard let join = joins.first(where: { !$0.isReference }) else { return "(" + sql + ")" }
        guard joins.count == 1, columns == 0 else {
            throw DBBError(
                .invalidOption, table: mapping.tableName, property: join.name,
                "condition '\(text)' names the array property '\(join.name)' with other properties; give each its own condition"
            )
        }
        let refuse = DBBError(
            .invalidOption, table: mapping.tableName, property: join.name,
            "condition '\(text)' tests the array property '\(join.name)' in a form that has no one meaning; "
                + "write '\(join.name) IN (…)', '\(join.name) = ?', 'NOT \(join.name) IN (…)', '\(join.name) IS NULL' "
                + "or '\(join.name) IS NOT NULL', one per condition item")
        let dialect = mapping.dialect
        let owners =
            "SELECT \(dialect.quote(join.parentColumn)) FROM \(dialect.quote(join.joinTable))"
            + " WHERE \(dialect.quote(join.parentColumn)) IS NOT NULL"
        let id = dialect.quote(SchemaSQL.idColumn)
        switch JoinConditionForm(tokens, in: text, property: join.name) {
        case .isNull:
            return "(\(id) NOT IN (\(owners)))"
        case .isNotNull:
            return "(\(id) IN (\(owners)))"
        case .some(let positive):
            guard isElementTest(positive, join, dialect) else { throw refuse }
            return "(\(id) IN (\(owners) AND (\(mapProperty(positive, join, dialect)))))"
        case .none(let positive):
            guard isElementTest(positive, join, dialect) else { throw refuse }
            return "(\(id) NOT IN (\(owners) AND (\(mapProperty(positive, join, dialect)))))"
        }
    }

    private static func mapProperty(_ text: String, _ join: JoinProperty, _ dialect: any DBBDialect) -> String {
        mapProperties(SQLTokenizer.tokens(text, syntax: dialect.syntax), in: text) {
            $0 == join.name ? dialect.compared(SQLText.quoteAlways(join.column), join.storageType) : nil
        }
    }

    /// `text` with each comment replaced by a space.
    private static func withoutComments(_ text: String, _ dialect: any DBBDialect) -> String {
        let tokens = SQLTokenizer.tokens(text, syntax: dialect.syntax)
        guard tokens.contains(where: { $0.kind == .space && ($0.text.hasPrefix("--") || $0.text.hasPrefix("/*")) })
        else { return text }
        return tokens.map { $0.kind == .space ? " " : String($0.text) }.joined()
    }

    /// Whether `text` tests one element of the array `join`: the property first and only once,
    /// and nothing that would need the array as a whole (`NULL`, `NOT`, `OR`).
    private static func isElementTest(_ text: String, _ join: JoinProperty, _ dialect: any DBBDialect) -> Bool {
        let words = SQLTokenizer.tokens(text, syntax: dialect.syntax).filter { $0.kind != .space }
        guard words.first?.kind == .word, words.first?.text == Substring(join.name),
            words.filter({ $0.kind == .word && $0.text == Substring(join.name) }).count == 1
        else { return false }
        return !words.contains { word in ["NOT", "NULL", "ISNULL", "NOTNULL", "OR"].contains { word.isKeyword($0) } }
    }

    /// The text of `tokens` with each bare word for which `replacement` gives SQL replaced by
    /// it; words after a `.` or before a `(` are left alone.
    static func mapProperties(_ tokens: [SQLToken], in text: String, replacement: (String) -> String?) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for (position, token) in tokens.enumerated() {
            guard token.kind == .word else {
                output += token.text
                continue
            }
            let previous = tokens[..<position].last { $0.kind != .space }
            let next = tokens[(position + 1)...].first { $0.kind != .space }
            let qualified = previous?.text == "."
            let called = next?.text == "("
            if !qualified, !called, let sql = replacement(String(token.text)) {
                output += sql
            } else {
                output += token.text
            }
        }
        return output
    }
}

/// What a condition on an array property asks of its join rows.
enum JoinConditionForm: Equatable {
    /// Whether the first word, `(`, closes only with the last one.
    private static func enclosesAll(_ words: [SQLToken]) -> Bool {
        var depth = 0
        for (index, word) in words.enumerated() {
            if word.text == "(" { depth += 1 }
            if word.text == ")" { depth -= 1 }
            if depth == 0 { return index == words.count - 1 }
        }
        return false
    }

    /// No join row (`p IS NULL`).
    case isNull
    /// Some join row (`p IS NOT NULL`).
    case isNotNull
    /// Some join row satisfies the condition.
    case some(String)
    /// No join row satisfies the condition (`NOT …`, `p NOT IN …`, `p != …`).
    case none(String)

    /// Reads `tokens` (of `text`), a condition that names the join property `property`.
    init(_ tokens: [SQLToken], in text: String, property: String) {
        let words = tokens.filter { $0.kind != .space }
        func rest(after count: Int) -> String {
            words.count > count
                ? String(text[words[count].range.lowerBound..<words[words.count - 1].range.upperBound]) : ""
        }
        if words.count >= 2, words.first?.text == "(", words.last?.text == ")", Self.enclosesAll(words) {
            // (condition): the form of what the parentheses hold.
            let inner = Array(
                tokens.drop { $0.text != "(" }.dropFirst().reversed().drop { $0.text != ")" }.dropFirst().reversed())
            self = JoinConditionForm(inner, in: text, property: property)
            return
        }
        let startsWithProperty = words.first?.kind == .word && words.first?.text == Substring(property)
        if words.first?.isKeyword("NOT") == true, words.count > 1 {
            // NOT <positive>: the negation of what the rest selects.
            self =
                switch JoinConditionForm(
                    Array(tokens.drop { !$0.isKeyword("NOT") }.dropFirst()), in: text, property: property)
                {
                case .isNull: .isNotNull
                case .isNotNull: .isNull
                case .some(let positive): .none(positive)
                case .none(let negative): .some(negative)
                }
            return
        }
        guard startsWithProperty, words.count >= 2 else {
            self = .some(rest(after: 0))
            return
        }
        let operatorWords = words.dropFirst().prefix(3).map { $0.text.uppercased() }
        let head = String(words[0].text)
        switch operatorWords.count >= 2 ? Array(operatorWords.prefix(2)) : operatorWords {
        case ["IS", "NULL"] where words.count == 3, ["ISNULL"] where words.count == 2:
            self = .isNull
        case ["IS", "NOT"] where words.count == 4 && words[3].isKeyword("NULL"), ["NOTNULL"] where words.count == 2:
            self = .isNotNull
        case ["NOT", "IN"], ["NOT", "LIKE"], ["NOT", "GLOB"], ["NOT", "BETWEEN"], ["NOT", "REGEXP"], ["NOT", "MATCH"]:
            self = .none("\(head) \(rest(after: 2))")
        case ["IS", "NOT"]:
            self = .none("\(head) IS \(rest(after: 3))")
        default:
            if words[1].text == "!" && words.count > 2 && words[2].text == "=" {
                self = .none("\(head) = \(rest(after: 3))")
            } else if words[1].text == "<" && words.count > 2 && words[2].text == ">" {
                self = .none("\(head) = \(rest(after: 3))")
            } else {
                self = .some(rest(after: 0))
            }
        }
    }
}
