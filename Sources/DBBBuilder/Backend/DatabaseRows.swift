/// The rows of one statement, walked forward: a prepared statement, or the rows a server sent.
@_spi(DBBBackend)
public protocol DatabaseRows: AnyObject {
    /// Moves to the next row: `false` when there is none.
    func step() throws -> Bool
    /// The current row, valid until the next step.
    var reader: DBBColumnReader { get }
    /// The values of the array in column `index` of the current row (see
    /// ``PlannedStatement/arraysFrom``); that column reads as `NULL` through ``reader``.
    func elements(at index: Int) throws -> [DBBValue]
}

extension DatabaseRows {
    @_spi(DBBBackend)
    public func elements(at index: Int) throws -> [DBBValue] {
        throw DBBError(.invalidOption, "column \(index) holds no array this backend reads")
    }
}
