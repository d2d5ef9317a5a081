import Dispatch
import Foundation

// MARK: - async

extension DBBTableObjectFetching {
    /// The objects `options` select, fetched off the caller's thread.
    ///
    /// ```swift
    /// let meetings = try await Meeting.instances(matching: options, manager: manager)
    /// ```
    public static func instances(
        matching options: DBBQueryOptions, manager: DBBManager, sparsePopulation: Bool = false
    ) async throws -> [Self] {
        try await DBBManager.offThread {
            try instances(matching: options, manager: manager, sparsePopulation: sparsePopulation)
        }
    }

    /// Every object of this class, fetched off the caller's thread.
    public static func all(manager: DBBManager) async throws -> [Self] {
        try await DBBManager.offThread { try all(manager: manager) }
    }

    /// The object with id `id`, fetched off the caller's thread.
    public static func instance(id: Int64, manager: DBBManager, sparsePopulation: Bool = false) async throws -> Self? {
        try await DBBManager.offThread { try instance(id: id, manager: manager, sparsePopulation: sparsePopulation) }
    }

    /// The objects with the ids `ids`, fetched off the caller's thread.
    public static func instances(ids: [Int64], manager: DBBManager, sparsePopulation: Bool = false) async throws
        -> [Self]
    {
        try await DBBManager.offThread { try instances(ids: ids, manager: manager, sparsePopulation: sparsePopulation) }
    }

    /// The ids of every object of this class, fetched off the caller's thread.
    public static func allIDs(manager: DBBManager) async throws -> [Int64] {
        try await DBBManager.offThread { try allIDs(manager: manager) }
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
