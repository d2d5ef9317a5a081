import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// The server's `statement_timeout`: per manager (`statementTimeout`) and per call
/// (`DBBManager.withStatementTimeout`), each ending a statement that runs too long with
/// `.timedOut`, nothing of its transaction stored, the connection kept.
@Suite("Statement timeouts: per manager and per call, enforced by the server")
struct StatementTimeoutTests {
    /// A manager of one connection on a new database, ``Ticket`` registered, "kept" saved.
    private static func manager(_ change: (inout DBBPostgresConfiguration) -> Void = { _ in }) throws -> (
        url: String, manager: DBBManager
    )? {
        guard let server = try TestPostgresServer.shared() else { return nil }
        let url = try server.makeDatabase()
        var configuration = try DBBPostgresConfiguration(url: url)
        configuration.poolSize = 1
        change(&configuration)
        let manager = try DBBManager(postgres: configuration)
        try manager.register([Ticket.self])
        let ticket = Ticket(dbManager: manager)
        ticket.code = "kept"
        try ticket.save()
        return (url, manager)
    }

    private static func backendPID(_ manager: DBBManager) throws -> Int {
        try manager.query("SELECT pg_backend_pid()")[0].decode(Int.self, at: 0)
    }

    /// Options whose condition sleeps `seconds` once, then matches every row.
    private static func sleeping(_ seconds: Double) -> DBBQueryOptions {
        var options = DBBQueryOptions()
        options.conditions = ["(SELECT pg_sleep(\(seconds))) IS NOT NULL"]
        return options
    }

