#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// A manager behind a real PgBouncer 1.18 in transaction pooling mode (``TestPostgresServer/pooled(_:)``).
@Suite("Behind PgBouncer in transaction mode")
struct PoolerTests {
    /// The URL of a new database through PgBouncer, and one on the server itself; `nil`
    /// without PostgreSQL, or without PgBouncer (``TestPostgresServer/poolerAvailable()``).
    private static func database() throws -> (pooled: String, direct: String)? {
        guard let server = try TestPostgresServer.shared(), try TestPostgresServer.poolerAvailable() else { return nil }
        let url = try server.makeDatabase()
        return (try server.pooled(url), server.direct(url))
    }

    private static func count(_ manager: DBBManager) throws -> Int {
        try manager.query(#"SELECT count(*) FROM "Ticket""#)[0].decode(Int.self, at: 0)
    }

    @Test(
        "with transactionPooling the ORM works as ever; raw SQL that would stay in the session is refused naming it, before anything runs"
    )
    func refusesSessionState() throws {
        guard let (pooled, direct) = try Self.database() else { return }
        var configuration = try DBBPostgresConfiguration(url: pooled)
        configuration.transactionPooling = true
        let manager = try DBBManager(postgres: configuration)
        try manager.register([Ticket.self])
        let tickets = (0..<50).map { index in
            let ticket = Ticket(dbManager: manager)
            ticket.code = "t\(index)"
            return ticket
        }
        try DBBTableObject.save(tickets, manager: manager)
        tickets[0].code = "first"
        try tickets[0].save()
        try tickets[1].delete()
        #expect(try Ticket.all(manager: manager).count == 49)
        #expect(try Ticket.instance(id: tickets[0].id, manager: manager)?.code == "first")

        let refused: [(sql: String, names: String)] = [
            ("SET search_path = public", "SET"),
            ("RESET ALL", "RESET"),
            ("SELECT pg_advisory_lock(42)", "pg_advisory_lock"),
            ("SELECT pg_try_advisory_lock_shared(42)", "pg_try_advisory_lock_shared"),
            ("LISTEN changes", "LISTEN"),
            ("PREPARE q AS SELECT 1", "PREPARE"),
            ("CREATE TEMP TABLE scratch (x int)", "CREATE TEMPORARY"),
            ("DECLARE c CURSOR WITH HOLD FOR SELECT 1", "WITH HOLD"),
            (#"INSERT INTO "Ticket" ("code") VALUES ('before'); SET work_mem = '64MB'"#, "SET"),
            // Quoted, qualified and escaped names of a lock function; temporary objects by other roads.
            (#"SELECT "pg_advisory_lock"(4242)"#, "pg_advisory_lock"),
            (#"SELECT pg_catalog."pg_advisory_lock"(4243)"#, "pg_advisory_lock"),
            (#"SELECT U&"pg\005fadvisory\005flock"(4244)"#, "pg_advisory_lock"),
            ("SELECT 1 AS a INTO TEMP TABLE scratch", "INTO TEMPORARY"),
            ("CREATE TABLE pg_temp.scratch (a int)", "pg_temp"),
            ("CREATE SEQUENCE pg_temp.counter", "pg_temp"),
            ("BEGIN; SET LOCAL search_path = pg_temp; CREATE TABLE scratch (a int); COMMIT", "pg_temp"),
            // The statement EXPLAIN ANALYZE runs; INTO the temporary schema; another escape character.
            ("EXPLAIN ANALYZE CREATE TEMP TABLE scratch AS SELECT 1", "CREATE TEMPORARY"),
            ("SELECT 1 AS a INTO pg_temp.scratch", "pg_temp"),
            (#"SELECT U&"pg!005fadvisory!005flock" UESCAPE '!' (4245)"#, "pg_advisory_lock"),
            // ON COMMIT DROP is a clause of the table, not words anywhere in its query.
            (
                "CREATE TEMP TABLE scratch AS SELECT 1 AS x FROM (SELECT 1) AS c(commit) JOIN (SELECT 1) AS d(drop) "
                    + "ON commit = drop", "CREATE TEMPORARY"
            ),
            // set_config: a session-wide setting, or pg_temp put on the path for a CREATE TABLE.
            ("SELECT set_config('work_mem', '64MB', false)", "set_config"),
            ("SELECT set_config('work_mem', '64MB', ?)", "set_config"),
            ("SELECT set_config('work_mem', '64MB', true::boolean AND false)", "set_config"),
            // set_config by other names.
            ("UPDATE pg_settings SET setting = '77MB' WHERE name = 'work_mem'", "UPDATE pg_settings"),
            ("EXPLAIN ANALYZE UPDATE pg_settings SET setting = '5MB' WHERE name = 'work_mem'", "UPDATE pg_settings"),
            ("SELECT setseed(0.5)", "setseed"),
            (#"SELECT U&"\0073et_config"('application_name', 'evil', false)"#, "set_config"),
            (#"SELECT pg_catalog.U&"!0073et_config" UESCAPE '!' ('application_name', 'evil', false)"#, "set_config"),
            (
                "BEGIN; SELECT set_config('search_path', 'pg_temp', true); CREATE TABLE scratch (a int); COMMIT",
                "pg_temp"
            ),
        ]
        for (sql, names) in refused {
            let error = #expect(throws: DBBError.self, "\(sql)") { try manager.execute(sql) }
            #expect(
                error?.kind == .invalidOption && error?.message.contains(names) == true,
                "\(sql): \(String(describing: error))")
            #expect(error?.message.contains("transactionPooling") == true)
        }
        #expect(try Self.count(manager) == 49, "the INSERT before the refused SET did not run")
        // (pg_locks is the whole cluster's: other tests' locks are in their own databases.)
        let locks = try manager.query(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = "
                + "(SELECT oid FROM pg_database WHERE datname = current_database())")
        #expect(try locks[0].decode(Int.self, at: 0) == 0, "no session advisory lock was taken")

        // Names that only look like it, and what only removes session state, run.
        try manager.execute("CREATE TABLE weather (temp int, listen text, set text)")
        try manager.execute("SELECT pg_advisory_unlock_all(); UNLISTEN *; DISCARD TEMP")
        try manager.execute("INSERT INTO weather VALUES (20, 'pg_advisory_lock', 'SET x')")
        try manager.execute("CREATE TABLE holds (hold int); INSERT INTO holds VALUES (7)")
        try manager.execute("BEGIN; DECLARE c1 CURSOR WITHOUT HOLD FOR SELECT hold FROM holds; FETCH c1; COMMIT")
        try manager.execute("BEGIN; DECLARE c2 CURSOR FOR SELECT hold FROM holds; CLOSE c2; COMMIT")
        try manager.execute(
            "CREATE FUNCTION answer() RETURNS int LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp "
                + "AS 'SELECT 42'")
        #expect(try manager.query("SELECT answer()")[0].decode(Int.self, at: 0) == 42)
        try manager.execute("EXPLAIN CREATE TEMP TABLE scratch AS SELECT 1")  // shown, not run
        try manager.execute("BEGIN; SELECT set_config('work_mem', '64MB', true); COMMIT")
        try manager.execute("BEGIN; SELECT set_config('work_mem', '64MB', true::boolean); COMMIT")
        try manager.execute("BEGIN; SELECT set_config('application_name', 'ok', (true)); COMMIT")
        try manager.execute("EXPLAIN (ANALYZE false) SELECT set_config('work_mem', '1MB', false)")  // not run
        #expect(
            try manager.query("SELECT count(*) FROM pg_settings WHERE name = 'work_mem'")[0].decode(Int.self, at: 0)
                == 1)
        #expect(try manager.query("SELECT to_regclass('pg_temp.scratch') IS NULL")[0].decode(Bool.self, at: 0))

        // What ends with its transaction is fine.
        try manager.execute(
            "BEGIN; SET LOCAL work_mem = '64MB'; SELECT pg_advisory_xact_lock(42);"
                + " CREATE TEMP TABLE scratch (x int) ON COMMIT DROP; INSERT INTO scratch VALUES (1); COMMIT")
        #expect(try manager.query("SELECT pg_try_advisory_xact_lock(42)")[0].decode(Int.self, at: 0) == 1)
        #expect(try Self.count(DBBManager(postgres: direct)) == 49)
    }

    @Test("a read-only manager works behind PgBouncer: it reads, and the server refuses its writes")
    func readOnly() throws {
        guard let (pooled, direct) = try Self.database() else { return }
        let writer = try DBBManager(postgres: direct)
        try writer.register([Ticket.self])
        let ticket = Ticket(dbManager: writer)
        ticket.code = "stored"
        try ticket.save()

        var configuration = try DBBPostgresConfiguration(url: pooled)
        (configuration.readOnly, configuration.transactionPooling) = (true, true)
        let reader = try DBBManager(postgres: configuration)
        try reader.register([Ticket.self])
        #expect(try Ticket.all(manager: reader).map(\.code) == ["stored"])
        let write = Ticket(dbManager: reader)
        write.code = "refused"
        let error = try #require(throws: DBBError.self) { try write.save() }
        #expect(error.kind == .readOnly, "\(error)")
        let setting = try #require(throws: DBBError.self) {
            _ = try reader.query(#"SELECT set_config('default_transaction_read_only', 'off', false)"#)
        }
        #expect(setting.kind == .invalidOption && setting.message.contains("set_config"), "\(setting)")
        let raw = try #require(throws: DBBError.self) {
            try reader.execute(#"INSERT INTO "Ticket" ("code") VALUES ('sneaked')"#)
        }
        #expect(raw.serverError?.sqlState == "25006", "\(raw)")
        #expect(try Self.count(writer) == 1)
    }
}
#endif
