import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// What a table object does, on both backends from one source: each test runs on a real
/// SQLite file and on a real PostgreSQL database.
@Suite("Backend parity: the same table objects on SQLite and PostgreSQL")
struct BackendParityTests {
    static let classes: [DBBTableObject.Type] = [Member.self, Team.self]

    @Test("every storage type saves and reads back exactly", arguments: Backend.allCases)
    func roundTrip(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        let ada = Member(dbManager: db.manager)
        ada.name = "Ada 'quoted' \"name\" ?"
        ada.email = "ada@example.com"
        ada.age = 36
        ada.score = 0.1 + 0.2
        ada.ratio = 1.5
        ada.born = Date(timeIntervalSinceReferenceDate: -5_000_000_000.25)
        ada.active = true
        ada.photo = Data([0, 1, 2, 255])
        ada.tags = ["x", "", "ünï"]
        ada.lucky = [Int.min, 0, Int.max]
        try ada.save()
        #expect(ada.id > 0)

        let other = try db.reopen(Self.classes)
        let read = try #require(try Member.instance(id: ada.id, manager: other))
        #expect(read.name == ada.name)
        #expect(read.email == "ada@example.com")
        #expect(read.age == 36 && read.score == 0.1 + 0.2 && read.ratio == 1.5)
        #expect(read.born == ada.born && read.active)
        #expect(read.photo == Data([0, 1, 2, 255]))
        #expect(read.tags == ["x", "", "ünï"] && read.lucky == [Int.min, 0, Int.max])
        #expect(read.createdTime != nil && read.modifiedTime != nil)
    }

    @Test("conditions with ? outside literals, sorting, distinct, subsets, counts", arguments: Backend.allCases)
    func queries(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        var members: [Member] = []
        for (index, name) in ["Cy", "Ann", "Bo", "Ann", "Di"].enumerated() {
            let member = Member(dbManager: db.manager)
            member.name = name
            member.age = 20 + index
            member.active = index % 2 == 0
            members.append(member)
        }
        try Member.save(members, manager: db.manager)

        var options = DBBQueryOptions.options(withConditions: ["age >= ?", "name <> 'what?'", "active = 1"], sortColumns: ["name"])
        options.arguments = [21]
        #expect(try Member.instances(matching: options, manager: db.manager).map(\.name) == ["Bo", "Di"])

        let descending = DBBQueryOptions.options(sortColumns: ["age"], ascendingSort: false)
        #expect(try Member.instances(matching: descending, manager: db.manager).map(\.age) == [24, 23, 22, 21, 20])

        let distinct = DBBQueryOptions.options(properties: ["name"], sortColumns: ["name"], distinct: true)
        #expect(try Member.instances(matching: distinct, manager: db.manager).map(\.name) == ["Ann", "Bo", "Cy", "Di"])

        let subset = try Member.instances(matching: .options(properties: ["name"], sortColumns: ["age"]), manager: db.manager)
        #expect(subset.first?.name == "Cy" && subset.first?.age == 0)

        let createdSince = DBBQueryOptions.options(withConditions: ["createdTime > 0", "idNum > 0"])
        #expect(try Member.instances(matching: createdSince, manager: db.manager).count == 5)
        #expect(try db.manager.count(of: "Member") == 5)
        #expect(try Member.allIDs(manager: db.manager) == members.map(\.id))
    }

    @Test("relations: join tables, batched loading, conditions on references and arrays", arguments: Backend.allCases)
    func relations(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        let team = Team(dbManager: db.manager)
        team.title = "Σ"
        team.order = 3
        var members: [Member] = []
        for index in 0..<12 {
            let member = Member(dbManager: db.manager)
            member.name = "m\(index)"
            member.team = index < 6 ? team : nil
            member.tags = index.isMultiple(of: 3) ? ["three"] : []
            members.append(member)
        }
        for (index, member) in members.enumerated() {
            member.friends = [members[(index + 1) % 12], members[(index + 2) % 12]]
            member.spouse = members[11 - index]
        }
        try Member.save(members, manager: db.manager)
        #expect(try db.rows(of: "Member_friends") == 24)

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

        let teamID = team.id
        var byTeam = DBBQueryOptions.options(withConditions: ["team = ?"])
        byTeam.arguments = [teamID]
        #expect(try Member.instances(matching: byTeam, manager: db.manager).count == 6)
        let tagged = DBBQueryOptions.options(withConditions: ["tags = 'three'"])
        #expect(try Member.instances(matching: tagged, manager: db.manager).count == 4)
    }

    @Test("saves write only what changed; a batch is one transaction", arguments: Backend.allCases)
    func changeTrackingAndBatches(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        let ann = Member(dbManager: db.manager)
        ann.name = "Ann"
        ann.email = "ann@example.com"
        try ann.save()

        let seen = Mutex<[String]>([])
        db.manager.trace { sql in seen.withLock { $0.append(sql) } }
        ann.age = 41
        try ann.save()
        try ann.save()  // unchanged: nothing written
        db.manager.trace(nil)
        let updates = seen.withLock { $0 }.filter { $0.hasPrefix("UPDATE") }
        #expect(updates.count == 1)
        #expect(updates.first?.contains("age") == true && updates.first?.contains("name") == false)

        var batch: [Member] = []
        for email in ["a@x", "b@x", "ann@example.com"] {
            let member = Member(dbManager: db.manager)
            member.name = email
            member.email = email
            batch.append(member)
        }
        let error = try #require(throws: DBBError.self) { try Member.save(batch, manager: db.manager) }
        #expect(error.property == "email")
        #expect(error.kind == (backend == .sqlite ? .sqlite : .server))
        #expect(try db.manager.count(of: "Member") == 1)
        #expect(batch.allSatisfy { $0.id == 0 })
    }

    @Test("deletes take their join rows; a stale copy cannot resurrect a row", arguments: Backend.allCases)
    func deletesAndStaleCopies(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        let ann = Member(dbManager: db.manager)
        ann.name = "Ann"
        let bo = Member(dbManager: db.manager)
        bo.name = "Bo"
        bo.tags = ["a", "b"]
        ann.friends = [bo]
        try Member.save([ann, bo], manager: db.manager)

        let other = try db.reopen(Self.classes)
        let staleBo = try #require(try Member.instance(id: bo.id, manager: other))
        try bo.delete()
        #expect(try db.rows(of: "Member_friends") == 0)
        #expect(try db.rows(of: "Member_tags") == 0)

        staleBo.age = 9
        let error = try #require(throws: DBBError.self) { try staleBo.save() }
        #expect(error.kind == .rowNotFound)
        #expect(try db.manager.count(of: "Member") == 1)
    }

    @Test("a value one engine cannot hold is refused on both, naming the property; nothing is stored", arguments: Backend.allCases)
    func unstorableValues(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        let kept = Member(dbManager: db.manager)
        kept.name = "kept"
        let nan = Member(dbManager: db.manager)
        nan.name = "nan"
        nan.score = .nan
        let nanError = try #require(throws: DBBError.self) { try Member.save([kept, nan], manager: db.manager) }
        #expect(nanError.kind == .invalidValue && nanError.property == "score")

        var options = DBBQueryOptions.options(withConditions: ["age < ?"])
        options.arguments = [UInt64.max]  // bound as a REAL on both: every age is below it
        kept.age = 7
        try kept.save()
        #expect(try Member.instances(matching: options, manager: db.manager).map(\.age) == [7])
        #expect(try db.manager.count(of: "Member") == 1)
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