    @Test(
        "statementTimeout: a fetch and a write that run past it are .timedOut (SQLSTATE 57014), nothing stored, the connection kept"
    )
    func perManager() throws {
        if TestPostgresServer.throughPooler {
            // PgBouncer refuses the startup parameter: the error says what to do instead.
            guard let server = try TestPostgresServer.shared() else { return }
            var configuration = try DBBPostgresConfiguration(url: try server.makeDatabase())
            configuration.statementTimeout = .milliseconds(300)
            let error = try #require(throws: DBBError.self) { _ = try DBBManager(postgres: configuration) }
            #expect(
                error.kind == .unavailable && error.message.contains("statement_timeout")
                    && error.message.contains("transactionPooling"), "\(error)")
            return
        }
        guard let (_, manager) = try Self.manager({ $0.statementTimeout = .milliseconds(300) }) else { return }
        let pid = try Self.backendPID(manager)
        let slow = try #require(throws: DBBError.self) {
            _ = try Ticket.instances(matching: Self.sleeping(3), manager: manager)
        }
        #expect(slow.kind == .timedOut && slow.serverError?.sqlState == "57014", "\(slow)")
        #expect(slow.message.contains("statement timeout"), "\(slow)")

        let write = try #require(throws: DBBError.self) {
            try manager.execute(#"INSERT INTO "Ticket" ("code") SELECT 'slow' FROM pg_sleep(3)"#)
        }
        #expect(write.kind == .timedOut, "\(write)")
        #expect(try Ticket.all(manager: manager).map(\.code) == ["kept"], "nothing stored")
        #expect(try Self.backendPID(manager) == pid, "the connection was kept")
        #expect(try manager.query("SHOW statement_timeout")[0].decode(String.self, at: 0) == "300ms")
    }

    @Test(
        "withStatementTimeout: a fetch, a raw write and an async fetch past it are .timedOut; the limit ends with the call",
        arguments: [false, true])
    func perCall(async: Bool) async throws {
        guard let (_, manager) = try Self.manager() else { return }
        let error: DBBError?
        if async {
            error = await #expect(throws: DBBError.self) {
                try await DBBManager.withStatementTimeout(.milliseconds(300)) {
                    _ = try await Ticket.instances(matching: Self.sleeping(3), manager: manager)
                }
            }
        } else {
            error = #expect(throws: DBBError.self) {
                try DBBManager.withStatementTimeout(.milliseconds(300)) {
                    _ = try Result { try Ticket.instances(matching: Self.sleeping(3), manager: manager) }.get()
                }
            }
        }
        #expect(error?.kind == .timedOut && error?.serverError?.sqlState == "57014", "\(String(describing: error))")

        // A statement outside a transaction runs in one of its own, which the limit bounds.
        let write = #expect(throws: DBBError.self) {
            try DBBManager.withStatementTimeout(.milliseconds(300)) {
                try manager.execute(#"UPDATE "Ticket" SET "code" = 'slow' WHERE pg_sleep(3) IS NOT NULL"#)
            }
        }
        #expect(write?.kind == .timedOut, "\(String(describing: write))")
        #expect(try await Ticket.all(manager: manager).map(\.code) == ["kept"], "nothing stored")

        // Inside the limit, what finishes in time is unchanged; after it, no limit is left behind.
        let within = try DBBManager.withStatementTimeout(.seconds(30)) {
            try Result { try Ticket.instances(matching: Self.sleeping(0.1), manager: manager) }.get()
        }
        #expect(within.map(\.code) == ["kept"])
        try DBBManager.withStatementTimeout(.seconds(30)) {
            try manager.execute(#"UPDATE "Ticket" SET "code" = 'renamed'"#)
            // These cannot run in a transaction: they run without the server's limit.
            for sql in [
                "VACUUM", #"CREATE INDEX CONCURRENTLY "Ticket_later" ON "Ticket" ("code")"#,
                #"DROP INDEX CONCURRENTLY "Ticket_later""#, "DISCARD ALL",
            ] {
                try manager.execute(sql)
            }
        }
        #expect(try await Ticket.all(manager: manager).map(\.code) == ["renamed"])
        #expect(try manager.query("SHOW statement_timeout")[0].decode(String.self, at: 0) == "0")
        _ = try Result { try Ticket.instances(matching: Self.sleeping(0.5), manager: manager) }.get()
    }

    @Test(
        "a save bounded by withStatementTimeout runs in a transaction the limit bounds: a trigger that sleeps makes it .timedOut, nothing stored"
    )
    func boundedSave() throws {
        guard let (_, manager) = try Self.manager() else { return }
        try manager.execute(
            """
            CREATE FUNCTION slow_ticket() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN IF NEW.code = 'slow' THEN PERFORM pg_sleep(3); END IF; RETURN NEW; END $$;
            CREATE TRIGGER slow BEFORE INSERT ON "Ticket" FOR EACH ROW EXECUTE FUNCTION slow_ticket()
            """)
        let ticket = Ticket(dbManager: manager)
        ticket.code = "slow"
        let error = try #require(throws: DBBError.self) {
            try DBBManager.withStatementTimeout(.milliseconds(300)) { try ticket.save() }
        }
        #expect(error.kind == .timedOut, "\(error)")
        #expect(ticket.id == 0, "the object is as before the save")
        #expect(try Ticket.all(manager: manager).map(\.code) == ["kept"])
        ticket.code = "fast"
        try DBBManager.withStatementTimeout(.milliseconds(300)) { try ticket.save() }
        #expect(try Ticket.all(manager: manager).map(\.code).sorted() == ["fast", "kept"])
    }

    @Test(
        "a timeout not above zero, or above the server's 24 days, is refused naming it; on SQLite the limit bounds nothing"
    )
    func refused() throws {
        for timeout in [Duration.zero, .seconds(-1), .seconds(30 * 86_400)] {
            let error = #expect(throws: DBBError.self) { try DBBManager.withStatementTimeout(timeout) {} }
            #expect(error?.kind == .invalidOption && error?.message.contains("statement timeout") == true)
            var configuration = try DBBPostgresConfiguration(url: "postgres://app@localhost/db")
            configuration.statementTimeout = timeout
            let refused = #expect(throws: DBBError.self) { _ = try DBBManager(postgres: configuration) }
            #expect(refused?.kind == .invalidOption, "\(String(describing: refused))")
        }
        var pooled = try DBBPostgresConfiguration(url: "postgres://app@localhost/db")
        (pooled.statementTimeout, pooled.transactionPooling) = (.seconds(5), true)
        let error = try #require(throws: DBBError.self) { _ = try DBBManager(postgres: pooled) }
        #expect(error.kind == .invalidOption && error.message.contains("ALTER ROLE app SET statement_timeout"))

        let folder = try TemporaryDirectory()
        let sqlite = try DBBManager(url: folder.url.appendingPathComponent("t.sqlite"))
        let value = try DBBManager.withStatementTimeout(.milliseconds(1)) {
            try sqlite.query(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT count(*) FROM n"
            )
        }
        #expect(try value[0].decode(Int.self, at: 0) == 200_000)
    }

    @Test("a timeout after statements of the same text committed is not .timedOut: they stay, and the message says so")
    func timeoutAfterCommit() throws {
        guard let (_, manager) = try Self.manager() else { return }
        let error = try #require(throws: DBBError.self) {
            try DBBManager.withStatementTimeout(.milliseconds(300)) {
                // (A text without transaction control runs whole in one transaction, and would store nothing.)
                try manager.execute(
                    #"BEGIN; INSERT INTO "Ticket" ("code") VALUES ('first'); COMMIT; SELECT pg_sleep(3)"#)
            }
        }
        #expect(error.kind == .server && error.serverError?.sqlState == "57014", "\(error)")
        #expect(error.message.contains("statements before it in the same SQL text had committed"), "\(error)")
        #expect(try Ticket.all(manager: manager).map(\.code).sorted() == ["first", "kept"])
    }
}
