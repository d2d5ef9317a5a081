// The typed fetches, awaited: on PostgreSQL the task suspends (no thread held) while it waits for
// a connection and for each answer, as the other async fetches do (DBBTableObject+Async.swift);
// on SQLite the synchronous form runs on a thread of DBBBuilder's own.

extension DBBTableObjectFetching {
    /// The objects that `condition` selects (see `instances(where:sortedBy:limit:offset:manager:)`),
    /// awaited.
    ///
    /// ```swift
    /// let recent = try await Visit.instances(where: \.seconds > 10, sortedBy: [.descending(\.day)], manager: manager)
    /// ```
    public static func instances(
        where condition: DBBCondition<Self>? = nil, sortedBy sorting: [DBBSort<Self>] = [], limit: Int? = nil,
        offset: Int? = nil, manager: DBBManager
    ) async throws -> [Self] {
        guard let (mapping, reading) = try manager.asyncReading(of: self) else {
            return try await DBBManager.offThread {
                try instances(where: condition, sortedBy: sorting, limit: limit, offset: offset, manager: manager)
            }
        }
        let query = try typedQuery(
            where: condition, sortedBy: sorting, limit: limit, offset: offset, mapping, manager)
        return try await fetch(query, mapping, reading, manager)
    }

    /// The page after `last` (see `instances(where:sortedBy:after:limit:manager:)`), awaited.
    public static func instances(
        where condition: DBBCondition<Self>? = nil, sortedBy sorting: [DBBSort<Self>] = [], after last: Self,
        limit: Int? = nil, manager: DBBManager
    ) async throws -> [Self] {
        guard let (mapping, reading) = try manager.asyncReading(of: self) else {
            let handed = Handed(value: last)
            return try await DBBManager.offThread {
                try instances(where: condition, sortedBy: sorting, after: handed.value, limit: limit, manager: manager)
            }
        }
        let (filter, order) = try keyset(where: condition, sortedBy: sorting, after: last, mapping, manager)
        let query = try typedQuery(where: filter, sortedBy: order, limit: limit, offset: nil, mapping, manager)
        return try await fetch(query, mapping, reading, manager)
    }
}
