#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// A bounded fetch on PostgreSQL (a page, a list of ids, one id) reads its objects' join rows
/// within its own statement, as arrays; alone, that statement needs no transaction.
/// The synchronous forms, which an `async` test would otherwise not pick.
private enum Sync {
    static func all(_ manager: DBBManager) throws -> [Member] { try Member.all(manager: manager) }
    static func instances(_ ids: [Int64], _ manager: DBBManager) throws -> [Member] {
        try Member.instances(ids: ids, manager: manager)
    }
    static func instances(_ options: DBBQueryOptions, _ manager: DBBManager) throws -> [Member] {
        try Member.instances(matching: options, manager: manager)
    }
    static func instance(_ id: Int64, _ manager: DBBManager) throws -> Member? {
        try Member.instance(id: id, manager: manager)
    }
    static func save(_ member: Member) throws { try member.save() }
}

@Suite("PostgreSQL: join rows read within a bounded fetch's statement")
struct FoldedJoinRowsTests {
    /// Members with join values and relations of every kind; `team` refers to a Team the
    /// members' fetch does not select.
    private static func members(_ manager: DBBManager) throws -> [Member] {
        func save(_ members: [Member]) throws { try DBBTableObject.save(members, manager: manager) }
        let team = Team(dbManager: manager)
        team.title = "select"
        try team.save()
        let (first, second, third) = (
            Member(dbManager: manager), Member(dbManager: manager), Member(dbManager: manager)
        )
        for (member, name) in [(first, "first"), (second, "second"), (third, "third")] { member.name = name }
        first.tags = ["x", "Ünïcode ✓", "", "x"]
        first.lucky = [3, -1, Int.max, 3]
        third.lucky = [0]
        try save([first, second, third])
        first.friends = [second]
        first.spouse = second
        second.spouse = first
        third.team = team
        try save([first, second, third])
        return [first, second, third]
    }

    /// What a member holds, its relations by id.
    private static func described(_ member: Member) -> String {
        "\(member.id) \(member.name) \(member.tags) \(member.lucky) friends \(member.friends.map(\.id)) "
            + "spouse \(member.spouse?.id ?? 0) team \(member.team?.id ?? 0) \(member.team?.title ?? "")"
    }

    @Test(
        "one statement when no relation refers outside the fetch; else again in a read transaction; the objects an unbounded fetch makes",
        arguments: [false, true])
    func folded(async: Bool) async throws {
        guard let db = try BackendDatabase(.postgresql, [Member.self, Team.self]) else { return }
        let saved = try Self.members(db.manager)
        let ids = saved.map(\.id)
        let manager = try db.reopen([Member.self, Team.self])
        // Unbounded: each join table in a statement of its own, in a read transaction.
        let expected = try Sync.all(manager).map(Self.described)
        #expect(expected.count == 3)

        let traced = Locked([String]())
        manager.trace { sql in traced.withLock { $0.append(sql) } }
        func fetch(_ ids: [Int64]) async throws -> [Member] {
            if async { return try await Member.instances(ids: ids, manager: manager) }
            return try Sync.instances(ids, manager)
        }
        func taken() -> [String] {
            traced.withLock { statements in
                defer { statements = [] }
                return statements
            }
        }

        // The first two members refer only to each other: one statement, no transaction.
        let pair = try await fetch([ids[0], ids[1]])
        var statements = taken()
        #expect(statements.count == 1, "\(statements)")
        #expect(statements.first?.contains("ARRAY(SELECT") == true)
        #expect(pair.map(Self.described) == Array(expected.prefix(2)))
        #expect(pair[0].spouse === pair[1] && pair[1].spouse === pair[0] && pair[0].friends.first === pair[1])

        // The third member's team is not among the fetched objects: the plan asks for it, so it
        // starts again in a read transaction, where everything comes from one committed state.
        let all = try await fetch(ids)
        statements = taken()
        #expect(statements.first?.contains("ARRAY(SELECT") == true, "\(statements)")
        #expect(statements.dropFirst().first?.hasPrefix("BEGIN ISOLATION LEVEL REPEATABLE READ") == true)
        #expect(statements.last == "COMMIT")
        #expect(statements.filter { $0.contains(#"FROM "Group""#) }.count == 1, "\(statements)")
        #expect(all.map(Self.described) == expected)
        #expect(all[0].friends.first === all[1] && all[0].spouse === all[1] && all[1].spouse === all[0])
        #expect(all[2].team?.title == "select")
        for member in all { #expect(member.changedPropertyNames.isEmpty, "\(member.changedPropertyNames)") }

        // A page reads its join rows within its statement too; so does a fetch of one id.
        var options = DBBQueryOptions.options(sortColumns: ["name"])
        options.limit = 2
        let page: [Member]
        if async {
            page = try await Member.instances(matching: options, manager: manager)
        } else {
            page = try Sync.instances(options, manager)
        }
        #expect(page.map(Self.described) == Array(expected.prefix(2)))
        statements = taken()
        #expect(statements.count == 1, "\(statements)")
        let one: Member?
        if async {
            one = try await Member.instance(id: ids[0], manager: manager)
        } else {
            one = try Sync.instance(ids[0], manager)
        }
        #expect(one.map(Self.described) == expected[0])
        // Its spouse and friend are not fetched with it: again in a transaction, then they are.
        statements = taken()
        #expect(statements.count == 5 && statements[1].hasPrefix("BEGIN"), "\(statements)")
        #expect(statements.filter { $0.contains("ARRAY(SELECT") }.count == 3)
        manager.trace(nil)

        // A change saved after the fetch lands as on any object.
        let changed = try #require(one)
        changed.tags.removeAll { $0 == "x" }
        changed.lucky.append(7)
        try Sync.save(changed)
        let again = try #require(try Sync.instance(ids[0], db.manager))
        #expect(again.tags == ["Ünïcode ✓", ""] && again.lucky == [3, -1, Int.max, 3, 7])
    }
}
#endif
