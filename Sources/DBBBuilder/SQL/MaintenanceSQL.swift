/// The SQL of the manager's housekeeping: `VACUUM` and DBBBuilder's `DBVersion` table.
enum MaintenanceSQL {
    static let vacuum = "VACUUM"
    static let versionTableExists = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'DBVersion'"
    static let currentVersion = "SELECT MAX(version) FROM DBVersion"
    static let insertVersion = "INSERT INTO DBVersion (createdTime, modifiedTime, version) VALUES (?, ?, ?)"
    static let updateVersion = "UPDATE DBVersion SET version = ?, modifiedTime = ?"
}
