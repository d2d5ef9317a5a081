import DBBSQLite

/// A prepared statement of a backend: bind by index (from 1), step, read the current row by
/// index (from 0). Statements come from ``DatabaseConnection/statement(_:)`` and are reused:
/// reset it (or let ``DatabaseConnection/execute(_:_:)`` do it) before the next use.
@_spi(DBBBackend)
public protocol DatabaseStatement: DatabaseRows {
    /// Binds `value` to parameter `index` (from 1).
    func bind(_ value: DBBValue, at index: Int) throws
    /// Binds `values` to parameters 1, 2, …
    func bind(_ values: [DBBValue]) throws
    /// Binds `values` to the parameters from `first` (from 1) on: a row's columns in one call.
    func bind(contentsOf values: UnsafeBufferPointer<DBBValue>, from first: Int) throws
    /// Runs the statement to its end, ignoring rows.
    func execute() throws
    /// Makes the statement ready to run again (bindings are kept until rebound; the current
    /// row of ``DatabaseRows/reader`` is gone).
    func reset()
    /// The names of the result columns.
    var columnNames: [String] { get }
}
