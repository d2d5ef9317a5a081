#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// A server process that stops answering (SIGSTOP), with and without `answerTimeout`.
@Suite("A server that answers nothing: answerTimeout gives up on the connection")
struct AnswerTimeoutTests {
    /// A manager on a new database with one connection (so that the backend process found with
    /// `pg_backend_pid()` is the one the next call uses), ``Ticket`` registered.
    private static func manager(answerTimeout: Duration?) throws -> (url: String, manager: DBBManager)? {
        guard let server = try TestPostgresServer.shared() else { return nil }
        let url = try server.makeDatabase()
        var configuration = try DBBPostgresConfiguration(url: url)
        (configuration.poolSize, configuration.answerTimeout) = (1, answerTimeout)
        let manager = try DBBManager(postgres: configuration)
        try manager.register([Ticket.self])
        return (url, manager)
    }

    /// Stops the server process of `manager`'s connection, runs `body`, and lets the process go
    /// on: when `body` returns, or after `guardSeconds` (a hang guard: with no timeout, `body`
    /// waits for the process) — and whatever happens, so that no stopped process is left.
    /// Returns whether the guard had to let the process go before `body` returned.
    private static func stoppingServer(
        of manager: DBBManager, guardSeconds: Double = 120, _ body: () throws -> Void
    ) throws -> Bool {
        let pid = pid_t(try manager.query("SELECT pg_backend_pid()")[0].decode(Int.self, at: 0))
        #expect(kill(pid, SIGSTOP) == 0, "stop the server process \(pid)")
        let released = Locked(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if done.wait(timeout: .now() + guardSeconds) == .timedOut { released.withLock { $0 = true } }
            kill(pid, SIGCONT)
        }
        defer { done.signal() }
        try body()
        return released.withLock { $0 }
    }

    @Test("a fetch from a stopped server process fails as .timedOut naming answerTimeout; the next one works")
    func fetch() throws {
        guard let (_, manager) = try Self.manager(answerTimeout: .seconds(1)) else { return }
        let ticket = Ticket(dbManager: manager)
        ticket.code = "kept"
        try ticket.save()
        let guardFired = try Self.stoppingServer(of: manager) {
            let error = try #require(throws: DBBError.self) { _ = try Ticket.all(manager: manager) }
            #expect(error.kind == .timedOut, "\(error)")
            #expect(error.message.contains("did not answer within answerTimeout (1.0 seconds)"), "\(error)")
        }
        #expect(!guardFired, "the fetch returned while the server process was still stopped")
        // A new connection, to a new server process.
        #expect(try Ticket.all(manager: manager).map(\.code) == ["kept"])
    }

    @Test("an async fetch from a stopped server process fails the same way; the next one works")
    func asyncFetch() async throws {
        guard let (_, manager) = try Self.manager(answerTimeout: .seconds(1)) else { return }
        let pid = pid_t(try manager.query("SELECT pg_backend_pid()")[0].decode(Int.self, at: 0))
        #expect(kill(pid, SIGSTOP) == 0)
        defer { kill(pid, SIGCONT) }
        let error = await #expect(throws: DBBError.self) { _ = try await Ticket.all(manager: manager) }
        #expect(
            error?.kind == .timedOut && error?.message.contains("answerTimeout") == true,
            "\(String(describing: error))")
        kill(pid, SIGCONT)
        #expect(try await Ticket.all(manager: manager).isEmpty)
    }

    @Test(
        "a save whose server process stops: inside a transaction it is .timedOut and stores nothing; sent alone it is commitOutcomeUnknown"
    )
    func save() throws {
        guard let (url, manager) = try Self.manager(answerTimeout: .seconds(1)) else { return }
        let direct = try DBBManager(postgres: url)
        // Two rows: BEGIN is the first statement, and it goes unanswered.
        let batch = ["a", "b"].map { code in
            let ticket = Ticket(dbManager: manager)
            ticket.code = code
            return ticket
        }
        var guardFired = try Self.stoppingServer(of: manager) {
            let error = try #require(throws: DBBError.self) { try DBBTableObject.save(batch, manager: manager) }
            #expect(error.kind == .timedOut && error.message.contains("answerTimeout"), "\(error)")
        }
        #expect(!guardFired)
        #expect(batch.allSatisfy { $0.id == 0 }, "the objects are as before the save")
        #expect(try direct.count(of: "Ticket") == 0, "nothing was stored")

        // One row: its INSERT is the save's only statement, and commits on its own — had the
        // server run it before it stopped, it would be stored.
        let single = Ticket(dbManager: manager)
        single.code = "single"
        guardFired = try Self.stoppingServer(of: manager) {
            let error = try #require(throws: DBBError.self) { try single.save() }
            #expect(error.kind == .commitOutcomeUnknown && error.message.contains("answerTimeout"), "\(error)")
        }
        #expect(!guardFired)
        #expect(single.id == 0)
        // The batch never reached the server: its retry lands. The lone INSERT did reach it
        // and runs once the process goes on (whether it did is what was unknown); its retry
        // is safe with the unique key: it lands, or is refused as taken.
        try DBBTableObject.save(batch, manager: manager)
        do {
            try single.save()
        } catch let error as DBBError {
            #expect(error.serverError?.sqlState == "23505", "\(error)")
        }
        try ReplicaTests.waitUntil("the stopped process's INSERT has run or lost to the retry") {
            try direct.count(of: "Ticket") == 3
        }
        #expect(
            try direct.query(#"SELECT count(*) FROM "Ticket" WHERE "code" = 'single'"#)[0].decode(Int.self, at: 0) == 1)
    }

    @Test(
        "withStatementTimeout gives up on a stopped server process too: .timedOut after the timeout and its grace, without answerTimeout"
    )
    func callDeadline() throws {
        guard let (_, manager) = try Self.manager(answerTimeout: nil) else { return }
        let guardFired = try Self.stoppingServer(of: manager) {
            let error = try #require(throws: DBBError.self) {
                try DBBManager.withStatementTimeout(.milliseconds(300)) { _ = try Ticket.all(manager: manager) }
            }
            #expect(error.kind == .timedOut, "\(error)")
            #expect(
                error.message.contains(
                    "did not answer within the statement timeout (0.3 seconds) and 1.0 seconds of grace"),
                "\(error)")
        }
        #expect(!guardFired, "the fetch returned while the server process was still stopped")
        #expect(try Ticket.all(manager: manager).isEmpty, "a new connection serves the next fetch")
    }

    @Test("an answerTimeout of zero or less is refused, naming it")
    func refusedTimeout() throws {
        var configuration = try DBBPostgresConfiguration(url: "postgres://app@localhost/db")
        configuration.answerTimeout = .zero
        let error = try #require(throws: DBBError.self) { _ = try DBBManager(postgres: configuration) }
        #expect(error.kind == .invalidOption && error.message.contains("answerTimeout"), "\(error)")
    }
}
#endif
