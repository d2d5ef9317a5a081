import Foundation

/// The WHERE clause of query options: each condition in parentheses, joined with `AND`, or
/// with `OR` when one item of the list is `"OR"` (an `"AND"` item is accepted too). Property
/// names used in a condition are replaced by their column names; string literals, quoted
/// identifiers and parameters are left alone.
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
            default: parts.append("(" + Self.mapProperties(trimmed, mapping) + ")")
            }
        }
        sql = parts.joined(separator: conjunction)
    }

    /// `condition` with each bare identifier that names a mapped property replaced by its column.
    static func mapProperties(_ condition: String, _ mapping: TableMapping) -> String {
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
                if !qualified, let column = mapping.column(named: name), column.column != name {
                    output.append(contentsOf: SQLDialect.quote(column.column).unicodeScalars)
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
