@_spi(DBBBackend) import DBBBuilder
import DBBFormat
import Foundation

/// SQLite's answers, from `sqlite_master` and the table pragmas.
struct SQLiteEngineCatalog: EngineCatalog {
    let connection: any DatabaseConnection

    var namesIgnoreCase: Bool { true }

    func tableNames() throws -> [String] {
        try connection.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        )
        .compactMap { $0.first?.textValue }
    }

    func tableKindProblem(_ table: String) throws -> String? {
        let sql = try connection.rows("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])
        guard let text = sql.first?.first?.textValue,
            text.uppercased().split(whereSeparator: \.isWhitespace).prefix(2) == ["CREATE", "VIRTUAL"]
        else { return nil }
        return "it is a virtual table (CREATE VIRTUAL TABLE), whose rows a module of SQLite's keeps"
    }

    /// Hidden 2 and 3 in `pragma_table_xinfo`: virtual and stored generated columns.
    func generatedColumns(of table: String) throws -> Set<String> {
        Set(
            try connection.rows("SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3)", [.text(table)])
                .compactMap { $0.first?.textValue })
    }

    func defaults(of table: String) throws -> [String: String] {
        let rows = try connection.rows(
            "SELECT name, dflt_value FROM pragma_table_info(?) WHERE dflt_value IS NOT NULL", [.text(table)])
        return Self.texts(byName: rows)
    }

    func indexes(of table: String) throws -> [CatalogIndex] {
        // An index over an expression is left out.
        let rows = try connection.rows(
            """
            SELECT l.name, l."unique", (SELECT group_concat(name, char(31)) FROM \
            (SELECT name FROM pragma_index_info(l.name) ORDER BY seqno)) FROM pragma_index_list(?) l \
            WHERE l.origin <> 'pk' AND l.partial = 0 \
            AND NOT EXISTS (SELECT 1 FROM pragma_index_info(l.name) WHERE name IS NULL)
            """, [.text(table)])
        return rows.map(CatalogIndex.init(row:))
    }

    func referenceTarget(joinTable: String, column: String) throws -> String? {
        try connection.rows(
            "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name = ? COLLATE NOCASE",
            [.text(DBBFormat.joinTargetTrigger(joinTable))]
        ).first?.first?.textValue
    }

    /// `5`, `-2.5`, `'text'`, `TRUE`, `NULL`, each maybe in parentheses; `X'…'`, `CURRENT_TIME`
    /// and other expressions are not constants of a property.
    func constant(_ expression: String) -> DefaultConstant? { Self.constant(expression) }
}
