// `import DBBBuilder` is enough to run raw SQL and read its rows: the value types of the API
// surface (`SQLiteValue`, `SQLiteValueConvertible`, `SQLiteRow`, `SQLiteError`…) come with it,
// and so do `Locked` and `DBBBuilderVersion` (DBBCore's; DBBSQLite's before 1.1.0).
@_exported import DBBCore
@_exported import DBBSQLite
