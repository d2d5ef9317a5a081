import Dispatch
import Foundation

// MARK: - async

/// On PostgreSQL a fetch's task awaits the server without holding a thread: it suspends while
/// it waits for a pooled connection and for each answer (the event loop receives the rows),
/// and makes the objects on the cooperative pool when it resumes. On SQLite, whose work is in
/// the process, the synchronous form runs on a thread of DBBBuilder's own, not on the cooperative pool.
extension DBBTableObjectFetching {
    /// The objects `options` select, fetched off the caller's thread.
    ///
    /// ```swift
    /// let meetings = try await Meeting.instances(matching: options, manager: manager)
    /// ```
    public static func instances(
        matching options: DBBQueryOptions, manager: DBBManager, sparsePopulation: Bool = false
    ) async throws -> [Self] {
        guard let (mapping, reading) = try manager.asyncReading(of: self) else {
            return try await DBBManager.offThread {
                try instances(matching: options, manager: manager, sparsePopulation: sparsePopulation)
            }
        }
        return try await fetch(
            SelectQuery(mapping, options: options, sparse: sparsePopulation), mapping, reading, manager)
    }

    /// Every object of this class, fetched off the caller's thread.
    public static func all(manager: DBBManager) async throws -> [Self] {
        try await instances(matching: .options(sortColumns: [SchemaSQL.idColumn]), manager: manager)
    }

    /// The object with id `id`, fetched off the caller's thread.
    public static func instance(id: Int64, manager: DBBManager, sparsePopulation: Bool = false) async throws -> Self? {
        try await instances(matching: .options(id: id), manager: manager, sparsePopulation: sparsePopulation).first
    }

    /// The objects with the ids `ids`, fetched off the caller's thread.
    public static func instances(ids: [Int64], manager: DBBManager, sparsePopulation: Bool = false) async throws
        -> [Self]
    {
        guard let (mapping, reading) = try manager.asyncReading(of: self) else {
            return try await DBBManager.offThread {
                try instances(ids: ids, manager: manager, sparsePopulation: sparsePopulation)
            }
        }
        let query = SelectQuery(mapping, ids: ids, sparse: sparsePopulation)
        return ordered(try await fetch(query, mapping, reading, manager), as: ids)
    }

    /// The ids of every object of this class, fetched off the caller's thread.
    public static func allIDs(manager: DBBManager) async throws -> [Int64] {
        guard let (mapping, reading) = try manager.asyncReading(of: self) else {
            return try await DBBManager.offThread { try allIDs(manager: manager) }
        }
        let plan = RowsPlan(mapping.statements.allIDs) { $0.int64(at: 0) }
        try await manager.read(mapping, plan, on: reading)
        return plan.values
    }

    /// Runs `query` as ``fetch(_:_:manager:)`` does, awaiting the server (see above).
    static func fetch(
        _ query: SelectQuery, _ mapping: TableMapping, _ reading: any AsyncReadingAccess, _ manager: DBBManager
    ) async throws -> [Self] {
        let session = FetchSession(query, mapping, dialect: reading.dialect, manager: manager)
        try await manager.observing(.fetch, table: mapping.tableName) {
            try await manager.read(mapping, session, on: reading)
        }
        return retyped(session.objects)
    }

    /// Deletes every object of this class, off the caller's thread (cancellation as for the
    /// other writes: see ``DBBTableObject/save()-36bkr``).
    public static func deleteAll(manager: DBBManager) async throws {
        try await manager.offThreadWrite { try deleteAll(manager: manager) }
    }
}
