#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// What a table object does, on both backends from one source: each test runs on a real
/// SQLite file and on a real PostgreSQL database. The behavioural suites of DBBBuilderTests
/// (saves, values, queries, relations, migrations, identity, change tracking, batches) run on
/// both the same way; these are the checks that matter for a second backend and have no home there.
@Suite("Backend parity: the same table objects on SQLite and PostgreSQL")
struct BackendParityTests {
    static let classes: [DBBTableObject.Type] = [Member.self, Team.self]

    @Test(
        "a ? inside a literal is not a placeholder; key columns named in conditions keep their case",
        arguments: Backend.allCases)
    func placeholdersAndKeyColumns(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        var members: [Member] = []
        for (index, name) in ["Cy", "Ann", "Bo", "what?", "Di"].enumerated() {
            let member = Member(dbManager: db.manager)
            member.name = name
            member.age = 20 + index
            member.active = name != "Ann"
            members.append(member)
        }
        try Member.save(members, manager: db.manager)

        var options = DBBQueryOptions.options(
            withConditions: ["age >= ?", "name <> 'what?'", "active = 1"], sortColumns: ["name"])
        options.arguments = [21]
        #expect(try Member.instances(matching: options, manager: db.manager).map(\.name) == ["Bo", "Di"])
        options.conditions = ["name = 'what?'", "age = ?"]
        options.arguments = [23]
        #expect(try Member.instances(matching: options, manager: db.manager).map(\.name) == ["what?"])

        let createdSince = DBBQueryOptions.options(withConditions: [
            "createdTime > 0", "idNum > 0", "modifiedTime >= createdTime",
        ])
        #expect(try Member.instances(matching: createdSince, manager: db.manager).count == 5)
    }

    @Test("relations load in batches: a few statements, not one per object", arguments: Backend.allCases)
    func batchedRelations(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        let team = Team(dbManager: db.manager)
        team.title = "Σ"
        team.order = 3
        var members: [Member] = []
        for index in 0..<12 {
            let member = Member(dbManager: db.manager)
            member.name = "m\(index)"
            member.team = index < 6 ? team : nil
            members.append(member)
        }
        for (index, member) in members.enumerated() {
            member.friends = [members[(index + 1) % 12], members[(index + 2) % 12]]
            member.spouse = members[11 - index]
        }
        try Member.save(members, manager: db.manager)

        let statements = Mutex(0)
        db.manager.trace { _ in statements.withLock { $0 += 1 } }
        let loaded = try Member.instances(matching: .options(sortColumns: ["name"]), manager: db.manager)
        db.manager.trace(nil)
        // One query for the members, one per join property (tags, lucky, photo, spouse, friends,
        // team), one for the teams — not one per member.
        #expect(statements.withLock { $0 } <= 12)
        let first = try #require(loaded.first { $0.name == "m0" })
        #expect(first.friends.map(\.name) == ["m1", "m2"])
        #expect(first.spouse?.name == "m11" && first.spouse?.spouse === first)
        #expect(first.team?.title == "Σ" && first.team?.order == 3)
    }

    @Test("migrations add columns and join tables; versions only go up", arguments: Backend.allCases)
    func migrations(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [GadgetV1.self]) else { return }
        let old = GadgetV1(dbManager: db.manager)
        old.label = "old"
        try old.save()

        let upgraded = try db.reopen([GadgetV2.self])
        let read = try #require(try GadgetV2.instance(id: old.id, manager: upgraded))
        #expect(read.label == "old" && read.priority == 5 && read.notes.isEmpty)
        read.notes = ["n"]
        try read.save()
        #expect(try GadgetV2.instance(id: old.id, manager: db.reopen([GadgetV2.self]))?.notes == ["n"])

        try upgraded.setDatabaseVersion(2)
        try upgraded.setDatabaseVersion(1.5)
        #expect(try db.manager.databaseVersion() == 2)
    }
}
#endif
