#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Raw SQL and the manager's shared writer connection: a raw text never leaves a transaction
/// open for later saves to join, and a text of several statements applies whole or not at all.
@Suite("Raw SQL cannot leave a transaction open or half-apply")
struct RawTransactionTests {
    private static func member(_ name: String, _ manager: DBBManager) -> Member {
        let member = Member(dbManager: manager)
        member.name = name
        return member
    }

    @Test(
        "a raw text that fails after its BEGIN, or a lone BEGIN, is rolled back; saves after it are durable",
        arguments: Backend.allCases)
    func openTransactions(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self]) else { return }
        let table = backend == .postgresql ? "\"Member\"" : "Member"
        #expect(throws: DBBError.self) {
            try db.manager.execute("BEGIN; INSERT INTO \(table) (name) VALUES ('half'); SELECT nosuchfn(); COMMIT")
        }
        let saved = (0..<6).map { Self.member("saved \($0)", db.manager) }
        for member in saved { try member.save() }
        let lone = try #require(throws: DBBError.self) { try db.manager.execute("BEGIN") }
        #expect(lone.kind == .invalidOption && lone.message.contains("transaction open"), "\(lone)")
        try Self.member("after", db.manager).save()

        let other = try db.reopen()
        let names = try Member.all(manager: other).map(\.name)
        #expect(names == saved.map(\.name) + ["after"], "another manager sees every save, and not the half text")
        #expect(try Set(saved.map(\.id)).count == 6 && Member.all(manager: db.manager).count == 7)

        // BEGIN … COMMIT in one text is fine.
        try db.manager.execute("BEGIN; UPDATE \(table) SET age = 5 WHERE name = 'after'; COMMIT")
        #expect(try Member.all(manager: other).first { $0.name == "after" }?.age == 5)
    }

    @Test(
        "several statements apply whole or not at all: a failing one, or a wrong argument count, writes nothing",
        arguments: Backend.allCases)
    func allOrNothing(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self]) else { return }
        let table = backend == .postgresql ? "\"Member\"" : "Member"
        let insert = "INSERT INTO \(table) (name, age) VALUES (?, ?)"
        #expect(throws: DBBError.self) {
            try db.manager.execute("\(insert); \(insert); \(insert)", arguments: ["a", 1, "b", 2])
        }
        #expect(throws: DBBError.self) {
            try db.manager.execute("\(insert); \(insert)", arguments: ["a", 1, "b", 2, "c"])
        }
        #expect(throws: DBBError.self) {
            try db.manager.execute("\(insert); INSERT INTO \(table) (nosuchcolumn) VALUES (1)", arguments: ["a", 1])
        }
        #expect(try Member.all(manager: db.manager).isEmpty, "nothing of the failed texts was written")
        try db.manager.execute("\(insert); \(insert)", arguments: ["a", 1, "b", 2])
        #expect(try Member.all(manager: db.manager).map(\.name).sorted() == ["a", "b"])
        if backend == .sqlite {
            // Statements that cannot run in a transaction still run, one by one.
            try db.manager.execute("PRAGMA user_version = 7; VACUUM")
            #expect(try db.scalar("PRAGMA user_version", as: Int.self) == 7)
        } else {
            // So do PostgreSQL's (one list decides, for a text and for a deadline's transaction).
            try db.manager.execute("\(insert); CLUSTER; DISCARD ALL", arguments: ["c", 3])
            #expect(try Member.all(manager: db.manager).map(\.name).sorted() == ["a", "b", "c"])
        }
    }

    @Test("PostgreSQL: after a raw text failed inside its transaction, the manager goes on")
    func abortedTransaction() throws {
        guard let db = try BackendDatabase(.postgresql, [Member.self]) else { return }
        #expect(throws: DBBError.self) { try db.manager.execute("BEGIN; SELECT 1/0; COMMIT") }
        try Self.member("next", db.manager).save()
        #expect(try Member.all(manager: db.manager).map(\.name) == ["next"])
        #expect(try db.manager.query("SELECT count(*) FROM \"Member\"")[0].decode(Int.self, at: 0) == 1)
        // COMMIT AND CHAIN leaves a transaction open, rolled back and refused; what it committed stays, and is said.
        let chained = try #require(throws: DBBError.self) {
            try db.manager.execute(#"BEGIN; INSERT INTO "Member" (name, age) VALUES ('chained', 1); COMMIT AND CHAIN"#)
        }
        #expect(chained.kind == .invalidOption && chained.message.contains("committed before it stays"), "\(chained)")
        #expect(try Member.all(manager: db.manager).map(\.name).sorted() == ["chained", "next"])
    }
}
#endif
