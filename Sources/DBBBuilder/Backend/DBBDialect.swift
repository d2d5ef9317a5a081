/// The SQL spelling of a backend: which one the ORM's statements are written for (see
/// `SQL/`). The text differs in a few places only — identity columns, column types, ids
/// lists, schema introspection, join-row cleanup — and each of those is written once per
/// dialect there.
@_spi(DBBBackend)
public enum DBBDialect: Sendable, Hashable {
    /// SQLite 3.38 or later (`json_each`, `pragma_table_xinfo`).
    case sqlite
    /// PostgreSQL 12 or later (identity columns, `jsonb`, `information_schema`).
    case postgresql
}

extension DBBDialect {
    /// The statement that holds off every other manager's schema changes until the
    /// transaction ends (see `SchemaSQL.schemaLock`); `nil` on SQLite. For a backend installing
    /// schema of its own (PostgreSQL's locale functions).
    public var schemaLockSQL: String? { SchemaSQL(dialect: self).schemaLock }
}
