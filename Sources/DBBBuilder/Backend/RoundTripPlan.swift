// Reads written as a plan of round trips, so that one piece of code serves both ways of
// waiting for a server: a thread that blocks (the synchronous forms, and SQLite, whose calls
// are in-process) and a task that suspends (the `async` forms on a backend that offers
// ``AsyncReadingAccess``, which hold no thread while the server works).

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

/// A read as a sequence of statements, each chosen once the rows of the one before are in:
/// whoever runs it asks for the next statement, runs it, hands its rows over, and so on until
/// there is none. Run in one read transaction (see ``DatabaseConnection/run(_:)`` and
/// ``AsyncReadingAccess/read(_:)``).
@_spi(DBBBackend)
public protocol RoundTripPlan: AnyObject {
    /// The statement to run next, or `nil` when the plan is done.
    func nextStatement() throws -> PlannedStatement?
    /// Takes every row of the statement ``nextStatement()`` returned last.
    func consume(_ rows: any DatabaseRows) throws
    /// Whether the first statement may be the whole plan. One statement sees one committed
    /// state by itself, so a backend whose transactions cost round trips (a server) may run it
    /// outside a transaction — and, should the plan then ask for another, ``restart()`` it and
    /// run it whole in a read transaction.
    var firstStatementMayBeAll: Bool { get }
    /// Forgets what the plan consumed: the next ``nextStatement()`` is the first again.
    func restart()
}

extension RoundTripPlan {
    @_spi(DBBBackend)
    public var firstStatementMayBeAll: Bool { false }

    @_spi(DBBBackend)
    public func restart() {}
}

/// The connections of a backend that can run a read without a thread waiting for the server.
@_spi(DBBBackend)
public protocol AsyncReadingAccess: DatabaseAccess {
    /// Runs `plan` in one read transaction (one committed state), suspending the calling task,
    /// not blocking its thread, while it waits for a connection and for each answer.
    func read(_ plan: any RoundTripPlan) async throws
}

extension DatabaseConnection {
    /// Runs `plan` on this connection, in the caller's transaction: each statement prepared
    /// (and cached), its rows handed over as they are stepped.
    @_spi(DBBBackend)
    public func run(_ plan: any RoundTripPlan) throws {
        while let next = try plan.nextStatement() {
            let statement = try statement(next.sql)
            defer { statement.reset() }
            try statement.bind(next.arguments)
            try plan.consume(statement)
        }
    }
}

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
