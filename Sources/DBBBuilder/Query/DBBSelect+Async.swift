import DBBSQLite

// A report query, awaited: on PostgreSQL the task suspends (no thread held) while it waits for
// a connection and for the answer; on SQLite the synchronous form runs on a thread of
// DBBBuilder's own.

extension DBBSelect {
    /// Runs the query (see `rows(_:)`) in one statement, awaited.
    ///
    /// ```swift
    /// let pages = try await Visit.select(.column(\.page), .count()).group(by: .column(\.page)).rows(manager)
    /// ```
    public func rows(_ manager: DBBManager) async throws -> [(repeat each Value)]
    where repeat each Value: DBBColumnValue {
        let (mapping, statement) = try rendered(manager)
        let plan = RowsPlan(statement.sql, statement.arguments) { reader in
            var index = 0
            return (repeat try Self.read((each Value).self, reader, &index, mapping))
        }
        if let (_, reading) = try manager.asyncReading(of: select.source) {
            try await manager.observing(.fetch, table: mapping.tableName, sql: statement.sql) {
                try await manager.read(mapping, plan, on: reading)
            }
        } else {
            // The plan as a protocol value: the blocking thread's work is not generic.
            let handed = Handed<any RoundTripPlan>(value: plan)
            try await DBBManager.offThread {
                try manager.observing(.fetch, table: mapping.tableName, sql: statement.sql) {
                    try manager.read(mapping) { connection in try connection.run(handed.value) }
                }
            }
        }
        return plan.values
    }
}
