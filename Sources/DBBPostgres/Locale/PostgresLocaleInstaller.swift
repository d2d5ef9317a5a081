@_spi(DBBBackend) import DBBBuilder
import DBBLocale
import Foundation

/// Installs the locale date functions (``PostgresLocaleSQL``) in a database when a manager
/// opens it: once (a manager that finds the current version does nothing but ask), under the
/// schema lock (instances starting together install them once), replacing another version.
enum PostgresLocaleInstaller {
    /// Whether the functions could be installed: `false` on a server that refused (a read-only
    /// standby, a role without `CREATE` on the schema), where they may already be there.
    @discardableResult
    static func installIfNeeded(_ access: PostgresAccess) throws -> Bool {
        let installed = try access.read { try text($0, PostgresLocaleSQL.installedVersion) }
        guard installed != PostgresLocaleSQL.version else { return true }
        do {
            try access.write { connection in
                try connection.atomically(.immediate) {
                    if let lock = DBBDialect.postgresql.schemaLockSQL { try connection.execute(lock, []) }
                    guard try text(connection, PostgresLocaleSQL.installedVersion) != PostgresLocaleSQL.version else { return }
                    for statement in PostgresLocaleSQL.install(rules: rules) { try connection.execute(statement, []) }
                }
            }
            return true
        } catch let failure as PostgresFailure {
            // A read-only standby or a role that may not create functions: use what is there.
            if ["25006", "42501"].contains(failure.server?.sqlState) { return false }
            throw failure.dbbError(table: nil, columns: [])
        }
    }

    /// Adds the week rules of locale identifiers the server does not know yet, such as
    /// `de_DE@fw=sun` (every identifier of `Locale.availableIdentifiers` is there already).
    static func addRules(for identifiers: [String], _ access: PostgresAccess) throws {
        let rows = try identifiers.map { identifier -> [DBBValue] in
            do {
                let calendar = try DBBLocaleCalendar(localeIdentifier: identifier)
                return [.text(identifier), .integer(Int64(calendar.firstWeekday)), .integer(Int64(calendar.minimumDaysInFirstWeek))]
            } catch {
                throw DBBError(backend: .invalidOption, "\(error)")
            }
        }
        try PostgresLocaleInstaller.translated {
          try access.write { connection in
            try connection.atomically(.immediate) {
                for row in rows {
                    try connection.execute("INSERT INTO \(PostgresLocaleSQL.rulesTable) (identifier, first_weekday, minimum_days)"
                                           + " VALUES (dbb_locale_key(?), ?, ?) ON CONFLICT (identifier) DO UPDATE"
                                           + " SET first_weekday = EXCLUDED.first_weekday, minimum_days = EXCLUDED.minimum_days", row)
                }
            }
          }
        }
    }

    /// Runs `body`, a backend failure in it made a ``DBBError``.
    static func translated<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as PostgresFailure {
            throw failure.dbbError(table: nil, columns: [])
        }
    }

    /// The week rules of every locale Foundation knows.
    static var rules: [(identifier: String, firstWeekday: Int, minimumDays: Int)] {
        Set(Locale.availableIdentifiers + ["en_US_POSIX"]).sorted().map { identifier in
            let calendar = DBBLocaleCalendar(locale: Locale(identifier: identifier))
            return (identifier, calendar.firstWeekday, calendar.minimumDaysInFirstWeek)
        }
    }

    /// The text in the first column of the first row of `sql`.
    private static func text(_ connection: any DatabaseConnection, _ sql: String) throws -> String? {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.reader.string(at: 0)
    }
}
