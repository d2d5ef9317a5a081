import DBBSQLite
import Foundation

extension DBBManager {
    /// The number of rows of `table` (a class's short name, or any table).
    public func count(of table: String) throws -> Int {
        try read(nil) { try $0.fetchValue(SchemaSQL(dialect: $0.dialect).count(table), as: Int.self) ?? 0 }
    }

    /// Rebuilds the database file to reclaim free space (`VACUUM`).
    public func vacuum() throws {
        try refuseWriteIfReadOnly("vacuum()")
        try write(nil) { try $0.execute(MaintenanceSQL(dialect: $0.dialect).vacuum) }
    }

    /// Drops the index `name`.
    ///
    /// An index a registered class declares (``DBBIndexer``, `@Indexed`) comes back when the
    /// class is registered again.
    /// - Throws: ``DBBError`` of kind ``DBBError/Kind/invalidOption`` naming the index when the
    ///   database has no index of that name (a misspelled name drops nothing, and says so).
    public func removeIndex(named name: String) throws {
        try refuseWriteIfReadOnly("removeIndex(named: \"\(name)\")")
        try write(nil) { connection in
            try connection.atomically(.immediate) {
                guard try connection.fetchValue(connection.dialect.indexExists, [.text(name)], as: Int.self) != 0
                else {
                    throw DBBError(
                        .invalidOption,
                        "there is no index named '\(name)' in this database, so nothing was dropped: check the name "
                            + "(DBBBuilder names a class's index <Table>_<properties>, and a join table's "
                            + "<Table>_<property>_idx)")
                }
                try connection.execute(SchemaSQL(dialect: connection.dialect).dropIndex(name))
            }
        }
    }

    // MARK: - Schema version

    /// The highest version recorded in the `DBVersion` table, 0 when there is none.
    public func databaseVersion() throws -> Double {
        try read(nil) { connection in
            let sql = MaintenanceSQL(dialect: connection.dialect)
            let exists = try connection.fetchValue(sql.versionTableExists, as: Int.self) ?? 0
            guard exists > 0 else { return 0 }
            return try connection.fetchValue(sql.currentVersion, as: Double.self) ?? 0
        }
    }

    /// Records `version` in the `DBVersion` table (DBBBuilder's layout), unless a version
    /// at least as high is recorded already: versions never go down.
    public func setDatabaseVersion(_ version: Double) throws {
        try refuseWriteIfReadOnly("setDatabaseVersion(\(version))")
        let mapping = try mapping(for: DBVersion.self)
        try write(mapping) { connection in
            let sql = MaintenanceSQL(dialect: connection.dialect)
            return try connection.atomically(.immediate) {
                let current = try connection.fetchValue(sql.currentVersion, as: Double.self)
                if let current, current >= version { return }
                let now = Date().timeIntervalSinceReferenceDate
                if current == nil {
                    try connection.execute(sql.insertVersion, [.real(now), .real(now), .real(version)])
                } else {
                    try connection.execute(sql.updateVersion, [.real(version), .real(now)])
                }
            }
        }
    }
}
