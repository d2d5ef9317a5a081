import DBBSQLite

/// The values of one column of many rows, bound as one array parameter of a set-based write
/// (see ``SetWritingConnection``). Every value is of ``element``'s kind or `NULL`.
@_spi(DBBBackend)
public struct DBBValueArray {
    /// What the array holds: the kind of its non-`NULL` values.
    public enum Element: Sendable {
        case integer, real, text, blob
    }

    public let element: Element
    public var values: [DBBValue]

    public init(_ element: Element, values: [DBBValue] = []) {
        self.element = element
        self.values = values
    }
}

/// A connection that writes sets of rows in one statement: PostgreSQL's, for which every
/// statement is a round trip. SQLite's connection does not conform: there a prepared statement
/// bound row by row costs no round trip.
@_spi(DBBBackend)
public protocol SetWritingConnection: DatabaseConnection {
    /// Runs `sql`, one statement whose `?` parameters are `arrays`, in order, and returns its
    /// rows.
    func execute(_ sql: String, arrays: [DBBValueArray]) throws -> [[DBBValue]]
}

extension SetWritingConnection {
    @_spi(DBBBackend)
    public var setWriting: (any SetWritingConnection)? { self }
}
