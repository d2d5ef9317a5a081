/// The connections of a backend that can run a read without a thread waiting for the server.
@_spi(DBBBackend)
public protocol AsyncReadingAccess: DatabaseAccess {
    /// Runs `plan` in one read transaction (one committed state), suspending the calling task,
    /// not blocking its thread, while it waits for a connection and for each answer.
    func read(_ plan: any RoundTripPlan) async throws
}
