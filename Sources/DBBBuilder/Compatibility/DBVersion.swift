import DBBSQLite
import Foundation

/// The schema version table, laid out as DBBBuilder writes it.
final class DBVersion: DBBTableObject {
    var version: Double = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["version": DBBPropertyPersistence(\DBVersion.version)], for: self)
    }
}
