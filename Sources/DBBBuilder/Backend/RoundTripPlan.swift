// Reads written as a plan of round trips, so that one piece of code serves both ways of
// waiting for a server: a thread that blocks (the synchronous forms, and SQLite, whose calls
// are in-process) and a task that suspends (the `async` forms on a backend that offers
// ``AsyncReadingAccess``, which hold no thread while the server works).

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
