import DBBFormat

/// The SQL of the manager's housekeeping: `VACUUM` and DBBBuilder's `DBVersion` table.
struct MaintenanceSQL {
    let dialect: any DBBDialect

    let vacuum = "VACUUM"

    var versionTableExists: String { dialect.versionTableExists }

    var currentVersion: String { "SELECT MAX(version) FROM \(table)" }

    var insertVersion: String {
        "INSERT INTO \(table) (\(column(DBBFormat.createdTimeColumn)), \(column(DBBFormat.modifiedTimeColumn)), version) VALUES (?, ?, ?)"
    }

    var updateVersion: String { "UPDATE \(table) SET version = ?, \(column(DBBFormat.modifiedTimeColumn)) = ?" }

    private var table: String { dialect.quote(DBBFormat.versionTable) }
    private func column(_ name: String) -> String { dialect.quote(name) }
}
