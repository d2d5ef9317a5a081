import DBBFormat
/// The SQL of the manager's housekeeping: `VACUUM` and DBBBuilder's `DBVersion` table.
enum MaintenanceSQL {
    static let vacuum = "VACUUM"
    static let versionTableExists = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(DBBFormat.versionTable)'"
    static let currentVersion = "SELECT MAX(version) FROM \(DBBFormat.versionTable)"
    static let insertVersion = "INSERT INTO \(DBBFormat.versionTable) (\(DBBFormat.createdTimeColumn), \(DBBFormat.modifiedTimeColumn), version) VALUES (?, ?, ?)"
    static let updateVersion = "UPDATE \(DBBFormat.versionTable) SET version = ?, \(DBBFormat.modifiedTimeColumn) = ?"
}
