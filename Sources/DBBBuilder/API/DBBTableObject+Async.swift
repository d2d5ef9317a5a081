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
        try await manager.read(mapping, session, on: reading)
        return retyped(session.objects)
    }

    /// Deletes every object of this class, off the caller's thread (cancellation as for the
    /// other writes: see ``DBBTableObject/save()-36bkr``).
    public static func deleteAll(manager: DBBManager) async throws {
        try await manager.offThreadWrite { try deleteAll(manager: manager) }
    }
}

// MARK: - DBBBuilder's queue forms

/// DBBBuilder ran these inside `FMDatabaseQueue.inDatabase`, which calls its block before it
/// returns; so do these. `completion` runs on the caller's thread before the call returns, so
/// what it stored is there right after the call. Each reports its outcome to
/// ``DBBManager/errorMessage()`` like the form it wraps. For work off the caller's thread, use the
/// `async` forms above.
///
/// ```swift
/// var projects: [DBBTableObject] = []
/// Project.getInstancesFromQueue(withOptions: options, manager: manager) { objects, _ in projects = objects }
/// print(projects.count)      // the fetched objects
/// ```
extension DBBTableObject {
    /// Fetches the objects `options` select and passes them to `completion` with `nil`, or no
    /// objects and the error (see ``instancesWithOptions(_:manager:sparsePopulation:)``).
    public static func getInstancesFromQueue(
        withOptions options: DBBQueryOptions, manager: DBBManager, sparsePopulation: Bool = false,
        completion: ([DBBTableObject], DBBError?) -> Void
    ) {
        switch manager.recordingOutcome({
            try instances(matching: options, manager: manager, sparsePopulation: sparsePopulation)
        }) {
        case .success(let objects): completion(objects, nil)
        case .failure(let error): completion([], error)
        }
    }

    /// Passes the object with id `id` to `completion`, or `nil` when there is none or the fetch
    /// failed (see ``instanceWithIDNumber(_:manager:sparsePopulation:)``).
    public static func getQueuedInstanceWithIDNumber(
        _ id: Int64, manager: DBBManager, completion: (DBBTableObject?) -> Void, sparsePopulation: Bool = false
    ) {
        completion(instanceWithIDNumber(id, manager: manager, sparsePopulation: sparsePopulation))
    }

    /// Passes every object of this class to `completion`, none on failure (see ``allInstances(manager:)``).
    public static func getAllInstancesFromQueue(manager: DBBManager, completion: ([DBBTableObject]) -> Void) {
        completion(allInstances(manager: manager))
    }

    /// Passes the objects with `ids` to `completion`, none on failure (see ``instancesWithIDNumbers(_:manager:sparsePopulation:)``).
    public static func getInstancesWithIDNumbersFromQueue(
        ids: [Int64], manager: DBBManager, completion: ([DBBTableObject]) -> Void
    ) {
        completion(instancesWithIDNumbers(ids, manager: manager))
    }

    /// Passes every id of this class to `completion`, none on failure (see ``allInstanceIDs(manager:)``).
    public static func fetchAllInstanceIDsFromQueue(manager: DBBManager, completion: ([Int64]) -> Void) {
        completion(allInstanceIDs(manager: manager))
    }

    /// Deletes `instances` and passes the outcome to `completion` (see ``deleteMultipleInstances(_:manager:)``).
    public static func deleteMultipleInstancesOnQueue(
        _ instances: [DBBTableObject], manager: DBBManager, completion: (Bool) -> Void
    ) {
        completion(deleteMultipleInstances(instances, manager: manager))
    }
}
