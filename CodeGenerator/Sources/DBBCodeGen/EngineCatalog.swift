@_spi(DBBBackend) import DBBBuilder
import Foundation

/// What the reader asks of one engine's own catalog, beyond what the backend's dialect answers
/// (the columns of a table, its row id, its single-column unique indexes, which are the
/// registration's own queries): the tables, the columns' `DEFAULT`s, the indexes with their
/// columns, and the table a reference's join table points into.
protocol EngineCatalog {
    var connection: any DatabaseConnection { get }

    /// The tables of the database (the schema the manager uses), the engine's own left out.
    func tableNames() throws -> [String]

    /// Why `table` can hold no objects as a table (a virtual table), or `nil`.
    func tableKindProblem(_ table: String) throws -> String?

    /// The columns of `table` whose values the engine computes (`GENERATED ALWAYS AS`), which no
    /// save may write.
    func generatedColumns(of table: String) throws -> Set<String>

    /// The `DEFAULT` expressions of `table`'s columns, by column name, as the engine spells them.
    func defaults(of table: String) throws -> [String: String]

    /// The indexes of `table` over columns (not expressions, not partial), its primary key's left out.
    func indexes(of table: String) throws -> [CatalogIndex]

    /// The table the ids in `column` of `joinTable` refer to (SQLite: the table of its
    /// `<join>_target_deleted` trigger; PostgreSQL: of its foreign key), or `nil`.
    func referenceTarget(joinTable: String, column: String) throws -> String?

    /// Whether the engine compares names without case (SQLite), so that an index named
    /// `person_name` is the one registration names `Person_name`.
    var namesIgnoreCase: Bool { get }

    /// The text of a `DEFAULT` expression as a plain value: a number's digits, a string's
    /// characters, `nil` for `NULL` or an expression that is not a constant.
    func constant(_ expression: String) -> DefaultConstant?
}

/// An index of a table, as its engine lists it.
struct CatalogIndex: Equatable {
    let name: String
    let unique: Bool
    let columns: [String]

    /// A row of name, unique (1 or 0) and the columns in order, joined by U+001F (which no
    /// name holds).
    init(row: [DBBValue]) {
        name = row[0].textValue ?? ""
        unique = row[1].isNonZero
        columns = (row[2].textValue ?? "").split(separator: "\u{1F}").map(String.init)
    }
}

/// A `DEFAULT` clause's constant: `NULL`, a number or a text as written.
enum DefaultConstant: Equatable {
    case null
    case number(String)
    case text(String)
    case boolean(Bool)
}

/// The catalog of `connection`'s engine.
func engineCatalog(of connection: any DatabaseConnection) -> any EngineCatalog {
    connection.dialect.name == "PostgreSQL"
        ? PostgresEngineCatalog(connection: connection) : SQLiteEngineCatalog(connection: connection)
}

extension EngineCatalog {

    /// Whether two names are one for the engine.
    func same(_ first: String, _ second: String) -> Bool {
        namesIgnoreCase ? first.lowercased() == second.lowercased() : first == second
    }

    /// The number of rows of `table` whose `column` is `NULL`.
    func nullCount(_ table: String, _ column: String) throws -> Int {
        let dialect = connection.dialect
        return try connection.integer(
            "SELECT count(*) FROM \(dialect.quote(table)) WHERE \(dialect.quote(column)) IS NULL")
    }

    /// The most rows of `joinTable` that one owner (`ownerColumn`) has.
    func mostRowsPerOwner(_ joinTable: String, ownerColumn: String) throws -> Int {
        let dialect = connection.dialect
        return try connection.integer(
            "SELECT max(c) FROM (SELECT count(*) AS c FROM \(dialect.quote(joinTable)) GROUP BY "
                + "\(dialect.quote(ownerColumn))) AS counts")
    }

    /// Rows of a name and a text (a column's `DEFAULT`) as a dictionary.
    static func texts(byName rows: [[DBBValue]]) -> [String: String] {
        Dictionary(
            rows.compactMap { row in row[1].textValue.map { (row[0].textValue ?? "", $0) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// `5`, `-2.5`, `'text'`, `TRUE`, `NULL` (any case), each maybe in parentheses, once `strip`
    /// took off what the engine writes around a constant; `nil` for any other expression.
    static func constant(_ expression: String, strip: (Substring) -> Substring = { $0 }) -> DefaultConstant? {
        var text = Substring(expression.trimmingCharacters(in: .whitespaces))
        while text.first == "(", text.last == ")" { text = text.dropFirst().dropLast() }
        text = strip(text)
        switch text.uppercased() {
        case "NULL": return .null
        case "TRUE": return .boolean(true)
        case "FALSE": return .boolean(false)
        default: break
        }
        if let string = unquoted(text) { return .text(string) }
        return number(text)
    }

    /// `'it''s'` as `it's`: the text of a quoted SQL string.
    private static func unquoted(_ literal: Substring) -> String? {
        guard literal.count >= 2, literal.first == "'", literal.last == "'" else { return nil }
        return literal.dropFirst().dropLast().replacingOccurrences(of: "''", with: "'")
    }

    /// A number as SQL writes one (`-1`, `2.5`, `1e3`), or `nil`.
    private static func number(_ text: Substring) -> DefaultConstant? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, Double(trimmed) != nil, trimmed.first != "+" || trimmed.count > 1 else { return nil }
        return .number(trimmed)
    }
}

// MARK: - Rows

extension DatabaseConnection {
    /// Every row of `sql`, as values.
    func rows(_ sql: String, _ arguments: [DBBValue] = []) throws -> [[DBBValue]] {
        let statement = try statement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [[DBBValue]] = []
        while try statement.step() { rows.append(statement.reader.values) }
        return rows
    }

    /// The first value of `sql` as an integer, 0 when there is none (or it is `NULL`).
    func integer(_ sql: String, _ arguments: [DBBValue] = []) throws -> Int {
        guard case .integer(let value) = try rows(sql, arguments).first?.first else { return 0 }
        return Int(value)
    }
}

extension DBBValue {
    /// The text of a text value, `nil` for any other.
    var textValue: String? { if case .text(let text) = self { text } else { nil } }

    /// Whether an integer value is not 0.
    var isNonZero: Bool { if case .integer(let value) = self { value != 0 } else { false } }
}
