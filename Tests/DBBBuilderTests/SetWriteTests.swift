import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// A row with an array and a reference, for two copies of one row saved together.
final class Tagged: DBBTableObject {
    var name = ""
    var tags: [String]?
    var friend: Tagged?
    var blob: Data?
    /// Set on an object this hook changes (without saving it) when its own save starts.
    nonisolated(unsafe) var retags: Tagged?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Tagged.name), "tags": DBBPropertyPersistence(\Tagged.tags),
                "friend": DBBPropertyPersistence(\Tagged.friend), "blob": DBBPropertyPersistence(\Tagged.blob),
            ], for: self)
    }

    override func willSave() throws { retags?.tags = ["late"] }
}

/// A table whose name is the alias a set-based UPDATE once gave its rows.
final class ShortNamed: DBBTableObject {
    override class var databaseTableName: String { "v" }
    var n = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["n": DBBPropertyPersistence(\ShortNamed.n)], for: self)
    }
}

/// Saves that PostgreSQL writes as sets of rows (a statement a table and shape, the values
/// bound as arrays) behave as SQLite's row-by-row saves: the same ids in the order of the
/// batch, the same values and join rows read back, the same all-or-nothing failures.
@Suite("Set-based saves: ids in order, values and join rows exact, a failure leaves nothing")
struct SetWriteTests {
    /// Counts the statements a manager runs while `body` does.
    private func statements(of manager: DBBManager, _ body: () throws -> Void) rethrows -> [String] {
        let seen = Mutex<[String]>([])
        manager.trace { sql in seen.withLock { $0.append(sql) } }
        defer { manager.trace(nil) }
        try body()
        return seen.withLock { $0 }
    }

