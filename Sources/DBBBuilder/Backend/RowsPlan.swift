/// A plan of one statement whose rows become values, one each.
@_spi(DBBBackend)
public final class RowsPlan<Value>: RoundTripPlan {
    private let first: PlannedStatement
    private var statement: PlannedStatement?
    private let transform: (DBBColumnReader) throws -> Value
    /// The values, once the plan has run.
    public private(set) var values: [Value] = []

    /// The plan of `sql` with `arguments`, each row becoming `transform`'s value.
    public init(_ sql: String, _ arguments: [DBBValue] = [], _ transform: @escaping (DBBColumnReader) throws -> Value) {
        first = PlannedStatement(sql, arguments)
        statement = first
        self.transform = transform
    }

    public func nextStatement() throws -> PlannedStatement? {
        defer { statement = nil }
        return statement
    }

    public func consume(_ rows: any DatabaseRows) throws {
        let reader = rows.reader
        while try rows.step() { values.append(try transform(reader)) }
    }

    public var firstStatementMayBeAll: Bool { true }

    public func restart() {
        statement = first
        values = []
    }
}
