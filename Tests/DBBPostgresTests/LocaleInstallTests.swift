#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// How the locale functions get into a PostgreSQL database and out of it: installed when a
/// manager opens it, put back when one was dropped by hand, upgraded without losing locales
/// added by the user, removed on request.
@Suite("Locale functions: install, repair, upgrade, uninstall on PostgreSQL")
struct LocaleInstallTests {
    /// How many of the installed functions a database has.
    static func installedCount(_ manager: DBBManager) throws -> Int {
        try manager.query(
            """
            SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'public' AND (p.proname LIKE 'dbb\\_%' OR p.proname LIKE 'objc%')
            """)[0].decode(Int.self, at: 0)
    }

    @Test("a function dropped by hand is put back by the next manager that opens the database")
    func droppedFunctionIsReinstalled() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let installed = try Self.installedCount(server.manager)
        #expect(installed > 30)
        try server.manager.execute("DROP FUNCTION dbb_week_start(double precision, text)")
        try server.manager.execute("DROP FUNCTION dbb_format_of(double precision, text[], text[], int, text)")
        let reopened = try server.reopen()
        #expect(try Self.installedCount(reopened) == installed)
        #expect(
            try reopened.query("SELECT dbb_week_start(0, 'en_US'), dbb_format_date('EEEE', 0, 'de_DE')")[0].values
                == [.text("2000-12-31"), .text("Montag")])
    }

    @Test("locales added by the user keep their rules and names across an upgrade from an older version")
    func addedLocalesSurviveAnUpgrade() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let manager = server.manager
        // 2011-01-02 is a Sunday: a German week with Sunday as first day starts on it.
        let query =
            "SELECT dbb_week_start('2011-01-02', 'de_DE@fw=sun'), dbb_format_date('EEEE, d. MMMM', '2011-01-02', 'de_DE@fw=sun')"
        #expect(throws: DBBError.self) { _ = try manager.query(query) }
        try manager.addLocaleRules(for: ["de_DE@fw=sun"])
        let expected: [DBBValue] = [.text("2011-01-02"), .text("Sonntag, 2. Januar")]
        #expect(try manager.query(query)[0].values == expected)

        // What version 3 left: no names column, another version in the comment.
        try manager.execute("ALTER TABLE dbb_locale_rules DROP COLUMN names")
        try manager.execute("COMMENT ON FUNCTION dbb_week(double precision, text) IS 'DBBBuilder locale functions 3'")
        let upgraded = try server.reopen()
        #expect(try upgraded.query(query)[0].values == expected)
        #expect(
            try upgraded.query("SELECT count(*) FROM dbb_locale_rules WHERE names IS NULL")[0].decode(Int.self, at: 0)
                == 0)
    }

    @Test("an identifier that names no locale is refused by name, and nothing is added")
    func unknownIdentifierIsRefused() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let before = try server.manager.query("SELECT count(*) FROM dbb_locale_rules")[0].decode(Int.self, at: 0)
        let error = try #require(throws: DBBError.self) {
            try server.manager.addLocaleRules(for: ["fr_FR@fw=mon", "xx_QQ@fw=sun"])
        }
        #expect(error.message.contains("'xx_QQ@fw=sun' is not an available locale identifier"), "\(error.message)")
        #expect(try server.manager.query("SELECT count(*) FROM dbb_locale_rules")[0].decode(Int.self, at: 0) == before)
    }

    @Test("uninstall removes every function and the table; the next manager installs them again")
    func uninstallAndReinstall() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let installed = try Self.installedCount(server.manager)
        try server.manager.uninstallLocaleFunctions()
        #expect(try Self.installedCount(server.manager) == 0)
        #expect(try server.manager.query("SELECT to_regclass('dbb_locale_rules') IS NULL")[0].values == [.integer(1)])
        let reopened = try server.reopen()
        #expect(try Self.installedCount(reopened) == installed)
        #expect(try reopened.query("SELECT dbb_format_date('QQQQ', 0, 'en_US')")[0].values == [.text("1st quarter")])
    }

    @Test("a rules table emptied or cut short is filled again by the next manager")
    func damagedRulesAreRepaired() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let check = "SELECT dbb_week(0, 'en_US'), dbb_format_date('MMMM', 0, 'ru_RU')"
        let expected: [DBBValue] = [.text("2001-01"), .text("января")]
        try server.manager.execute("TRUNCATE dbb_locale_rules")
        #expect(throws: DBBError.self) { _ = try server.manager.query(check) }
        #expect(try server.reopen().query(check)[0].values == expected)
        try server.manager.execute("UPDATE dbb_locale_rules SET names = names[1:10] WHERE identifier = 'ru_RU'")
        #expect(try server.manager.query(check)[0].values != expected)
        #expect(try server.reopen().query(check)[0].values == expected)
    }

    @Test("functions installed by a newer library are left alone by an older one")
    func newerVersionIsKept() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        try server.manager.execute(
            "COMMENT ON FUNCTION dbb_week(double precision, text) IS 'DBBBuilder locale functions 99'")
        let reopened = try server.reopen()
        let comment = "SELECT obj_description(to_regprocedure('dbb_week(double precision, text)'), 'pg_proc')"
        #expect(try reopened.query(comment)[0].values == [.text("DBBBuilder locale functions 99")])
    }

    @Test(
        "the functions of a locale are STABLE: an index expression refuses them (their rules may change), dbb_date is IMMUTABLE"
    )
    func noIndexOnLocaleFunctions() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        try server.manager.execute("CREATE TABLE dated (d double precision, t text)")
        for expression in [
            "dbb_week_start(d, 'ru_RU')", "dbb_align(d, 'month', 'en_US', 'start')", "dbb_week(t, 'en_US')",
            "dbb_format_date('yyyy', t, 'en_US')", "ObjcGetYearAndQuarterUsingLocale(d, 'en_US')",
        ] {
            let error = try #require(throws: DBBError.self, "\(expression)") {
                try server.manager.execute("CREATE INDEX dated_x ON dated ((\(expression)))")
            }
            #expect(error.message.contains("IMMUTABLE"), "\(error.message)")
        }
        try server.manager.execute("CREATE INDEX dated_day ON dated ((dbb_date(d)))")
    }
}
#endif
