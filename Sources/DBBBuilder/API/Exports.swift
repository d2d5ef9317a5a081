// `import DBBBuilder` is enough to run raw SQL and read its rows: the value model of the API
// (`DBBValue`, `DBBValueConvertible`, `DBBArguments`, `DBBValueReader`: DBBCore's, which every
// backend shares) comes with it, and so do `Locked`, `DBBBuilderVersion` and `SQLQuoting`. The
// SQLite layer stays re-exported for what only SQLite has (`SQLiteConnection` for attachments
// and maintenance, `SQLiteError` under a `DBBError`), as it was before 1.1.0.
@_exported import DBBCore
@_exported import DBBSQLite
