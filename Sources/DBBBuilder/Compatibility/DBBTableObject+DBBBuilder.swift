import DBBFormat
import Foundation

// MARK: - Identity, table names and change tracking

/// DBBBuilder's names of the object's identity, its table and its dirty mark, over
/// ``id``, ``databaseTableName`` and ``isDirty``.
extension DBBTableObject {
    /// DBBBuilder's name for ``id``.
    public final var idNum: Int64 {
        get { id }
        set { id = newValue }
    }

    /// DBBBuilder's name of the table: ``databaseTableName``.
    public var shortName: String { type(of: self).databaseTableName }

    /// The table name of the class: ``databaseTableName``.
    public static func tableName() -> String { databaseTableName }

    /// DBBBuilder's setter for ``isDirty``: `true` makes the next save write the row even
    /// when no property changed; `false` drops that mark (real changes are still saved).
    public func makeDirty(_ dirty: Bool) { forcedDirty = dirty }
}

// MARK: - Saving, fetching and deleting

/// DBBBuilder's names: `Bool` and optional results, the error kept for
/// ``DBBManager/errorMessage()``. Each calls the throwing form it names.
extension DBBTableObject {
    /// Saves the object (see ``save()-82mr9``); `false` on failure.
    @discardableResult
    public func saveToDB() -> Bool {
        dbManager.recordingErrors { try save() } != nil
    }

    /// Saves a homogeneous batch in one transaction (see ``save(_:manager:)-1uk8h``); `false` on failure.
    @discardableResult
    public static func saveObjects(_ objects: [DBBTableObject], dbManager: DBBManager) -> Bool {
        dbManager.recordingErrors { try save(objects, manager: dbManager) } != nil
    }

    /// The objects `options` select (see ``instances(matching:manager:sparsePopulation:)-4pxff``); `nil` on failure.
    public static func instancesWithOptions(
        _ options: DBBQueryOptions, manager: DBBManager, sparsePopulation: Bool = false
    ) -> [DBBTableObject]? {
        manager.recordingErrors {
            try instances(matching: options, manager: manager, sparsePopulation: sparsePopulation)
        }
    }

    /// Every object of this class (see ``all(manager:)-6q1mr``); empty on failure.
    public static func allInstances(manager: DBBManager) -> [DBBTableObject] {
        manager.recordingErrors { try all(manager: manager) } ?? []
    }

    /// The object with id `id` (see ``instance(id:manager:sparsePopulation:)-3276k``).
    public static func instanceWithIDNumber(_ id: Int64, manager: DBBManager, sparsePopulation: Bool = false)
        -> DBBTableObject?
    {
        manager.recordingErrors { try instance(id: id, manager: manager, sparsePopulation: sparsePopulation) } ?? nil
    }

    /// The objects with the ids `ids` (see ``instances(ids:manager:sparsePopulation:)-kpr5``); empty on failure.
    public static func instancesWithIDNumbers(_ ids: [Int64], manager: DBBManager, sparsePopulation: Bool = false)
        -> [DBBTableObject]
    {
        manager.recordingErrors { try instances(ids: ids, manager: manager, sparsePopulation: sparsePopulation) } ?? []
    }

    /// The ids of every object of this class (see ``allIDs(manager:)-16oku``); empty on failure.
    public static func allInstanceIDs(manager: DBBManager) -> [Int64] {
        manager.recordingErrors { try allIDs(manager: manager) } ?? []
    }

    /// Deletes `instance` (see ``delete()-2ymqc``); `false` on failure.
    @discardableResult
    public static func deleteInstance(_ instance: DBBTableObject, manager: DBBManager) -> Bool {
        manager.recordingErrors { try delete([instance], manager: manager) } != nil
    }

    /// Deletes a homogeneous batch (see ``delete(_:manager:)-28o5w``); `false` on failure.
    @discardableResult
    public static func deleteMultipleInstances(_ instances: [DBBTableObject], manager: DBBManager) -> Bool {
        manager.recordingErrors { try delete(instances, manager: manager) } != nil
    }

    /// Deletes every object of this class (see ``deleteAll(manager:)``); `false` on failure.
    @discardableResult
    public static func deleteAllInstances(manager: DBBManager) -> Bool {
        manager.recordingErrors { try deleteAll(manager: manager) } != nil
    }
}

// MARK: - Column names

extension DBBTableObject {
    /// DBBBuilder's names of the columns every table has, for conditions and sorting:
    /// `"\(DBBTableObject.Keys.id) = ?"`. A subclass may declare its own `Keys` for its
    /// properties (dbb-codegen writes one); inside it, that one is meant by `Keys`, and this one
    /// stays `DBBTableObject.Keys`.
    public enum Keys {
        /// `"id"`: the row id.
        public static let id = DBBFormat.idColumn
        /// `"createdTime"`: when the object was first saved.
        public static let createdTime = DBBFormat.createdTimeColumn
        /// `"modifiedTime"`: when the object was last saved.
        public static let modifiedTime = DBBFormat.modifiedTimeColumn
    }
}

// MARK: - Queue forms

/// DBBBuilder ran these inside `FMDatabaseQueue.inDatabase`, which calls its block before it
/// returns; so do these. `completion` runs on the caller's thread before the call returns, so
/// what it stored is there right after the call. Each reports its outcome to
/// ``DBBManager/errorMessage()`` like the form it wraps. For work off the caller's thread, use the
/// `async` forms (`DBBTableObject+Async.swift`).
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
