import DBBSQLite

/// An error a backend throws, which the ORM turns into a ``DBBError`` about the table (and
/// property, when the backend names a column) of the operation.
@_spi(DBBBackend)
public protocol DatabaseFailure: Error {
    func dbbError(table: String?, columns: [(property: String, column: String)]) -> DBBError
}
