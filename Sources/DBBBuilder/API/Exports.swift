// `import DBBBuilder` is enough to run raw SQL and read its rows: the value types of the API
// surface (`SQLiteValue`, `SQLiteValueConvertible`, `SQLiteRow`, `SQLiteError`…) come with it.
@_exported import DBBSQLite
