#if Postgres
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
        // Two seconds: the manager's own statements (registration, the catalog) run under the limit
        // too, and must finish within it on a machine whose cores are busy with other work.
        guard let (_, manager) = try Self.manager({ $0.statementTimeout = .seconds(2) }) else { return }
        let pid = try Self.backendPID(manager)
        let slow = try #require(throws: DBBError.self) {
            _ = try Ticket.instances(matching: Self.sleeping(30), manager: manager)
        }
        #expect(slow.kind == .timedOut && slow.serverError?.sqlState == "57014", "\(slow)")
        #expect(slow.isTimeout && slow.isRetryable && !slow.isConnectionLost, "\(slow)")
        #expect(slow.message.contains("statement timeout"), "\(slow)")

        let write = try #require(throws: DBBError.self) {
            try manager.execute(#"INSERT INTO "Ticket" ("code") SELECT 'slow' FROM pg_sleep(30)"#)
        }
        #expect(write.kind == .timedOut, "\(write)")
        #expect(write.isTimeout && write.isRetryable, "\(write)")
        #expect(try Ticket.all(manager: manager).map(\.code) == ["kept"], "nothing stored")
        #expect(try Self.backendPID(manager) == pid, "the connection was kept")
        #expect(try manager.query("SHOW statement_timeout")[0].decode(String.self, at: 0) == "2s")

        // A limit too short for the manager's own checks when it opens: a DBBError all the same.
        var tight = try DBBPostgresConfiguration(url: try TestPostgresServer.shared()!.makeDatabase())
        tight.statementTimeout = .milliseconds(1)
        do {
            _ = try DBBManager(postgres: tight)
        } catch {
            #expect((error as? DBBError)?.kind == .timedOut, "\(error)")
        }
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
        // A nested call with a longer timeout does not lift the caller's.
        let nested = #expect(throws: DBBError.self) {
            try DBBManager.withStatementTimeout(.milliseconds(300)) {
                try DBBManager.withStatementTimeout(.seconds(30)) { _ = try manager.query("SELECT pg_sleep(3)") }
            }
        }
        #expect(nested?.kind == .timedOut, "\(String(describing: nested))")

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
            // These cannot run in a transaction: the limit is the session's while they run.
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

    @Test(
        "a procedure or DO block that commits inside runs under withStatementTimeout (not in a transaction, which forbids its COMMIT); a timeout after its COMMIT is not .timedOut: what it committed stays, and the error says so"
    )
    func committingInside() throws {
        let pooled = TestPostgresServer.throughPooler
        // Behind a transaction pooler the session's limit would go to other clients: the client's deadline bounds it.
        guard let (_, manager) = try Self.manager({ $0.transactionPooling = pooled }) else { return }
        try manager.execute(
            """
            CREATE PROCEDURE insert_then_sleep(code text, seconds float8) LANGUAGE plpgsql AS
            $$ BEGIN INSERT INTO "Ticket" ("code") VALUES (code); COMMIT; PERFORM pg_sleep(seconds); END $$
            """)
        try DBBManager.withStatementTimeout(.seconds(30)) {
            try manager.execute("CALL insert_then_sleep('called', 0)")
            try manager.execute(#"DO $$ BEGIN INSERT INTO "Ticket" ("code") VALUES ('done'); COMMIT; END $$"#)
        }
        // The session's own limit is what it was after each call.
        if !pooled { try manager.execute("SET statement_timeout = '45s'") }
        let slow = [
            "CALL insert_then_sleep('slow call', 4)",
            #"DO $$ BEGIN INSERT INTO "Ticket" ("code") VALUES ('slow do'); COMMIT; PERFORM pg_sleep(4); END $$"#,
        ]
        for sql in slow {
            let error = try #require(throws: DBBError.self, "\(sql)") {
                try DBBManager.withStatementTimeout(.milliseconds(300)) { try manager.execute(sql) }
            }
            if pooled {
                #expect(error.kind == .commitOutcomeUnknown, "\(sql): \(error)")
            } else {
                #expect(error.kind == .server && error.serverError?.sqlState == "57014", "\(sql): \(error)")
                #expect(error.message.contains("keeps what it may have committed"), "\(sql): \(error)")
            }
        }
        #expect(
            try Ticket.all(manager: manager).map(\.code).sorted() == ["called", "done", "kept", "slow call", "slow do"])
        #expect(
            try manager.query("SHOW statement_timeout")[0].decode(String.self, at: 0) == (pooled ? "0" : "45s"),
            "the session's limit is as before")
    }

    @Test(
        "a statement timeout that cancels CREATE UNIQUE INDEX CONCURRENTLY is not .timedOut: the invalid index it leaves is named, with what to do"
    )
    func cancelledConcurrentIndex() throws {
        guard let (url, manager) = try Self.manager() else { return }
        // An older snapshot in the same database makes the build wait at its end, its index made and not yet valid.
        let reader = try DBBManager(postgres: url)
        let reading = Thread { _ = try? reader.query(#"SELECT pg_sleep(6) FROM "Ticket""#) }
        reading.start()
        Thread.sleep(forTimeInterval: 0.5)
        let error = try #require(throws: DBBError.self) {
            try DBBManager.withStatementTimeout(.seconds(1)) {
                try manager.execute(#"CREATE UNIQUE INDEX CONCURRENTLY "Ticket_code" ON "Ticket" ("code")"#)
            }
        }
        #expect(error.kind == .server && error.serverError?.sqlState == "57014", "\(error)")
        #expect(error.message.contains("DROP INDEX it before creating it again"), "\(error)")
        let valid = try manager.query(
            #"SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('"Ticket_code"')"#)
        #expect(try valid.map { try $0.decode(Bool.self, at: 0) } == [false], "the index stayed, invalid")
        // Dropping it concurrently waits for the same reader, and stops half-way too.
        let drop = try #require(throws: DBBError.self) {
            try DBBManager.withStatementTimeout(.seconds(1)) {
                try manager.execute(#"DROP INDEX CONCURRENTLY "Ticket_code""#)
            }
        }
        #expect(drop.kind == .server && drop.message.contains("drop it again"), "\(drop)")
    }

    @Test(
        "a query bounded by withStatementTimeout runs READ ONLY: a lost COMMIT answer is a plain failure, not commitOutcomeUnknown; a query that writes still runs"
    )
    func boundedQueryReadsOnly() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let url = server.direct(try server.makeDatabase())
        let name = String(url.split(separator: "/").last!.prefix { $0 != "?" })
        let proxy = try TestTCPProxy(upstreamPort: server.port)
        var configuration = try DBBPostgresConfiguration(
            url: "postgres://\(server.user):\(server.password)@127.0.0.1:\(proxy.port)/\(name)?sslmode=disable")
        configuration.poolSize = 1
        let manager = try DBBManager(postgres: configuration)
        try manager.execute("CREATE SEQUENCE counter")
        proxy.arm(.afterForwarding("COMMIT"))
        let error = try #require(throws: DBBError.self) {
            try DBBManager.withStatementTimeout(.seconds(5)) { _ = try manager.query("SELECT 1") }
        }
        #expect(proxy.cuts == 1)
        #expect(error.kind != .commitOutcomeUnknown, "\(error)")
        // A query that writes (nextval) is refused READ ONLY, and run again in a writable transaction.
        let next = try DBBManager.withStatementTimeout(.seconds(5)) { try manager.query("SELECT nextval('counter')") }
        #expect(try next[0].decode(Int.self, at: 0) == 1)
        #expect(try manager.query("SELECT last_value FROM counter")[0].decode(Int.self, at: 0) == 1)
    }
}
#endif
