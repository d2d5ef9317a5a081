/// The statement timeout of the call running now (``DBBManager/withStatementTimeout(_:_:)-(_,()->T)``).
@_spi(DBBBackend)
public struct StatementDeadline: Sendable {
    /// The timeout as given.
    public let timeout: Duration
    /// The timeout in whole milliseconds (rounded up), as the server's `statement_timeout` takes it.
    public let milliseconds: Int

    /// The deadline of the `withStatementTimeout` calls around the calling code (the shortest), if any.
    @TaskLocal public static var current: StatementDeadline?

    /// `timeout`, checked.
    /// - Throws: `DBBError.Kind.invalidOption` for a timeout not above zero or above the
    ///   server's most (`Int32.max` milliseconds, 24 days).
    public init(_ timeout: Duration) throws {
        let (seconds, attoseconds) = timeout.components
        let whole = seconds.multipliedReportingOverflow(by: 1000)
        let milliseconds = whole.partialValue &+ (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        guard timeout > .zero, !whole.overflow, milliseconds <= Int64(Int32.max) else {
            throw DBBError(
                .invalidOption,
                "a statement timeout of \(timeout) is not above zero and at most Int32.max milliseconds (24 days)")
        }
        self.timeout = timeout
        self.milliseconds = Int(milliseconds)
    }

    /// The shorter of this deadline and `outer`, the one around it: a nested call cannot lift
    /// the limit of the code that called it.
    func within(_ outer: StatementDeadline?) -> StatementDeadline {
        guard let outer, outer.timeout < timeout else { return self }
        return outer
    }
}
