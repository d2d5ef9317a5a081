#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

@Suite("Opening a PostgreSQL database without changing it")
struct ReadOnlyManagerTests {
    /// Whether any of DBBBuilder's locale functions, or their table, is in the database.
    private func localeFunctionsInstalled(_ manager: DBBManager) throws -> Bool {
        let row = try manager.query(
            "SELECT (SELECT count(*) FROM pg_proc WHERE proname LIKE 'dbb\\_%'), to_regclass('dbb_locale_rules') IS NOT NULL"
        )[0]
        return try row.decode(Int.self, at: 0) > 0 || row.decode(Int.self, at: 1) == 1
    }

    private func readOnly(_ url: String) throws -> DBBManager {
        var configuration = try DBBPostgresConfiguration(url: url)
        configuration.readOnly = true
        #expect(configuration.description.hasSuffix("read-only)"))
        return try DBBManager(postgres: configuration)
    }

    @Test("a read-only manager installs nothing, registers only what exists, and the server refuses its writes")
    func readOnlyManager() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let url = try server.makeDatabase()
        let reader = try readOnly(url)
        #expect(try !localeFunctionsInstalled(reader))
        let missing = try #require(throws: DBBError.self) { _ = try reader.query("SELECT dbb_week(0, 'en_US')") }
        #expect(missing.kind == .server && missing.serverError?.sqlState == "42883")
        #expect(
            missing.message.contains("dbb_week is one of DBBBuilder's locale functions")
                && missing.message.contains("not installed")
                && missing.message.contains("installLocaleFunctions()"), "\(missing)")
        let unregistered = try #require(throws: DBBError.self) { try reader.register([Ticket.self]) }
        #expect(unregistered.message.contains("its table Ticket does not exist"), "\(unregistered)")
        #expect(unregistered.kind == .migrationRefused && unregistered.message.contains("read-only"), "\(unregistered)")
        let refused = try #require(throws: DBBError.self) { try reader.execute("CREATE TABLE t (a int)") }
        #expect(refused.serverError?.sqlState == "25006", "\(refused)")
        #expect(
            try reader.query("SELECT to_regclass('t') IS NULL, to_regclass('\"Ticket\"') IS NULL")[0].values == [
                .integer(1), .integer(1),
            ])
        let installing = try #require(throws: DBBError.self) { try reader.installLocaleFunctions() }
        #expect(installing.kind == .readOnly, "\(installing)")

        // A manager that writes installs the functions and makes the table; then the reader reads.
        let writer = try DBBManager(postgres: url)
        try writer.register([Ticket.self])
        let ticket = Ticket(dbManager: writer)
        ticket.code = "R-1"
        try ticket.save()
        try reader.register([Ticket.self])
        #expect(try Ticket.all(manager: reader).map(\.code) == ["R-1"])
        // A later version's constraints, which the rows do not allow, are the writers' business.
        try writer.register([ContactV1.self])
        for code in [1, 2] {
            let contact = ContactV1(dbManager: writer)
            (contact.email, contact.code) = ("same", code)
            try contact.save()
        }
        try reader.register([ContactStrict.self])
        #expect(try ContactStrict.all(manager: reader).count == 2)
        #expect(try reader.query("SELECT dbb_week('2011-01-02', 'en_US')")[0].decode(String.self, at: 0) == "2011-02")
        let copy = try #require(try Ticket.instance(id: ticket.id, manager: reader))
        copy.code = "changed"
        let save = try #require(throws: DBBError.self) { try copy.save() }
        #expect(save.kind == .readOnly, "\(save)")
        #expect(try Ticket.all(manager: writer).map(\.code) == ["R-1"])
    }

    @Test("no SQL lifts a read-only manager's read-only: set_config is undone, BEGIN READ WRITE and SET are refused")
    func noEscape() async throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let url = try server.makeDatabase()
        let writer = try DBBManager(postgres: url)
        try writer.register([Ticket.self])
        // A function that writes, for a fetch's condition to call.
        try writer.execute(
            #"CREATE FUNCTION sneaky_write() RETURNS bigint LANGUAGE sql AS $$ INSERT INTO "Ticket" ("code") VALUES ('written by a read') RETURNING 0::bigint $$"#
        )
        let ticket = Ticket(dbManager: writer)
        ticket.code = "kept"
        try await ticket.save()
        var configuration = try DBBPostgresConfiguration(url: url)
        (configuration.readOnly, configuration.poolSize) = (true, 1)  // one session: whatever it set would last
        let reader = try DBBManager(postgres: configuration)
        try reader.register([Ticket.self])
        /// Whether the server refuses writes on the reader's session. (The table objects' writes
        /// are refused before they reach it: see ReadOnlyManagerWriteTests.)
        func refusedWrites() -> Bool {
            let insert = Result { try reader.execute(#"INSERT INTO "Ticket" ("code") VALUES ('written')"#) }
            let delete = Result { try reader.execute(#"DELETE FROM "Ticket""#) }
            return [insert, delete].allSatisfy {
                guard case .failure(let error as DBBError) = $0 else { return false }
                return error.serverError?.sqlState == "25006"
            }
        }
        #expect(refusedWrites())
        _ = try reader.query("SELECT set_config('default_transaction_read_only', 'off', false)")
        #expect(refusedWrites(), "set_config ran in a read-only transaction of its own, rolled back")
        let options = DBBQueryOptions.options(
            withConditions: ["set_config('default_transaction_read_only', 'off', false) = 'off'"])
        /// Whether a fetch whose condition writes is refused, sync and async.
        func refusedWritingFetch() async -> Bool {
            let writing = DBBQueryOptions.options(withConditions: ["id > sneaky_write()"])
            let sync = Result { try Ticket.instances(matching: writing, manager: reader) }
            let async: Result<[Ticket], any Error>
            do { async = .success(try await Ticket.instances(matching: writing, manager: reader)) } catch {
                async = .failure(error)
            }
            return [sync, async].allSatisfy {
                guard case .failure(let error as DBBError) = $0 else { return false }
                return error.serverError?.sqlState == "25006"
            }
        }
        #expect(await refusedWritingFetch())
        // A fetch of one statement (a class without join properties) is not sent alone here:
        // alone, what its condition set for the session would last.
        _ = try Result { try Ticket.instances(matching: options, manager: reader) }.get()
        #expect(refusedWrites(), "a fetch's transaction is read-only and rolled back")
        #expect(await refusedWritingFetch(), "a fetch's transaction is read-only and rolled back")
        _ = try await Ticket.instances(matching: options, manager: reader)
        #expect(await refusedWritingFetch(), "an async fetch's transaction is read-only and rolled back")
        for escape in [
            #"BEGIN READ WRITE; INSERT INTO "Ticket" ("code") VALUES ('x'); COMMIT"#,
            "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
            "SET default_transaction_read_only = off",
            "COMMIT", "RESET ALL",
        ] {
            let error = try #require(throws: DBBError.self, "\(escape)") { try reader.execute(escape) }
            #expect(error.kind == .invalidOption && error.message.contains("read-only"), "\(error)")
        }
        #expect(refusedWrites())
        #expect(try Result { try Ticket.all(manager: writer) }.get().map(\.code) == ["kept"])
    }

    @Test("dbb sql without --write installs nothing; as a role that may only read, side effects are refused too")
    func dbbSQLInstallsNothing() throws {
        let dbb = try #require(ScriptFixture.dbb)
        guard let server = try TestPostgresServer.shared() else { return }
        let url = try server.makeDatabase()
        let count = try ScriptFixture.run(dbb, ["sql", url, "SELECT count(*) AS n FROM pg_class"])
        #expect(count.status == 0, "\(count.stderr)")
        #expect(try !localeFunctionsInstalled(try readOnly(url)), "dbb sql without --write installed something")
        let week = try ScriptFixture.run(dbb, ["sql", url, "SELECT dbb_week(0, 'en_US')"])
        #expect(week.status != 0 && week.stderr.contains("installLocaleFunctions()"), "\(week.stderr)")
        let arguments = try ScriptFixture.run(dbb, ["sql", url, "--write", "SELECT dbb_week(1)"])
        #expect(
            arguments.status != 0 && arguments.stderr.contains("check the arguments")
                && arguments.stderr.contains("dbb_week(double precision, text)"), "\(arguments.stderr)")

        // A function whose effect ignores transactions runs even in a read-only session of a
        // superuser; a role granted only reading may not call it.
        let writer = try DBBManager(postgres: url)  // installs the functions
        let role = "reader_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        try writer.execute("CREATE ROLE \(role) LOGIN PASSWORD 'read-only-secret' IN ROLE pg_read_all_data")
        defer { try? writer.execute("DROP ROLE \(role)") }
        let name = String(url.split(separator: "/").last!.prefix { $0 != "?" })
        let readerURL = "postgres://\(role):read-only-secret@127.0.0.1:\(server.port)/\(name)?sslmode=disable"
        let reset = try ScriptFixture.run(dbb, ["sql", readerURL, "SELECT pg_stat_reset()"])
        #expect(reset.status != 0 && reset.stderr.contains("42501"), "\(reset.stderr)")
        let slot = try ScriptFixture.run(dbb, ["sql", readerURL, "SELECT pg_create_physical_replication_slot('x')"])
        #expect(slot.status != 0 && slot.stderr.contains("42501"), "\(slot.stderr)")
        let reads = try ScriptFixture.run(dbb, ["sql", readerURL, "SELECT dbb_week('2011-01-02', 'de_DE') AS w"])
        #expect(reads.status == 0 && reads.stdout.contains("2010-52"), "\(reads.stderr)")
    }
}
#endif
