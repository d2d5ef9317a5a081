#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// `dbb sql postgres://…`: the same table, CSV and JSON output as for a file, the locale
/// functions of the server, read-only unless --write.
@Suite("dbb sql on a PostgreSQL URL")
struct SQLCommandOnPostgresTests {
    @Test("queries with the locale functions print as for a file; writes need --write; no password is shown")
    func sqlOnPostgres() throws {
        let dbb = try #require(ScriptFixture.dbb)
        guard let db = try BackendDatabase(.postgresql) else { return }
        let url = db.place
        try db.manager.execute("CREATE TABLE usage (date text, visits integer)")
        try db.manager.execute(
            "INSERT INTO usage VALUES ('2010-12-31', 5), ('2011-01-01', 7), ('2011-01-02', 11), ('2011-01-03', 13)")
        let query =
            "SELECT dbb_week(date, 'en_US') AS us, dbb_week(date, 'de_DE') AS de, SUM(visits) AS visits"
            + " FROM usage GROUP BY us, de ORDER BY us, de"

        let table = try ScriptFixture.run(dbb, ["sql", url, query])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(
            table.stdout == """
                us       de       visits
                -------  -------  ------
                2011-01  2010-52      12
                2011-02  2010-52      11
                2011-02  2011-01      13

                """, "\(table.stdout)")
        let csv = try ScriptFixture.run(dbb, ["sql", url, "--csv", "SELECT 'a,b' AS t; SELECT 1 AS n"])
        #expect(csv.stdout == "t\n\"a,b\"\nn\n1\n", "\(csv.stdout)")
        let json = try ScriptFixture.run(
            dbb, ["sql", url, "--json"], input: "SELECT dbb_week_start('2011-01-05', 'ru_RU') AS start;")
        #expect(json.stdout.contains(#""start": "2011-01-03""#), "\(json.stdout)")

        let refused = try ScriptFixture.run(dbb, ["sql", url, "UPDATE usage SET visits = 0"])
        #expect(refused.status != 0 && refused.stderr.contains("--write"), "\(refused.stderr)")
        // Nothing the SQL does lifts read-only (the hostile review wrote tables with each of these).
        for lifting in [
            "SET default_transaction_read_only = off; CREATE TABLE zz (a int)",
            "BEGIN READ WRITE; CREATE TABLE zz (a int); COMMIT",
            "COMMIT; BEGIN TRANSACTION READ WRITE; UPDATE usage SET visits = 0; COMMIT",
            "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE; CREATE TABLE zz (a int)",
            "RESET ALL; CREATE TABLE zz (a int)",
            "SELECT set_config('default_transaction_read_only', 'off', false); CREATE TABLE zz (a int)",
            "WITH gone AS (DELETE FROM usage RETURNING 1) SELECT count(*) FROM gone",
        ] {
            let attempt = try ScriptFixture.run(dbb, ["sql", url, lifting])
            #expect(attempt.status != 0 && attempt.stderr.contains("--write"), "\(lifting): \(attempt.stderr)")
        }
        #expect(
            try db.manager.query("SELECT to_regclass('zz') IS NULL, SUM(visits) FROM usage")[0].values == [
                .integer(1), .integer(36),
            ])
        // A transaction left open keeps nothing, as for a file.
        let open = try ScriptFixture.run(dbb, ["sql", url, "--write", "BEGIN; UPDATE usage SET visits = 0"])
        #expect(open.status != 0 && open.stderr.contains("add COMMIT"), "\(open.stderr)")
        #expect(try db.manager.query("SELECT SUM(visits) FROM usage")[0].decode(Int.self, at: 0) == 36)
        let written = try ScriptFixture.run(dbb, ["sql", url, "--write", "UPDATE usage SET visits = 1"])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try db.manager.query("SELECT SUM(visits) FROM usage")[0].decode(Int.self, at: 0) == 4)

        let secret = "Zq7xK"
        let bad = try ScriptFixture.run(dbb, ["sql", "postgres://u:\(secret)@127.0.0.1:99999/x", "SELECT 1"])
        #expect(bad.status != 0 && bad.stderr.contains("99999") && !bad.stderr.contains(secret), "\(bad.stderr)")
    }
}
#endif
