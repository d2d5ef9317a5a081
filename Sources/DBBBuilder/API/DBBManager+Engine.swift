extension DBBManager {
    /// The engine of this manager's database, as OpenTelemetry's `db.system` names it: `sqlite`
    /// or `postgresql` — for the rare raw SQL that must be spelled differently on each (a
    /// `strftime` on SQLite is a `to_char` on PostgreSQL). Table objects, typed conditions and
    /// the locale functions never need it. A manager that could not open its file (DBBBuilder's
    /// `init(databaseURL:)`) answers `sqlite`.
    public var databaseSystem: String { access.dialect.name.lowercased() }
}
