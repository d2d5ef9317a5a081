import DBBSQLite
import Foundation

extension DBBManager {
    /// Registers table-object classes: creates each table, its join tables, indexes and the
    /// triggers that delete join rows with their rows, or brings existing tables up to date.
    /// The classes they refer to are registered with them. Properties added to a class become
    /// new columns (`ALTER TABLE ADD COLUMN`); properties removed keep their columns and data.
    /// All of it happens in one transaction, after every class was checked.
    ///
    /// - Throws: ``DBBError`` naming the class and property of a bad mapping, two classes with
    ///   one table name (``DBBError/Kind/invalidMapping``), a migration that would change stored
    ///   data (``DBBError/Kind/migrationRefused``), or the SQL that failed. Nothing was changed then.
    public func register(_ tableClasses: [DBBTableObject.Type]) throws {
        do {
            let mappings = try tableClasses.map { type throws(DBBError) in
                try registry.mapping(for: type, manager: self)
            }
            try prepareTables(mappings, always: true)
        } catch {
            // A class refused leaves no claim on its names behind: the mappings this call made
            // (of its classes and the classes they refer to) go with it.
            registry.forget { !isTableReady($0) }
            throw error
        }
    }

    /// Creates or migrates the tables of `roots` (always, when `always`; else unless done
    /// already) and of every class they refer to, directly or not, that is not ready yet, in
    /// one transaction (a savepoint inside a save's transaction).
    func prepareTables(_ roots: [TableMapping], always: Bool) throws {
        var all: [TableMapping] = []
        var seen: Set<ObjectIdentifier> = []
        var queue = roots
        while let mapping = queue.popLast() {
            guard seen.insert(ObjectIdentifier(mapping.objectType)).inserted else { continue }
            all.append(mapping)
            for case let relation? in mapping.joins.map(\.access.relation) {
                queue.append(try registry.mapping(for: relation.targetType, manager: self))
            }
        }
        let rootKeys = Set(roots.map { ObjectIdentifier($0.objectType) })
        let pending = all.filter { (always && rootKeys.contains(ObjectIdentifier($0.objectType))) || !isTableReady($0) }
        guard !pending.isEmpty else { return }
        let changes = try observing(.schema, table: pending.count == 1 ? pending[0].tableName : nil) {
            try write(nil) { connection in
                try connection.atomically(.immediate) {
                    try SchemaMigration(connection: connection, readOnly: access.isReadOnly).apply(pending) { type in
                        try self.registry.mapping(for: type, manager: self)
                    }
                }
            }
        }
        markTablesReady(pending)
        // Logged once committed: a migration that failed changed nothing.
        if let logger = logging?.logger {
            for change in changes { logger.notice("schema: \(change)") }
        }
    }
}
