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
        try await offThread { try instances(matching: options, manager: manager, sparsePopulation: sparsePopulation) }
    }

    /// Every object of this class, fetched off the caller's thread.
    public static func all(manager: DBBManager) async throws -> [Self] {
        try await offThread { try all(manager: manager) }
    }

    /// The object with id `id`, fetched off the caller's thread.
    public static func instance(id: Int64, manager: DBBManager, sparsePopulation: Bool = false) async throws -> Self? {
        try await offThread { try instance(id: id, manager: manager, sparsePopulation: sparsePopulation) }
    }

    /// The objects with the ids `ids`, fetched off the caller's thread.
    public static func instances(ids: [Int64], manager: DBBManager, sparsePopulation: Bool = false) async throws -> [Self] {
        try await offThread { try instances(ids: ids, manager: manager, sparsePopulation: sparsePopulation) }
    }

    /// The ids of every object of this class, fetched off the caller's thread.
    public static func allIDs(manager: DBBManager) async throws -> [Int64] {
        try await offThread { try allIDs(manager: manager) }
    }

    /// Deletes every object of this class, off the caller's thread (cancellation as for the
    /// other writes: see ``DBBTableObject/save()-(async)``).
    public static func deleteAll(manager: DBBManager) async throws {
        try await manager.offThreadWrite { try deleteAll(manager: manager) }
    }

    private static func offThread<T>(_ work: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        try await DBBManager.offThread(work)
    }
}

// MARK: - DBBBuilder's queue forms

extension DBBTableObject {
    /// Fetches on a background queue; `completion` runs there with the objects, or none and the error.
    public static func getInstancesFromQueue(
        withOptions options: DBBQueryOptions, manager: DBBManager, sparsePopulation: Bool = false,
        completion: @escaping @Sendable ([DBBTableObject], DBBError?) -> Void
    ) {
        let type = self
        background(manager, completion) { try type.instances(matching: options, manager: manager, sparsePopulation: sparsePopulation) }
    }

    /// Fetches every object on a background queue; `completion` runs there (with no object on failure).
    public static func getAllInstancesFromQueue(manager: DBBManager, completion: @escaping @Sendable ([DBBTableObject]) -> Void) {
        let type = self
        background(manager, { objects, _ in completion(objects) }) { try type.all(manager: manager) }
    }

    /// Fetches the objects with `ids` on a background queue; `completion` runs there.
    public static func getInstancesWithIDNumbersFromQueue(
        ids: [Int64], manager: DBBManager, completion: @escaping @Sendable ([DBBTableObject]) -> Void
    ) {
        let type = self
        background(manager, { objects, _ in completion(objects) }) { try type.instances(ids: ids, manager: manager) }
    }

    /// Fetches every id on a background queue; `completion` runs there (empty on failure).
    public static func fetchAllInstanceIDsFromQueue(manager: DBBManager, completion: @escaping @Sendable ([Int64]) -> Void) {
        let type = self
        DispatchQueue.global(qos: .userInitiated).async {
            completion(manager.recordingErrors { try type.allIDs(manager: manager) } ?? [])
        }
    }

    /// Deletes `instances` on a background queue; `completion` runs there with the outcome.
    /// Their ids are taken now; they become 0 only in the synchronous forms.
    public static func deleteMultipleInstancesOnQueue(
        _ instances: [DBBTableObject], manager: DBBManager, completion: @escaping @Sendable (Bool) -> Void
    ) {
        let type = self
        do {
            guard let objectType = try batchClass(instances, manager: manager, action: "deleted") else {
                completion(true)
                return
            }
            let ids = instances.map(\.id)
            DispatchQueue.global(qos: .userInitiated).async {
                completion(manager.recordingErrors { try type.delete(ids: ids, of: objectType, manager: manager) } != nil)
            }
        } catch {
            _ = manager.recordingErrors { throw error }
            completion(false)
        }
    }

    private static func background(
        _ manager: DBBManager, _ completion: @escaping @Sendable ([DBBTableObject], DBBError?) -> Void,
        _ work: @escaping @Sendable () throws -> [DBBTableObject]
    ) {
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                completion(try work(), nil)
            } catch {
                _ = manager.recordingErrors { throw error }
                completion([], manager.lastError)
            }
        }
    }
}
