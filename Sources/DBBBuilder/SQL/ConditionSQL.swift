import Foundation

/// The WHERE clause of query options: each condition in parentheses, joined with `AND`, or
/// with `OR` when one item of the list is `"OR"` (an `"AND"` item is accepted too). Property
/// names used in a condition are replaced by their column names; string literals, quoted
/// identifiers and parameters are left alone. A condition on a join property
/// (`participants IN (?)`, `project = ?`) selects through its join table:
/// `id IN (SELECT Meeting_ID FROM Meeting_participants WHERE participants IN (?))`.
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
            default: parts.append(try Self.condition(trimmed, mapping))
            }
        }
        sql = parts.joined(separator: conjunction)
    }

    /// One condition, in parentheses, its properties mapped; through the join table when it
    /// names a join property.
    private static func condition(_ text: String, _ mapping: TableMapping) throws(DBBError) -> String {
        var joins: [JoinProperty] = []
        var columns: [String] = []
        let sql = mapProperties(text, mapping) { name in
            if let join = mapping.join(named: name) {
                if !joins.contains(where: { $0.name == name }) { joins.append(join) }
                return join.column
            }
            if let column = mapping.column(named: name) {
                columns.append(name)
                return column.column
            }
            return nil
        }
        guard let join = joins.first else { return "(" + sql + ")" }
        guard joins.count == 1, columns.isEmpty else {
            throw DBBError(.invalidOption, table: mapping.tableName, property: join.name,
                           "condition '\(text)' names the join property '\(join.name)' with other properties; give each its own condition")
        }
        return "(id IN (SELECT \(SQLDialect.quote(join.parentColumn)) FROM \(SQLDialect.quote(join.joinTable)) WHERE \(sql)))"
    }

    /// `condition` with each bare identifier for which `column` gives a name replaced by it (quoted).
    static func mapProperties(_ condition: String, _ mapping: TableMapping, column: (String) -> String?) -> String {
        let scalars = Array(condition.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        func isIdentifierStart(_ s: Unicode.Scalar) -> Bool { s == "_" || s.properties.isAlphabetic }
        func isIdentifierPart(_ s: Unicode.Scalar) -> Bool { isIdentifierStart(s) || ("0"..."9").contains(s) || s == "$" }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "'", "\"", "`", "[":
                // A literal or quoted identifier: copy through its closing character ('' and "" escape).
                let close: Unicode.Scalar = scalar == "[" ? "]" : scalar
                output.append(scalar)
                index += 1
                while index < scalars.count {
                    output.append(scalars[index])
                    if scalars[index] == close {
                        if close != "]", index + 1 < scalars.count, scalars[index + 1] == close {
                            output.append(scalars[index + 1])
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    index += 1
                }
            case ":", "@", "$":
                // A named parameter: copy its name untouched.
                output.append(scalar)
                index += 1
                while index < scalars.count, isIdentifierPart(scalars[index]) {
                    output.append(scalars[index])
                    index += 1
                }
            case _ where ("0"..."9").contains(scalar):
                while index < scalars.count, isIdentifierPart(scalars[index]) || scalars[index] == "." {
                    output.append(scalars[index])
                    index += 1
                }
            case _ where isIdentifierStart(scalar):
                var word = String.UnicodeScalarView()
                while index < scalars.count, isIdentifierPart(scalars[index]) {
                    word.append(scalars[index])
                    index += 1
                }
                let name = String(word)
                let qualified = output.last == "."
                if !qualified, let replacement = column(name), replacement != name {
                    output.append(contentsOf: SQLDialect.quote(replacement).unicodeScalars)
                } else {
                    output.append(contentsOf: word)
                }
            default:
                output.append(scalar)
                index += 1
            }
        }
        return String(output)
    }
}
