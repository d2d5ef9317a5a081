#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// A row with a unique key: a save repeated after an unknown outcome cannot land twice.
final class Ticket: DBBTableObject {
    var code = ""
    /// How many times the post-save hook ran.
    nonisolated(unsafe) var savedCount = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["code": [.notNull, .unique]]
        dbManager.addPersistenceMapping(["code": DBBPropertyPersistence(\Ticket.code)], for: self)
    }

    override func performPostSaveActions() { savedCount += 1 }
}

@Suite("A commit is a commit: what the caller hears is what the database did")
struct CommitOutcomeTests {
    /// A new database, and a manager that reaches it through a proxy that can cut its
    /// connections, with ``Ticket`` registered; `nil` without PostgreSQL.
    static func behindProxy() throws -> (url: String, proxy: TestTCPProxy, manager: DBBManager)? {
        guard let server = try TestPostgresServer.shared() else { return nil }
        let url = try server.makeDatabase()
        let proxy = try TestTCPProxy(upstreamPort: server.clientPort)
        let manager = try DBBManager(
            postgres: url.replacingOccurrences(of: ":\(server.clientPort)/", with: ":\(proxy.port)/"))
        try manager.register([Ticket.self])
        return (url, proxy, manager)
    }

    /// ``behindProxy()`` with a ticket coded "before" saved through the proxy, its
    /// `modifiedTime`, and a manager that reaches the server directly.
    static func savedTicketBehindProxy() throws -> (
        proxy: TestTCPProxy, manager: DBBManager, direct: DBBManager, ticket: Ticket, seen: Date
    )? {
        guard let (url, proxy, manager) = try behindProxy() else { return nil }
        let ticket = Ticket(dbManager: manager)
        ticket.code = "before"
        try ticket.save()
        return (proxy, manager, try DBBManager(postgres: url), ticket, try #require(ticket.modifiedTime))
    }

    @Test(
        "a connection lost while COMMIT is in flight — or a new row's INSERT, its save's only statement — is commitOutcomeUnknown, never .unavailable",
        arguments: [(true, false), (false, false), (true, true), (false, true)])
    func commitInFlight(serverGetsCommit: Bool, alone: Bool) throws {
        guard let (url, proxy, manager) = try Self.behindProxy() else { return }
        let direct = try DBBManager(postgres: url)
        // Two rows: BEGIN, INSERT, COMMIT. One: the INSERT alone, which commits on its own.
        let tickets = (alone ? ["T-1"] : ["T-1", "T-1b"]).map { code in
            let ticket = Ticket(dbManager: manager)
            ticket.code = code
            return ticket
        }
        let statements = Mutex([String]())
        manager.trace { sql in statements.withLock { $0.append(sql) } }
        // The server gets COMMIT (the INSERT) and commits, and the answer is lost; or it never gets it.
        let commit = alone ? "WITH new_rows" : "COMMIT"
        proxy.arm(serverGetsCommit ? .afterForwarding(commit) : .beforeForwarding(commit))
        let error = try #require(throws: DBBError.self) { try DBBTableObject.save(tickets, manager: manager) }
        manager.trace(nil)
        #expect(statements.withLock { $0.first?.hasPrefix("BEGIN") } == !alone, "\(statements.withLock { $0 })")
        #expect(proxy.cuts == 1)
        #expect(error.kind == .commitOutcomeUnknown, "\(error)")
        // The write may be stored: not to be repeated as it was.
        #expect(error.isConnectionLost && !error.isRetryable, "\(error)")
        #expect(error.message.contains("may or may not have been committed"), "\(error)")
        for ticket in tickets {
            #expect(ticket.id == 0 && ticket.savedCount == 0, "the object is as it was before the save")
        }
        if serverGetsCommit {
            // The server reads what the proxy forwarded before the cut and commits; the count
            // from another connection may come first, so it waits for the rows.
            try ReplicaTests.waitUntil("the forwarded statement commits") {
                try direct.count(of: "Ticket") == tickets.count
            }
        } else {
            #expect(try direct.count(of: "Ticket") == 0, "the server never got it")
        }

        // Repeating it is safe with a unique key: it lands once, or is refused as taken.
        do {
            try DBBTableObject.save(tickets, manager: manager)
            #expect(!serverGetsCommit, "the first save had not committed")
        } catch let error as DBBError {
            #expect(serverGetsCommit && error.kind == .server && error.serverError?.sqlState == "23505", "\(error)")
        }
        #expect(try direct.count(of: "Ticket") == tickets.count)
    }

    @Test(
        "an UPDATE of one row is its save's only statement, without BEGIN or COMMIT: its lost answer is commitOutcomeUnknown, and a conditional retry is safe",
        arguments: [true, false])
    func updateAlone(serverGetsUpdate: Bool) throws {
        guard let (proxy, manager, direct, ticket, seen) = try Self.savedTicketBehindProxy() else { return }
        let statements = Mutex([String]())
        manager.trace { sql in statements.withLock { $0.append(sql) } }
        // A save with nothing to write sends nothing.
        try ticket.save()
        #expect(statements.withLock { $0 }.isEmpty)

        ticket.code = "after"
        proxy.arm(serverGetsUpdate ? .afterForwarding("UPDATE") : .beforeForwarding("UPDATE"))
        let error = try #require(throws: DBBError.self) { try ticket.save(ifModifiedTimeIs: seen) }
        #expect(proxy.cuts == 1)
        #expect(statements.withLock { $0.count == 1 && $0[0].hasPrefix("UPDATE") }, "\(statements.withLock { $0 })")
        #expect(error.kind == .commitOutcomeUnknown, "\(error)")
        #expect(ticket.modifiedTime == seen, "the object is as it was before the save")
        if serverGetsUpdate {
            try ReplicaTests.waitUntil("the forwarded UPDATE commits") {
                try direct.query(#"SELECT "code" FROM "Ticket""#).first?.values == [.text("after")]
            }
        } else {
            #expect(try direct.query(#"SELECT "code" FROM "Ticket""#).first?.values == [.text("before")])
        }
        // The retry, conditional on the time read before: it lands once, or is refused as changed.
        do {
            try ticket.save(ifModifiedTimeIs: seen)
            #expect(!serverGetsUpdate, "the first UPDATE had not committed")
        } catch let error as DBBError {
            #expect(serverGetsUpdate && error.kind == .rowChanged, "\(error)")
        }
        manager.trace(nil)
        #expect(try direct.query(#"SELECT "code" FROM "Ticket""#).first?.values == [.text("after")])
    }

    @Test(
        "a conditional UPDATE sent alone and answered with no row: losing the query that asks why is .unavailable, not commitOutcomeUnknown"
    )
    func refusedUpdateAloneThenCut() throws {
        guard let (proxy, manager, direct, ticket, seen) = try Self.savedTicketBehindProxy() else { return }
        try direct.execute(#"DELETE FROM "Ticket""#)
        ticket.code = "after"
        let statements = Mutex([String]())
        manager.trace { sql in statements.withLock { $0.append(sql) } }
        // The UPDATE is answered (no row matched: nothing written); the query after it is cut.
        proxy.arm(.afterForwarding(#"SELECT "id""#))
        let error = try #require(throws: DBBError.self) { try ticket.save(ifModifiedTimeIs: seen) }
        manager.trace(nil)
        let sent = statements.withLock { $0 }
        #expect(sent.count == 2 && sent[0].hasPrefix("UPDATE") && sent[1].hasPrefix("SELECT"), "\(sent)")
        #expect(proxy.cuts == 1)
        #expect(error.kind == .unavailable, "the UPDATE's answer came: nothing was written. \(error)")
        #expect(error.isConnectionLost && error.isRetryable, "a lost connection before anything was stored. \(error)")
        #expect(ticket.modifiedTime == seen && ticket.code == "after", "the object is as it was before the save")
        #expect(try direct.count(of: "Ticket") == 0)
        // The next save on a new connection reports why.
        let again = try #require(throws: DBBError.self) { try ticket.save(ifModifiedTimeIs: seen) }
        #expect(again.kind == .rowNotFound, "\(again)")
    }

    @Test("a connection lost before COMMIT was sent is .unavailable: nothing was stored, and a retry is safe")
    func lostBeforeCommit() throws {
        guard let (url, proxy, manager) = try Self.behindProxy() else { return }
        // Two rows, so that the INSERT runs inside a transaction that never gets its COMMIT.
        let tickets = ["T-2", "T-2b"].map { code in
            let ticket = Ticket(dbManager: manager)
            ticket.code = code
            return ticket
        }
        proxy.arm(.beforeForwarding("INSERT"))
        let error = try #require(throws: DBBError.self) { try DBBTableObject.save(tickets, manager: manager) }
        #expect(error.kind == .unavailable, "\(error)")
        #expect(try DBBManager(postgres: url).count(of: "Ticket") == 0)
        try DBBTableObject.save(tickets, manager: manager)
        #expect(tickets.allSatisfy { $0.id > 0 && $0.savedCount == 1 })
    }

    @Test(
        "a statement outside a transaction commits on its own: its lost answer is commitOutcomeUnknown, a query's .unavailable",
        arguments: [
            (#"INSERT INTO "Ticket" ("code") VALUES ('raw')"#, true),
            (#"UPDATE "Ticket" SET "code" = 'raw' WHERE "code" = 'none'"#, true),
            (#"SELECT count(*) FROM "Ticket" WHERE "code" <> 'none'"#, false),
            (#"SELECT * INTO "TicketCopy" FROM "Ticket""#, true),
            (#"WITH counted AS (SELECT count(*) AS n FROM "Ticket") SELECT n FROM counted"#, false),
            (#"EXPLAIN SELECT * FROM "Ticket""#, false),
        ])
    func autocommitCut(sql: String, writes: Bool) throws {
        guard let (url, proxy, manager) = try Self.behindProxy() else { return }
        proxy.arm(.afterForwarding(String(sql.prefix(20))))
        let error = try #require(throws: DBBError.self) {
            if writes { try manager.execute(sql) } else { _ = try manager.query(sql) }
        }
        #expect(proxy.cuts == 1)
        #expect(error.kind == (writes ? .commitOutcomeUnknown : .unavailable), "\(error)")
        let direct = try DBBManager(postgres: url)
        if sql.hasPrefix("INSERT") {
            // The server runs the forwarded INSERT after the cut; the count may come first.
            try ReplicaTests.waitUntil("the forwarded INSERT commits") { try direct.count(of: "Ticket") == 1 }
        } else {
            #expect(try direct.count(of: "Ticket") == 0)
        }
    }

    @Test(
        "a fetch whose answer is lost is .unavailable: one statement alone (no COMMIT), or a read-only transaction's COMMIT",
        arguments: [false, true])
    func fetchCommitCut(withJoinRows: Bool) throws {
        guard let (_, proxy, manager) = try Self.behindProxy() else { return }
        try manager.register([Member.self, Team.self])
        let ticket = Ticket(dbManager: manager)
        ticket.code = "read me"
        try ticket.save()
        let member = Member(dbManager: manager)
        member.name = "m"
        member.tags = ["a"]
        try member.save()
        let statements = Mutex([String]())
        manager.trace { sql in statements.withLock { $0.append(sql) } }
        // A Ticket is one statement; every Member, join rows and all, a read transaction.
        proxy.arm(.afterForwarding(withJoinRows ? "COMMIT" : #"SELECT "id""#))
        let error = try #require(throws: DBBError.self) {
            if withJoinRows { _ = try Member.all(manager: manager) } else { _ = try Ticket.all(manager: manager) }
        }
        #expect(proxy.cuts == 1)
        #expect(error.kind == .unavailable, "\(error)")
        #expect(statements.withLock { $0.contains("COMMIT") } == withJoinRows, "\(statements.withLock { $0 })")
        manager.trace(nil)
        #expect(try Ticket.all(manager: manager).map(\.code) == ["read me"])
        #expect(try Member.all(manager: manager).map(\.tags) == [["a"]])
    }

    @Test("a lost connection after a text's earlier statements committed on their own is commitOutcomeUnknown")
    func laterStatementCut() throws {
        guard let (url, proxy, manager) = try Self.behindProxy() else { return }
        proxy.arm(.afterForwarding("'second'"))
        let error = try #require(throws: DBBError.self) {
            try manager.execute(
                #"INSERT INTO "Ticket" ("code") VALUES ('first'); BEGIN; INSERT INTO "Ticket" ("code") VALUES ('second'); COMMIT"#
            )
        }
        #expect(proxy.cuts == 1)
        #expect(error.kind == .commitOutcomeUnknown, "\(error)")
        #expect(try Ticket.all(manager: DBBManager(postgres: url)).map(\.code) == ["first"])
    }

    @Test("COMMIT AND CHAIN begins the next transaction: a text ending in one left open is rolled back and refused")
    func commitAndChain() throws {
        guard let (url, _, manager) = try Self.behindProxy() else { return }
        let error = try #require(throws: DBBError.self) {
            try manager.execute(
                #"BEGIN; INSERT INTO "Ticket" ("code") VALUES ('c0'); COMMIT AND CHAIN; INSERT INTO "Ticket" ("code") VALUES ('c1')"#
            )
        }
        #expect(error.kind == .invalidOption && error.message.contains("left a transaction open"), "\(error)")
        let direct = try DBBManager(postgres: url)
        #expect(try Ticket.all(manager: direct).map(\.code) == ["c0"])
        try manager.execute(#"INSERT INTO "Ticket" ("code") VALUES ('c2')"#)  // in no transaction left open
        #expect(try Ticket.all(manager: direct).map(\.code) == ["c0", "c2"])
    }
}
#endif
