/// Blocking database work off the caller's thread: for `async` code (a server's request
/// handler), which must not block a thread of the cooperative pool on the database.
extension DBBManager {
    /// Runs `work` on a thread of DBBBuilder's own, not on the cooperative thread pool, and returns its
    /// result: raw SQL, or several calls that belong together, from `async` code.
    ///
    /// ```swift
    /// let weeks = try await manager.perform { manager in
    ///     try manager.query("SELECT dbb_week(startTime, ?) AS week, COUNT(*) FROM Meeting GROUP BY week",
    ///                       arguments: ["de_DE"])
    /// }
    /// ```
    ///
    /// The table objects' own `async` forms (`save()`, `instances(matching:manager:)`…) need no
    /// wrapping. A write in `work` is serialized with the manager's other writes as usual.
    public func perform<T: Sendable>(_ work: @escaping @Sendable (DBBManager) throws -> T) async throws -> T {
        try await Self.offThread { try work(self) }
    }
}
