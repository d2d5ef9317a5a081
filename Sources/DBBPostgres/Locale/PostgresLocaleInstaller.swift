#if Postgres
@_spi(DBBBackend) import DBBBuilder
import DBBLocale
import Foundation

/// Installs the locale date functions (``PostgresLocaleSQL``) in a database when a manager
/// opens it: once (a manager that finds the current version does nothing but ask), under the
/// schema lock (instances starting together install them once), replacing another version.
enum PostgresLocaleInstaller {
    /// Whether the functions could be installed: `false` on a server that refused (a read-only
    /// standby, a role without `CREATE` on the schema), where they may already be there —
    /// unless `reportingRefusal`, when the refusal is thrown.
    @discardableResult
    static func installIfNeeded(_ access: PostgresAccess, reportingRefusal: Bool = false) throws -> Bool {
        guard try translated({ try access.read(needsInstall) }) else { return true }
        do {
            try access.write { connection in
                try connection.atomically(.immediate) {
                    if let lock = PostgresDialect().schemaLock { try connection.execute(lock, []) }
                    guard try needsInstall(connection) else { return }
                    // Identifiers added with addLocaleRules(for:) stay, with this version's names.
                    for statement in PostgresLocaleSQL.createTable { try connection.execute(statement, []) }
                    let stored = try strings(connection, PostgresLocaleSQL.storedIdentifiers)
                    let added = Set(stored).subtracting(foundationRules.map(\.identifier)).sorted().compactMap {
                        try? PostgresLocaleInstaller.rules(of: $0)
                    }
                    for statement in PostgresLocaleSQL.install(rules: foundationRules + added) {
                        try connection.execute(statement, [])
                    }
                }
            }
            return true
        } catch let failure as PostgresFailure {
            // A read-only standby or a role that may not create functions: use what is there.
            if !reportingRefusal, ["25006", "42501"].contains(failure.server?.sqlState) { return false }
            throw failure.dbbError(table: nil, columns: [])
        }
    }

    /// Whether the database lacks this version of the functions: none or an older version is
    /// installed, or this version with a function, the table or rows of Foundation's locales
    /// missing (dropped, truncated, names cut short). A newer version, installed by a newer
    /// library, is left as it is.
    private static func needsInstall(_ connection: any DatabaseConnection) throws -> Bool {
        guard let installed = try text(connection, PostgresLocaleSQL.installedVersion) else { return true }
        if installed != PostgresLocaleSQL.version {
            return (PostgresLocaleSQL.versionNumber(of: installed) ?? 0) < PostgresLocaleSQL.versionNumber
        }
        let complete = Int(try text(connection, PostgresLocaleSQL.completeRows) ?? "") ?? 0
        return complete < foundationIdentifiers.count
    }

    /// Every identifier of `Locale.availableIdentifiers`, and `en_US_POSIX`.
    static let foundationIdentifiers = Set(Locale.availableIdentifiers + ["en_US_POSIX"])

    /// Adds the week rules, digits and names of locale identifiers the server does not know
    /// yet, such as `de_DE@fw=sun` (every identifier of `Locale.availableIdentifiers` is there
    /// already).
    static func addRules(for identifiers: [String], _ access: PostgresAccess) throws {
        let rows = try identifiers.map { identifier in
            do {
                return try rules(of: identifier)
            } catch {
                throw DBBError(backend: .invalidOption, "\(error)")
            }
        }
        guard !rows.isEmpty else { return }
        try PostgresLocaleInstaller.translated {
            try access.write { connection in
                try connection.atomically(.immediate) {
                    for statement in PostgresLocaleSQL.insert(rows) { try connection.execute(statement, []) }
                }
            }
        }
    }

    /// The row of `identifier`, filed under its normalized form.
    private static func rules(of identifier: String) throws(DBBLocaleError) -> PostgresLocaleSQL.Rules {
        let calendar = try DBBLocaleCalendar(localeIdentifier: identifier)
        let symbols = try DBBLocaleSymbols(localeIdentifier: identifier)
        return PostgresLocaleSQL.Rules(
            identifier: symbols.identifier, firstWeekday: calendar.firstWeekday,
            minimumDays: calendar.minimumDaysInFirstWeek, names: symbols.flattened)
    }

    /// Runs `body`, a backend failure in it made a `DBBError`.
    static func translated<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as PostgresFailure {
            throw failure.dbbError(table: nil, columns: [])
        }
    }

    /// The rows of every locale Foundation knows, computed once per process.
    static let foundationRules: [PostgresLocaleSQL.Rules] =
        foundationIdentifiers.sorted().map { identifier in
            let locale = Locale(identifier: identifier)
            let calendar = DBBLocaleCalendar(locale: locale)
            return PostgresLocaleSQL.Rules(
                identifier: identifier, firstWeekday: calendar.firstWeekday,
                minimumDays: calendar.minimumDaysInFirstWeek,
                names: DBBLocaleSymbols(identifier: identifier, locale: locale).flattened)
        }

    /// The texts in the first column of `sql`'s rows.
    private static func strings(_ connection: any DatabaseConnection, _ sql: String) throws -> [String] {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        var values: [String] = []
        while try statement.step() { values.append(statement.reader.string(at: 0) ?? "") }
        return values
    }

    /// The text in the first column of the first row of `sql`.
    private static func text(_ connection: any DatabaseConnection, _ sql: String) throws -> String? {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.reader.string(at: 0)
    }
}
#endif
