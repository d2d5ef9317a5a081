// `import DBBLocale` is enough to open a connection and register the functions on it:
// `SQLiteConnection` and the value types the functions' API uses come with it.
@_exported import DBBSQLite
