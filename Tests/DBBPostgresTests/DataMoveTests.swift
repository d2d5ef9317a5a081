#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// `copyTables(of:from:)`: a SQLite file's table objects into PostgreSQL and back, with the
/// same ids, times, columns and join rows, all or nothing.
@Suite("Data moves between SQLite and PostgreSQL")
struct DataMoveTests {
    static let classes: [DBBTableObject.Type] = [Member.self]
    /// Every table of `Member` and what it refers to, join tables included.
    static let tables = [
        "Group", "Member", "Member_friends", "Member_lucky", "Member_photo", "Member_spouse", "Member_tags",
        "Member_team",
    ]

    /// A SQLite database with members, teams and relations; the member with the highest id
    /// deleted (so the id counter is above the highest id), a version recorded.
    static func seeded() throws -> BackendDatabase {
        let db = try #require(try BackendDatabase(.sqlite, classes))
        let red = Team(dbManager: db.manager)
        (red.title, red.order) = ("Red 'quoted'", 1)
        var members: [Member] = []
        for index in 0..<150 {
            let member = Member(dbManager: db.manager)
            member.name = "member \(index) ü"
            member.email = index % 3 == 0 ? nil : "m\(index)@example.com"
            member.age = index
            member.score = Double(index) / 7
            member.ratio = Float(index) / 3
            member.born = index % 5 == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * -86_400.5)
            member.active = index % 2 == 0
            member.photo = Data((0..<(index % 4)).map { UInt8($0 * 80) })
            member.tags = index % 4 == 0 ? [] : ["t\(index)", ""]
            member.lucky = [index, -index]
            member.team = index % 2 == 0 ? red : nil
            if let last = members.last {
                member.spouse = last
                member.friends = Array(members.suffix(3))
            }
            members.append(member)
        }
        try Member.save(members, manager: db.manager)
        let extra = Member(dbManager: db.manager)
        extra.name = "deleted"
        try extra.save()
        try extra.delete()
        try db.manager.setDatabaseVersion(3.5)
        return db
    }

    /// Every row of every table, in id order.
    static func contents(_ manager: DBBManager) throws -> [String: [[DBBValue]]] {
        try Dictionary(
            uniqueKeysWithValues: tables.map { table in
                (table, try manager.query("SELECT * FROM \"\(table)\" ORDER BY \"id\"").map(\.values))
            })
    }

    @Test("SQLite → PostgreSQL → SQLite keeps every row, id, time and join row; ids are never given out again")
    func roundTrip() throws {
        let source = try Self.seeded()
        guard let server = try BackendDatabase(.postgresql) else { return }
        let copied = try server.manager.copyTables(of: Self.classes, from: source.manager)
        #expect(copied["Member"] == 150 && copied["Group"] == 1 && copied["Member_spouse"] == 149)
        #expect(
            copied["Member_friends"] == 3 * 147 + 3 && copied["Member_tags"] == 2 * (150 - 38)
                && copied["Member_lucky"] == 300
                && copied["Member_photo"] == 150 && copied.count == Self.tables.count)
        let original = try Self.contents(source.manager)
        #expect(try Self.contents(server.manager) == original)

        // The objects work there, relations included, and a new object does not take the
        // deleted member's id.
        let fetched = try #require(try Member.instance(id: 100, manager: server.manager))
        #expect(fetched.name == "member 99 ü" && fetched.spouse?.id == 99 && fetched.friends.map(\.id) == [97, 98, 99])
        #expect(fetched.team == nil && fetched.tags == ["t99", ""])
        let newcomer = Member(dbManager: server.manager)
        newcomer.name = "new"
        try newcomer.save()
        #expect(newcomer.id == 152, "the deleted member's id 151 is not reused")
        #expect(try server.manager.databaseVersion() == 3.5)
        try newcomer.delete()

        // And back into a new SQLite file: the same rows and the same id counters.
        let back = try #require(try BackendDatabase(.sqlite))
        let returned = try back.manager.copyTables(of: Self.classes, from: server.manager)
        #expect(returned == copied)
        #expect(try Self.contents(back.manager) == original)
        let counters = "SELECT name, seq FROM sqlite_sequence WHERE name <> 'DBVersion' ORDER BY name"
        let newcomerTables: Set<DBBValue> = ["Member", "Member_photo"]
        let expected = try source.manager.query(counters).map { row in
            [
                row.values[0],
                newcomerTables.contains(row.values[0])
                    ? .integer(try row.decode(Int64.self, at: 1) + 1) : row.values[1],
            ]
        }
        #expect(
            try back.manager.query(counters).map(\.values) == expected,
            "the counters are the source's, and count PostgreSQL's newcomer (a row and its photo) too")
    }

    @Test("a destination with rows is refused, naming the table; nothing is written")
    func refusesNonEmptyDestination() throws {
        let source = try Self.seeded()
        guard let server = try BackendDatabase(.postgresql, Self.classes) else { return }
        let team = Team(dbManager: server.manager)
        team.title = "already here"
        try team.save()
        let error = try #require(throws: DBBError.self) {
            try server.manager.copyTables(of: Self.classes, from: source.manager)
        }
        #expect(error.kind == .invalidOption && error.table == "Group")
        #expect(try server.rows(of: "Group") == 1 && server.rows(of: "Member") == 0)
        #expect(throws: DBBError.self) { try source.manager.copyTables(of: Self.classes, from: source.manager) }
    }

    @Test("a value PostgreSQL cannot hold names the property and row; nothing is written")
    func hostileValue() throws {
        let source = try Self.seeded()
        try source.manager.execute("UPDATE \"Member\" SET \"name\" = 'a' || char(0) || 'b' WHERE \"id\" = 120")
        guard let server = try BackendDatabase(.postgresql) else { return }
        let error = try #require(throws: DBBError.self) {
            try server.manager.copyTables(of: Self.classes, from: source.manager)
        }
        #expect(
            error.kind == .invalidValue && error.table == "Member" && error.property == "name" && error.rowID == 120)
        for table in Self.tables { #expect(try server.rows(of: table) == 0, "\(table) is empty") }

        // The same value in a save is refused before the server sees it.
        let member = Member(dbManager: server.manager)
        member.name = "x\u{0}y"
        let saveError = try #require(throws: DBBError.self) { try member.save() }
        #expect(saveError.kind == .invalidValue && saveError.property == "name" && member.id == 0)
        member.name = "ok"
        member.tags = ["fine", "not\u{0}fine"]
        let joinError = try #require(throws: DBBError.self) { try member.save() }
        #expect(joinError.property == "tags[1]")
        #expect(try server.rows(of: "Member") == 0)
    }

    @Test("a join row that refers to a missing row is refused by PostgreSQL's foreign key, naming the property")
    func danglingJoinRow() throws {
        let source = try Self.seeded()
        try source.manager.execute("INSERT INTO \"Member_spouse\" (\"Member_ID\", \"spouse\") VALUES (1, 9999)")
        guard let server = try BackendDatabase(.postgresql) else { return }
        let error = try #require(throws: DBBError.self) {
            try server.manager.copyTables(of: Self.classes, from: source.manager)
        }
        #expect(error.kind == .server && error.table == "Member_spouse" && error.property == "spouse")
        #expect(error.serverError?.sqlState == "23503")
        for table in Self.tables { #expect(try server.rows(of: table) == 0, "\(table) is empty") }
    }

    @Test("the source is only read: a table or column it lacks is refused by name, and its schema stays as it was")
    func sourceUnchanged() throws {
        let old = try #require(try BackendDatabase(.sqlite, [GadgetV1.self]))
        let gadget = GadgetV1(dbManager: old.manager)
        gadget.label = "kept"
        try gadget.save()
        let layout = try old.layout()
        guard let server = try BackendDatabase(.postgresql) else { return }
        let missingColumn = try #require(throws: DBBError.self) {
            try server.manager.copyTables(of: [GadgetV2.self], from: old.reopen())
        }
        #expect(
            missingColumn.kind == .invalidOption && missingColumn.table == "Gadget"
                && missingColumn.property == "priority",
            "\(missingColumn)")
        let missingTable = try #require(throws: DBBError.self) {
            try server.manager.copyTables(of: [Member.self], from: old.reopen())
        }
        #expect(missingTable.kind == .invalidOption && missingTable.description.contains("no table"), "\(missingTable)")
        #expect(try old.layout() == layout, "the source's tables, columns and indexes are as they were")
        #expect(try server.rows(of: "Gadget") == 0)
    }

    @Test(
        "a value the destination would store as another value is refused naming table, property and row; nothing is written"
    )
    func valuesCopiedExactlyOrNotAtAll() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        for (update, property) in [
            ("UPDATE \"Member\" SET \"age\" = 1.5 WHERE \"id\" = 7", "age"),
            ("UPDATE \"Member\" SET \"name\" = x'00ff41' WHERE \"id\" = 7", "name"),
            ("UPDATE \"Member_lucky\" SET \"lucky\" = 'seven' WHERE \"Member_ID\" = 7", "lucky"),
        ] {
            let source = try Self.seeded()
            try source.manager.execute(update)
            let error = try #require(throws: DBBError.self, "\(update)") {
                try server.manager.copyTables(of: Self.classes, from: source.manager)
            }
            #expect(error.kind == .invalidValue && error.property == property, "\(error)")
            if property != "lucky" { #expect(error.rowID == 7 && error.table == "Member", "\(error)") }
            for table in Self.tables { #expect(try server.rows(of: table) == 0, "\(table) is empty") }
        }

        // NaN, which PostgreSQL holds and SQLite would keep as NULL, does not leave PostgreSQL.
        let member = Member(dbManager: server.manager)
        member.name = "nan"
        try member.save()
        try server.manager.execute("UPDATE \"Member\" SET \"score\" = 'NaN' WHERE \"id\" = ?", arguments: [member.id])
        let file = try #require(try BackendDatabase(.sqlite))
        let error = try #require(throws: DBBError.self) {
            try file.manager.copyTables(of: Self.classes, from: server.manager)
        }
        #expect(error.kind == .invalidValue && error.property == "score" && error.rowID == member.id, "\(error)")
        #expect(try file.rows(of: "Member") == 0)
    }

    @Test("no class, or the destination itself through another manager, is refused", arguments: Backend.allCases)
    func pointlessCopies(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, Self.classes) else { return }
        let other = try #require(
            try BackendDatabase(backend == .sqlite ? .postgresql : .sqlite) ?? BackendDatabase(.sqlite))
        let none = try #require(throws: DBBError.self) { try db.manager.copyTables(of: [], from: other.manager) }
        #expect(none.kind == .invalidOption && none.description.contains("no class"))
        let itself = try #require(throws: DBBError.self) {
            try db.manager.copyTables(of: Self.classes, from: db.reopen())
        }
        #expect(itself.kind == .invalidOption && itself.description.contains("itself"), "\(itself)")
    }
}
#endif
