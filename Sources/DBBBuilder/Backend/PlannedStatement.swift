/// One statement of a plan: its SQL (`?` placeholders) and arguments.
@_spi(DBBBackend)
public struct PlannedStatement {
    public let sql: String
    public let arguments: [DBBValue]
    /// The first of the columns that hold arrays, to the last (``DatabaseRows/elements(at:)``),
    /// or `nil` for none: only on a backend whose dialect ``DBBDialect/foldsJoinRows``.
    public let arraysFrom: Int?

    init(_ sql: String, _ arguments: [DBBValue], arraysFrom: Int? = nil) {
        self.sql = sql
        self.arguments = arguments
        self.arraysFrom = arraysFrom
    }
}