    @Test(
        "10,050 new companies referring to earlier ones: ids ascend in the batch's order, every value and reference reads back",
        arguments: Backend.allCases)
    func largeBatch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Company.self]) else { return }
        let manager = database.manager
        // More rows than one statement writes (SetWriter.rowsPerStatement), NULLs among them.
        let companies = (0..<10_050).map { index -> Company in
            let company = Company(dbManager: manager)
            company.name = index == 7 ? "it's \"quoted\", ünïcode 🙂" : "company \(index)"
            company.blurb = index % 3 == 0 ? nil : Data([UInt8(index % 256), 0, 255])
            return company
        }
        for index in stride(from: 2, to: companies.count, by: 5) {
            companies[index].suppliers = [companies[index - 1], companies[index - 2]]
        }
        let run = try statements(of: manager) { try Company.save(companies, manager: manager) }
        if backend == .postgresql {
            // BEGIN, two statements of rows, two of join rows, COMMIT: not one a row.
            #expect(run.count <= 8, "\(run.count) statements")
        }
        let ids = companies.map(\.id)
        #expect(ids.allSatisfy { $0 > 0 })
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        #expect(companies.allSatisfy { $0.createdTime != nil && $0.modifiedTime != nil })

        let stored = Dictionary(
            uniqueKeysWithValues: try Company.all(manager: manager).map { ($0.id, $0) })
        #expect(stored.count == companies.count)
        for company in companies {
            let read = try #require(stored[company.id])
            #expect(read.name == company.name)
            #expect(read.blurb == company.blurb)
            #expect(read.suppliers.map(\.id) == company.suppliers.map(\.id))
        }
        // Nothing left to write: saving again runs no statement.
        let again = try statements(of: manager) { try Company.save(companies, manager: manager) }
        #expect(again.filter { $0.hasPrefix("INSERT") || $0.hasPrefix("UPDATE") || $0.hasPrefix("WITH") }.isEmpty)
    }

    @Test(
        "a duplicate in the 2,001st of 3,000 new rows: refused naming the property, nothing stored, no object keeps an id",
        arguments: Backend.allCases)
    func failingLargeBatch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Hooked.self]) else { return }
        let existing = Hooked(dbManager: database.manager)
        existing.name = "taken"
        try existing.save()
        let batch = (0..<3_000).map { index -> Hooked in
            let object = Hooked(dbManager: database.manager)
            object.name = index == 2_000 ? "taken" : "name \(index)"
            return object
        }
        #expect {
            try Hooked.save(batch, manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return database.isConstraintViolation(error) && error.property == "name"
        }
        #expect(try database.manager.count(of: "Hooked") == 1)
        #expect(batch.allSatisfy { $0.id == 0 && $0.createdTime == nil && $0.modifiedTime == nil && $0.postSaves == 0 })
        // The objects save once the duplicate is gone, with ids after the existing row's.
        batch[2_000].name = "free"
        try Hooked.save(batch, manager: database.manager)
        #expect(batch.allSatisfy { $0.id > existing.id })
        #expect(try database.manager.count(of: "Hooked") == 3_001)
    }

    @Test(
        "new members with nicknames, spouses and employers in one graph: join rows keep their order per owner",
        arguments: Backend.allCases)
    func graphOfNewObjects(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Member.self, Company.self]) else { return }
        let manager = database.manager
        let employer = Company(dbManager: manager)
        employer.name = "Acme"
        let members = (0..<500).map { index -> Member in
            let member = Member(dbManager: manager)
            member.firstName = "m\(index)"
            member.nicknames = (0..<(index % 4)).map { "n\(index)-\($0)" }.reversed()
            member.luckyNumbers = index % 2 == 0 ? nil : [index, -index, Int.max, Int.min]
            member.employer = index % 3 == 0 ? employer : nil
            return member
        }
        for pair in stride(from: 0, to: members.count - 1, by: 2) {
            members[pair].spouse = members[pair + 1]
            members[pair + 1].spouse = members[pair]
        }
        try Member.save(members, manager: manager)
        let stored = Dictionary(uniqueKeysWithValues: try Member.all(manager: manager).map { ($0.id, $0) })
        for member in members {
            let read = try #require(stored[member.id])
            #expect(read.nicknames == member.nicknames)
            #expect(read.luckyNumbers == member.luckyNumbers)
            #expect(read.spouse?.id == member.spouse?.id)
            #expect(read.employer?.id == member.employer?.id)
        }
        // Changing the join properties of some replaces exactly their join rows.
        for member in members.prefix(50) { member.nicknames = ["only"] }
        try Member.save(Array(members.prefix(100)), manager: manager)
        let reread = Dictionary(uniqueKeysWithValues: try Member.all(manager: manager).map { ($0.id, $0) })
        for member in members { #expect(reread[member.id]?.nicknames == member.nicknames) }
    }

    @Test(
        "two objects of one row with changed arrays and references, saved together: the later one is stored, as row by row",
        arguments: Backend.allCases)
    func twoCopiesOfOneRow(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Tagged.self]) else { return }
        let manager = database.manager
        let (row, y, z) = (Tagged(dbManager: manager), Tagged(dbManager: manager), Tagged(dbManager: manager))
        row.tags = ["orig"]
        try Tagged.save([row, y, z], manager: manager)
        // Both copies change both properties (from what is stored) each round.
        let rounds: [([String]?, Tagged?, [String]?, Tagged)] = [(["s"], y, ["t1", "t2"], z), (["a"], nil, nil, y)]
        for (firstTags, firstFriend, secondTags, secondFriend) in rounds {
            let a = try #require(try Tagged.instance(id: row.id, manager: manager))
            let b = try #require(try Tagged.instance(id: row.id, manager: manager))
            (a.tags, a.friend) = (firstTags, firstFriend)
            (b.tags, b.friend) = (secondTags, secondFriend)
            try Tagged.save([a, b], manager: manager)
            let stored = try #require(try Tagged.instance(id: row.id, manager: manager))
            #expect(stored.tags == secondTags)
            #expect(stored.friend?.id == secondFriend.id)
            let friendRows = try database.values(
                #"SELECT count(*) FROM "Tagged_friend" WHERE "Tagged_ID" = ?"#, [.integer(row.id)], as: Int.self)
            #expect(friendRows == [1])
        }
    }

    @Test("a table named v is updated (the set-based UPDATE's own aliases do not clash)", arguments: Backend.allCases)
    func tableNamedLikeAnAlias(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ShortNamed.self]) else { return }
        let object = ShortNamed(dbManager: database.manager)
        object.n = 1
        try object.save()
        object.n = 2
        try object.save()
        #expect(try ShortNamed.instance(id: object.id, manager: database.manager)?.n == 2)
    }

    @Test(
        "a hook that changes an array of an object the save already met, without saving it: stored as met, left changed",
        arguments: Backend.allCases)
    func hookChangesAnObjectMetBefore(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Tagged.self]) else { return }
        let manager = database.manager
        let (a, b) = (Tagged(dbManager: manager), Tagged(dbManager: manager))
        a.tags = ["orig"]
        b.retags = a
        try Tagged.save([a, b], manager: manager)
        #expect(try Tagged.instance(id: a.id, manager: manager)?.tags == ["orig"])
        #expect(a.tags == ["late"] && a.changedPropertyNames.contains("tags"))
    }

    @Test(
        "70 rows of 1 MB each (over a statement's share of a message): stored whole, on PostgreSQL in several statements",
        arguments: Backend.allCases)
    func largeValues(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Tagged.self]) else { return }
        let manager = database.manager
        let objects = (0..<70).map { index -> Tagged in
            let object = Tagged(dbManager: manager)
            object.blob = Data(repeating: UInt8(index), count: 1 << 20)
            return object
        }
        let run = try statements(of: manager) { try Tagged.save(objects, manager: manager) }
        if backend == .postgresql { #expect(run.filter { $0.contains("INSERT INTO") }.count >= 2) }
        for object in objects {
            #expect(try Tagged.instance(id: object.id, manager: manager)?.blob == object.blob)
        }
    }
}
