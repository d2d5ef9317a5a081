import DBBFormat
import Foundation

/// DBBBuilder's names: `Bool` and optional results, the error kept for
/// ``DBBManager/errorMessage()``. Each calls the throwing form beside it.
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
