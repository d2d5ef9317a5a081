import DBBBuilder
import DBBTestSupport
import Foundation

/// A column as the backend's catalog describes it.
public struct TableColumn: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    /// The declared type as the catalog spells it (`Integer` on SQLite, `bigint` on PostgreSQL).
    public let type: String
    public let isNotNull: Bool
    /// The default's SQL text as the catalog gives it (`5`, `'D''HL'` on SQLite; `5`,
    /// `'D''HL'::text` on PostgreSQL), `nil` when there is none.
    public let defaultSQL: String?

    public var description: String {
        "\(name) \(type)\(isNotNull ? " NOT NULL" : "")\(defaultSQL.map { " DEFAULT \($0)" } ?? "")"
    }
}

/// Looking at a database without the table objects, the same on both backends: raw queries
/// through the manager, and the catalog (SQLite's `pragma_table_xinfo`, `pragma_index_info`
/// and `sqlite_master`; PostgreSQL's `information_schema`, `pg_indexes` and `pg_index`), in the
/// schema the manager uses.
extension BackendDatabase {
    /// The number of rows of `table`.
    public func rows(of table: String) throws -> Int {
        try scalar("SELECT count(*) FROM \(quoted(table))", as: Int.self) ?? 0
    }

    /// The first column of the first row of `sql`, as `T`; `nil` when there is no row, the
    /// value is `NULL` or does not convert.
    public func scalar<T: DBBValueConvertible>(_ sql: String, _ arguments: DBBArguments = [], as type: T.Type) throws
        -> T?
    {
        try manager.query(sql, arguments: arguments).first.flatMap { $0[0, as: T.self] }
    }

    /// The first column of every row of `sql`, as `T` (`nil` where it is `NULL` or does not convert).
    public func values<T: DBBValueConvertible>(_ sql: String, _ arguments: DBBArguments = [], as type: T.Type) throws
        -> [T?]
    {
        try manager.query(sql, arguments: arguments).map { $0[0, as: T.self] }
    }

    /// `name` double-quoted: an identifier both engines read with its exact case.
    public func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The tables of the database, sorted.
    public func tables() throws -> [String] {
        let sql =
            switch backend {
            case .sqlite:
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            case .postgresql:
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            }
        return try values(sql, as: String.self).compactMap { $0 }.sorted()
    }

    /// Whether `table` exists.
    public func tableExists(_ table: String) throws -> Bool {
        try tables().contains(table)
    }

    /// The columns of `table` in their order; empty when there is no such table.
    public func columns(of table: String) throws -> [TableColumn] {
        let sql =
            switch backend {
            case .sqlite: "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_xinfo(?) ORDER BY cid"
            case .postgresql:
                "SELECT column_name::text, data_type::text, CASE is_nullable WHEN 'NO' THEN 1 ELSE 0 END, column_default::text"
                    + " FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?"
                    + " ORDER BY ordinal_position"
            }
        return try manager.query(sql, arguments: [table]).map { row in
            TableColumn(
                name: row[0, as: String.self] ?? "", type: row[1, as: String.self] ?? "",
                isNotNull: row[2, as: Int.self] == 1, defaultSQL: row[3, as: String.self])
        }
    }

    /// The names of the columns of `table`, in their order.
    public func columnNames(of table: String) throws -> [String] {
        try columns(of: table).map(\.name)
    }

    /// The indexes made on `table` by `CREATE INDEX`, sorted: not those the engine makes for a
    /// primary key or a `UNIQUE` column constraint (`sqlite_autoindex_…`, `…_pkey`, `…_key`).
    public func indexes(of table: String) throws -> [String] {
        let sql =
            switch backend {
            case .sqlite: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL"
            case .postgresql:
                "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?"
                    + " AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u'))"
            }
        return try values(sql, [table], as: String.self).compactMap { $0 }.sorted()
    }

    /// The columns the index `index` covers, in its order.
    public func indexColumns(_ index: String) throws -> [String] {
        let sql =
            switch backend {
            case .sqlite: "SELECT name FROM pragma_index_info(?) ORDER BY seqno"
            case .postgresql:
                "SELECT a.attname::text FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
                    + " JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY (x.indkey)"
                    + " WHERE i.relname = ? AND i.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
                    + " ORDER BY array_position(x.indkey::int2[], a.attnum)"
            }
        return try values(sql, [index], as: String.self).compactMap { $0 }
    }

    /// The whole layout, one line per table, column, index and trigger, sorted: to compare
    /// before and after (SQLite: every `CREATE` statement; PostgreSQL: every column with its
    /// type, nullability and default, and every index's definition).
    public func layout() throws -> [String] {
        let sql =
            switch backend {
            case .sqlite: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"
            case .postgresql:
                "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '')"
                    + " FROM information_schema.columns WHERE table_schema = current_schema()"
                    + " UNION ALL SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()"
            }
        return try values(sql, as: String.self).compactMap { $0 }.sorted()
    }

    // MARK: - Errors

    /// The kind of error a statement the engine refuses is: ``DBBError/Kind/sqlite`` or
    /// ``DBBError/Kind/server``.
    public var refusalKind: DBBError.Kind {
        backend == .sqlite ? .sqlite : .server
    }

    /// Whether `error` is the engine refusing a write for a constraint: SQLite's
    /// `SQLITE_CONSTRAINT`, PostgreSQL's SQLSTATE class 23 (integrity constraint violation).
    public func isConstraintViolation(_ error: DBBError) -> Bool {
        switch backend {
        case .sqlite: error.kind == .sqlite && error.sqliteError?.code == .constraint
        case .postgresql: error.kind == .server && error.serverError?.sqlState?.hasPrefix("23") == true
        }
    }
}
