/// Reads that wait for the server without a thread: the `async` forms on a backend that
/// offers it (PostgreSQL); the others run the synchronous form off the caller's thread.
extension DBBManager {
    /// The mapping of `type` and the connections that read it without a thread waiting, or
    /// `nil` when the backend waits on a thread (SQLite) or the class's tables are still to be
    /// prepared (the first use, which writes).
    func asyncReading(of type: DBBTableObject.Type) throws -> (TableMapping, any AsyncReadingAccess)? {
        guard let reading = access.asyncReading else { return nil }
        let mapping = try registry.mapping(for: type, manager: self)
        return isTableReady(mapping) ? (mapping, reading) : nil
    }

    /// Runs `plan` in one read transaction on `reading`, turning the backend's errors into
    /// ``DBBError``s about `mapping`, as ``read(_:_:)`` does.
    func read(_ mapping: TableMapping?, _ plan: any RoundTripPlan, on reading: any AsyncReadingAccess) async throws {
        do {
            try await reading.read(plan)
        } catch let error as any DatabaseFailure {
            throw DBBError.backend(error, table: mapping?.tableName, mapping: mapping)
        }
    }
}
