import DBBFormat
import DBBSQLite

/// Identifier and literal spelling, once for both dialects: SQLite's here (shared helpers
/// too), PostgreSQL's in ``DBBDialect``'s members below.
enum SQLDialect {
    /// `name` as an identifier: bare when it is a plain identifier and not a keyword (so
    /// `CREATE TABLE` text reads as DBBBuilder wrote it), double-quoted otherwise.
    static func quote(_ name: String) -> String {
        if isPlainIdentifier(name) && !keywords.contains(name.uppercased()) { return name }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The argument of ``DBBDialect/inIDList(_:)``: the ids as a JSON array (both dialects).
    static func idList(_ ids: some Sequence<Int64>) -> SQLiteValue {
        // Digits written straight into one byte buffer: a string per id, then joining them,
        // cost as much as the query reading them.
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(ids.underestimatedCount * 8 + 2)
        var digits = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0)
        )
        for id in ids {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            if id < 0 { bytes.append(UInt8(ascii: "-")) }
            var rest = id.magnitude
            withUnsafeMutableBytes(of: &digits) { digits in
                var count = 0
                repeat {
                    digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(digits[index]) }
            }
        }
        bytes.append(UInt8(ascii: "]"))
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// `name` double-quoted, whatever it is: for names written into the application's
    /// conditions, where a bare word could be read as a keyword.
    static func quoteAlways(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
    }

    /// The column type DBBBuilder writes on SQLite for a storage type (dates are `Real`).
    static func columnType(_ type: DBBStorageType) -> String {
        switch type {
        case .bool: "Boolean"
        case .int: "Integer"
        case .float, .date: "Real"
        case .string: "Text"
        case .binary: "BLOB"
        case .dbbObject, .dbbObjectArray: "Integer"
        case .boolArray: "Boolean"
        case .intArray: "Integer"
        case .floatArray: "Real"
        case .stringArray: "Text"
        case .dateArray: DBBFormat.dateArrayColumnType
        }
    }

    /// SQLite's type affinities. See [Determination of column affinity](https://www.sqlite.org/datatype3.html#determination_of_column_affinity).
    enum Affinity: String {
        case integer = "INTEGER"
        case text = "TEXT"
        case blob = "BLOB"
        case real = "REAL"
        case numeric = "NUMERIC"

        /// The affinity of a column declared with `declaredType`, by SQLite's rules in their order.
        init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.contains("BLOB") || type.isEmpty {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }
    }

    /// The affinities of columns that hold a storage type's values and give them back as they
    /// were stored: a column declared otherwise would convert them (text in an `Integer`
    /// column, reals in one that rounds them).
    static func compatibleAffinities(_ type: DBBStorageType) -> Set<Affinity> {
        switch type {
        case .bool, .int, .boolArray, .intArray, .dbbObject, .dbbObjectArray: [.integer, .numeric]
        case .float, .date, .floatArray, .dateArray: [.real, .numeric]
        case .string, .stringArray: [.text]
        case .binary: [.blob]
        }
    }

    /// `value` as an SQL literal for a `DEFAULT` clause, or `nil` for `NULL` and `NaN`: a
    /// signed number or a quoted literal, never an expression in parentheses (which `ADD
    /// COLUMN` refuses). Reals are written so SQLite reads back the same double (`9e999` for
    /// infinity).
    static func literal(_ value: SQLiteValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let integer): String(integer)
        case .real(let real) where real.isNaN: nil
        case .real(let real) where real.isInfinite: real < 0 ? "-9e999" : "9e999"
        case .real(let real): "\(real)"
        // SQL text cannot carry a NUL (SQLite ends a token there; PostgreSQL refuses it).
        case .text(let text) where text.utf8.contains(0): nil
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data): "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    /// SQLite's keywords (https://www.sqlite.org/lang_keywords.html): names that must be quoted.
    static let keywords: Set<String> = [
        "ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS", "ANALYZE", "AND", "AS", "ASC", "ATTACH",
        "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE", "CASE", "CAST", "CHECK", "COLLATE",
        "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS", "CURRENT", "CURRENT_DATE",
        "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT", "DEFERRABLE", "DEFERRED", "DELETE", "DESC",
        "DETACH", "DISTINCT", "DO", "DROP", "EACH", "ELSE", "END", "ESCAPE", "EXCEPT", "EXCLUDE", "EXCLUSIVE",
        "EXISTS", "EXPLAIN", "FAIL", "FILTER", "FIRST", "FOLLOWING", "FOR", "FOREIGN", "FROM", "FULL",
        "GENERATED", "GLOB", "GROUP", "GROUPS", "HAVING", "IF", "IGNORE", "IMMEDIATE", "IN", "INDEX", "INDEXED",
        "INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO", "IS", "ISNULL", "JOIN", "KEY", "LAST",
        "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL", "NO", "NOT", "NOTHING", "NOTNULL", "NULL",
        "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS", "OUTER", "OVER", "PARTITION", "PLAN", "PRAGMA",
        "PRECEDING", "PRIMARY", "QUERY", "RAISE", "RANGE", "RECURSIVE", "REFERENCES", "REGEXP", "REINDEX",
        "RELEASE", "RENAME", "REPLACE", "RESTRICT", "RETURNING", "RIGHT", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT",
        "SELECT", "SET", "TABLE", "TEMP", "TEMPORARY", "THEN", "TIES", "TO", "TRANSACTION", "TRIGGER",
        "UNBOUNDED", "UNION", "UNIQUE", "UPDATE", "USING", "VACUUM", "VALUES", "VIEW", "VIRTUAL", "WHEN", "WHERE",
        "WINDOW", "WITH", "WITHOUT",
    ]
}
