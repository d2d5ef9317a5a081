@_spi(DBBBackend) import DBBBuilder
import Foundation

/// PostgreSQL's answers, from `pg_catalog` (which every role may read, one granted only
/// `pg_read_all_data` too), in the schema the manager uses (`current_schema()`).
struct PostgresEngineCatalog: EngineCatalog {
    let connection: any DatabaseConnection

    var namesIgnoreCase: Bool { false }

    /// `c`, the tables of the current schema.
    private static let tables =
        "pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()"

    func tableNames() throws -> [String] {
        try connection.rows("SELECT c.relname::text FROM \(Self.tables) WHERE c.relkind IN ('r', 'p')")
            .compactMap { $0.first?.textValue }
    }

    func tableKindProblem(_ table: String) throws -> String? { nil }

    func generatedColumns(of table: String) throws -> Set<String> {
        Set(
            try connection.rows(
                """
                SELECT a.attname::text FROM \(Self.tables) JOIN pg_attribute a ON a.attrelid = c.oid \
                WHERE c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated <> ''
                """, [.text(table)]
            ).compactMap { $0.first?.textValue })
    }

    func defaults(of table: String) throws -> [String: String] {
        let rows = try connection.rows(
            """
            SELECT a.attname::text, pg_get_expr(d.adbin, d.adrelid) FROM \(Self.tables) \
            JOIN pg_attrdef d ON d.adrelid = c.oid JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.adnum \
            WHERE c.relname = ? AND a.attgenerated = ''
            """, [.text(table)])
        return Self.texts(byName: rows)
    }

    func indexes(of table: String) throws -> [CatalogIndex] {
        let rows = try connection.rows(
            """
            SELECT ic.relname::text, CASE WHEN x.indisunique THEN 1 ELSE 0 END, \
            (SELECT string_agg(a.attname::text, chr(31) ORDER BY k.o) FROM unnest(x.indkey) WITH ORDINALITY AS k(n, o) \
            JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n) \
            FROM \(Self.tables) JOIN pg_index x ON x.indrelid = c.oid JOIN pg_class ic ON ic.oid = x.indexrelid \
            WHERE c.relname = ? AND NOT x.indisprimary AND x.indpred IS NULL AND x.indexprs IS NULL
            """, [.text(table)])
        return rows.map(CatalogIndex.init(row:))
    }

    func referenceTarget(joinTable: String, column: String) throws -> String? {
        try connection.rows(
            """
            SELECT r.relname::text FROM \(Self.tables) JOIN pg_constraint f ON f.conrelid = c.oid AND f.contype = 'f' \
            JOIN pg_class r ON r.oid = f.confrelid \
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = f.conkey[1] \
            WHERE c.relname = ? AND a.attname = ? AND cardinality(f.conkey) = 1
            """, [.text(joinTable), .text(column)]
        ).first?.first?.textValue
    }

    /// `5`, `'-1'::integer`, `2.5`, `'text'::text`, `true`, `NULL::text`; a call (`nextval(…)`,
    /// `now()`) is not a constant.
    func constant(_ expression: String) -> DefaultConstant? {
        Self.constant(expression) { text in
            // A cast at the end: `::text`, `::character varying`, `::numeric(10,2)`.
            guard let cast = text.range(of: "::", options: .backwards), !text[cast.upperBound...].contains("'") else {
                return text
            }
            return text[..<cast.lowerBound]
        }
    }
}
