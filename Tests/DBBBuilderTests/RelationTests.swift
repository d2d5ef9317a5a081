import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Relations: arrays, references and join tables")
struct RelationTests {
    static let classes: [DBBTableObject.Type] = [Member.self, Company.self, Venture.self, Meeting.self]

    @Test("a family saved through daddy and refetched field by field", arguments: Backend.allCases)
    func family(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let m = database.manager
        let daddy = Member("John", "Doe", age: 35, manager: m)
        let billy = Member("Billy", "Doe", age: 7, manager: m)
        let sally = Member("Sally", "Doe", age: 5, manager: m)
        let mary = Member("Mary", "Doe", age: 33, manager: m)
        let acme = Company("Acme", manager: m)
        acme.suppliers = [
            Company("Bolts Ltd", manager: m), Company("Nuts Inc", manager: m), Company("Gears Co", manager: m),
        ]
        daddy.nicknames = ["Daddy", "Johnny", "Daddy"]
        daddy.luckyNumbers = [7, -3, Int.max]
        daddy.birthdays = [Date(timeIntervalSinceReferenceDate: -1e9), Date(timeIntervalSinceReferenceDate: 12.5)]
        daddy.children = [billy, sally]
        daddy.spouse = mary
        mary.spouse = daddy  // a cycle
        daddy.employer = acme
        #expect(daddy.saveToDB())

        #expect(Member.allInstanceIDs(manager: m) == [1, 2, 3, 4])
        #expect(try Company.allIDs(manager: m).count == 4)
        let other = try database.reopen()
        let john = try #require(
            try Member.instances(matching: .options(withConditions: ["firstName = 'John'"]), manager: other).first)
        #expect(john.lastName == "Doe" && john.age == 35)
        #expect(john.nicknames == ["Daddy", "Johnny", "Daddy"], "order and duplicates kept")
        #expect(john.luckyNumbers == [7, -3, Int.max])
        #expect(john.birthdays == daddy.birthdays)
        #expect(john.children?.map(\.firstName) == ["Billy", "Sally"])
        #expect(john.children?.map(\.age) == [7, 5])
        let spouse = try #require(john.spouse)
        #expect(spouse.firstName == "Mary" && spouse.age == 33)
        #expect(spouse.spouse === john, "one row is one object within a fetch, cycles included")
        #expect(john.employer?.name == "Acme")
        #expect(john.employer?.suppliers.map(\.name) == ["Bolts Ltd", "Nuts Inc", "Gears Co"])
        #expect(john.children?.first?.children == nil, "children without children come back nil")
        #expect(john.children?.first?.spouse == nil)
        #expect(john.children?.first?.nicknames == [], "a non-optional array without rows is empty")
        #expect(john.children?.first?.luckyNumbers == nil, "an optional array without rows is nil")

        // The on-disk layout of DBBBuilder: the same tables and columns on both backends.
        #expect(try database.columnNames(of: "Member_nicknames") == ["id", "Member_ID", "nicknames"])
        #expect(try database.columnNames(of: "Member_company") == ["id", "Member_ID", "company"])
        #expect(try database.columnNames(of: "Member_birthdays").last == "birthdays")
        if backend == .sqlite {
            let create = #"SELECT sql FROM sqlite_master WHERE name = ?"#
            #expect(
                try database.scalar(create, ["Member_nicknames"], as: String.self)
                    == "CREATE TABLE Member_nicknames (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, nicknames Text)"
            )
            #expect(
                try database.scalar(create, ["Member_company"], as: String.self)
                    == "CREATE TABLE Member_company (id Integer PRIMARY KEY AUTOINCREMENT, Member_ID Integer, company Integer)"
            )
            #expect(
                try database.scalar(create, ["Member_birthdays"], as: String.self)?.hasSuffix(
                    "birthdays DateTimeStamp)") == true)
        } else {
            #expect(try database.columns(of: "Member_nicknames").map(\.type) == ["bigint", "bigint", "text"])
            #expect(try database.columns(of: "Member_company").map(\.type) == ["bigint", "bigint", "bigint"])
            #expect(try database.columns(of: "Member_birthdays").last?.type == "double precision")
        }
        #expect(try database.indexes(of: "Member_company").contains("Member_employer_idx"))
        #expect(try database.indexColumns("Member_employer_idx") == ["Member_ID"])
        #expect(try database.values(#"SELECT "company" FROM "Member_company""#, as: Int64.self) == [acme.id])
    }

    @Test("re-saving replaces join rows; nil and empty store none", arguments: Backend.allCases)
    func resave(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let m = database.manager
        let daddy = Member("John", "Doe", age: 35, manager: m)
        daddy.nicknames = ["a", "b", "c"]
        daddy.luckyNumbers = [1]
        try daddy.save()
        daddy.nicknames = ["z"]
        daddy.luckyNumbers = []
        try daddy.save()
        #expect(try database.values(#"SELECT "nicknames" FROM "Member_nicknames""#, as: String.self) == ["z"])
        #expect(try database.rows(of: "Member_luckyNumbers") == 0)
        let back = try #require(try Member.instance(id: daddy.id, manager: m))
        #expect(back.nicknames == ["z"] && back.luckyNumbers == nil)
    }

    @Test("a company's Data blurb round-trips", arguments: Backend.allCases)
    func companyBlurb(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let acme = Company("Acme", manager: database.manager)
        acme.blurb = Data("The best anvils since 1949 — ✓".utf8)
        try acme.save()
        #expect(try Company.instance(id: acme.id, manager: try database.reopen())?.blurb == acme.blurb)
    }

    @Test("a sub-project set then cleared to nil: same id, nil after fetch", arguments: Backend.allCases)
    func subProject(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let m = database.manager
        let project = Venture("Apollo", manager: m)
        project.subProject = Venture("Lunar Module", manager: m)
        project.tags = ["space", "moon"]
        try project.save()
        let id = project.id
        #expect(try Venture.instance(id: id, manager: m)?.subProject?.name == "Lunar Module")
        project.subProject = nil
        project.tags = nil
        try project.save()
        #expect(project.id == id)
        let back = try #require(try Venture.instance(id: id, manager: try database.reopen()))
        #expect(back.subProject == nil && back.tags == nil)
        #expect(try Venture.allIDs(manager: m).count == 2, "the sub-project itself stays")
    }

    @Test("meetings: conditions through join tables, combined with OR, and deletions", arguments: Backend.allCases)
    func meetings(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let m = database.manager
        let ann = Member("Ann", "A", age: 30, manager: m)
        let bob = Member("Bob", "B", age: 40, manager: m)
        let cat = Member("Cat", "C", age: 50, manager: m)
        let apollo = Venture("Apollo", manager: m)
        let gemini = Venture("Gemini", manager: m)
        let meetings = [
            Meeting("Kickoff", [ann, cat], project: gemini, manager: m),
            Meeting("Design", [bob, cat], project: apollo, manager: m),
            Meeting("Review", [ann, bob], project: nil, manager: m),
        ]
        try Meeting.save(meetings, manager: m)
        #expect(meetings.map(\.id) == [1, 2, 3])

        var options = DBBQueryOptions.options(withConditions: ["participants IN (?)"], sortColumns: ["id"])
        options.arguments = [.integer(bob.id)]
        #expect(try Meeting.instances(matching: options, manager: m).map(\.id) == [2, 3])
        options = .options(withConditions: ["project = ?"])
        options.arguments = [.integer(apollo.id)]
        let design = try Meeting.instances(matching: options, manager: m)
        #expect(design.map(\.id) == [2])
        #expect(design.first?.project?.name == "Apollo")
        #expect(design.first?.participants.map(\.firstName) == ["Bob", "Cat"])
        // DBBBuilder forced AND; OR works here.
        options = .options(withConditions: ["project = ?", "OR", "purpose = ?"], sortColumns: ["id"])
        options.arguments = [.integer(gemini.id), "Review"]
        #expect(try Meeting.instances(matching: options, manager: m).map(\.id) == [1, 3])
        options = .options(withConditions: ["participants IN (?, ?)", "purpose <> 'Design'"], sortColumns: ["purpose"])
        options.arguments = [.integer(ann.id), .integer(cat.id)]
        #expect(try Meeting.instances(matching: options, manager: m).map(\.purpose) == ["Kickoff", "Review"])
        #expect {
            _ = try Meeting.instances(matching: .options(withConditions: ["participants = purpose"]), manager: m)
        } throws: { error in
            (error as? DBBError)?.property == "participants"
        }

        // Deleting Bob removes him from every meeting's participants.
        try bob.delete()
        #expect(try database.rows(of: "Meeting_participants") == 4)
        #expect(try Meeting.instance(id: 2, manager: m)?.participants.map(\.firstName) == ["Cat"])
        // Deleting a meeting removes its join rows; deleting a project clears the reference.
        #expect(Meeting.deleteInstance(meetings[0], manager: m))
        #expect(try database.rows(of: "Meeting_participants") == 2)
        #expect(try database.rows(of: "Meeting_project") == 1)
        try Venture.delete([apollo], manager: m)
        #expect(try database.rows(of: "Meeting_project") == 0)
        #expect(try Meeting.instance(id: 2, manager: m)?.project == nil)
        #expect(Meeting.deleteAllInstances(manager: m))
        #expect(try database.rows(of: "Meeting_participants") == 0)
        #expect(try m.count(of: "Meeting") == 0 && m.count(of: "Member") == 2)
        try Member.deleteAll(manager: m)
        #expect(try database.rows(of: "Member_nicknames") == 0)
    }

    @Test("9,999 objects in one batch, then re-saved with nicknames", arguments: Backend.allCases)
    func bigBatch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let m = database.manager
        let members = (0..<9_999).map { Member("First\($0)", "Last\($0 % 100)", age: $0 % 90, manager: m) }
        #expect(Member.saveObjects(members, dbManager: m))
        #expect(try m.count(of: "Member") == 9_999)
        for (index, member) in members.enumerated() { member.nicknames = ["nick\(index)", "alias\(index)"] }
        try Member.save(members, manager: m)
        #expect(try m.count(of: "Member") == 9_999)
        #expect(try m.count(of: "Member_nicknames") == 19_998)
        let some = try Member.instances(ids: [1, 5_000, 9_999], manager: m)
        #expect(
            some.map(\.nicknames) == [["nick0", "alias0"], ["nick4999", "alias4999"], ["nick9998", "alias9998"]])
        let all = try Member.all(manager: m)
        #expect(all.count == 9_999 && all.allSatisfy { $0.nicknames.count == 2 })
    }

    @Test("a batch mixing classes is refused; nil references and arrays come back nil", arguments: Backend.allCases)
    func refusalsAndNils(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let m = database.manager
        #expect(!Member.saveObjects([Member(dbManager: m), Company(dbManager: m)], dbManager: m))
        #expect(try m.count(of: "Member") == 0)
        let loner = Member("Lone", "Wolf", age: 1, manager: m)
        try loner.save()
        let back = try #require(try Member.instance(id: loner.id, manager: m))
        #expect(back.spouse == nil && back.children == nil && back.employer == nil && back.luckyNumbers == nil)
    }

    @Test("joinPropertiesToPopulate and sparsePopulation limit what is loaded", arguments: Backend.allCases)
    func limitedLoading(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let m = database.manager
        let daddy = Member("John", "Doe", age: 35, manager: m)
        daddy.nicknames = ["J"]
        daddy.spouse = Member("Mary", "Doe", age: 33, manager: m)
        try daddy.save()
        var options = DBBQueryOptions.options(withConditions: ["id = ?"])
        options.arguments = [.integer(daddy.id)]
        options.joinPropertiesToPopulate = ["nicknames"]
        let limited = try #require(try Member.instances(matching: options, manager: m).first)
        #expect(limited.nicknames == ["J"] && limited.spouse == nil && limited.firstName == "John")
        let sparse = try #require(try Member.instances(matching: options, manager: m, sparsePopulation: true).first)
        #expect(sparse.firstName == "" && sparse.nicknames == ["J"] && sparse.spouse == nil)
        options.joinPropertiesToPopulate = nil
        let bare = try #require(try Member.instances(matching: options, manager: m, sparsePopulation: true).first)
        #expect(bare.nicknames == [] && bare.id == daddy.id)
        options.propertyNames = ["firstName", "spouse"]
        let partial = try #require(try Member.instances(matching: options, manager: m).first)
        #expect(
            partial.firstName == "John" && partial.age == 0 && partial.spouse?.firstName == "Mary"
                && partial.nicknames == [])
        options.joinPropertiesToPopulate = ["nope"]
        #expect(throws: DBBError.self) { _ = try Member.instances(matching: options, manager: m) }
    }

    @Test("an inheritance chain with relations", arguments: Backend.allCases)
    func inheritanceWithRelations(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Car.self]) else { return }
        let m = database.manager
        let car = Car(dbManager: m)
        car.wheels = 4
        car.model = "Beetle"
        car.owner = Member("Owen", "Er", age: 44, manager: m)
        car.passengers = [Member("Pat", "One", age: 1, manager: m), Member("Sam", "Two", age: 2, manager: m)]
        car.serviceDates = [Date(timeIntervalSinceReferenceDate: 100)]
        try car.save()
        let back = try #require(try Car.all(manager: try database.reopen()).first)
        #expect(back.wheels == 4 && back.model == "Beetle" && back.owner?.firstName == "Owen")
        #expect(back.passengers.map(\.firstName) == ["Pat", "Sam"] && back.serviceDates == car.serviceDates)
        let tables = try database.tables()
        #expect(tables.contains("Car_owner") && tables.contains("Car_passengers") && tables.contains("Member"))
        #expect(!tables.contains("Vehicle"))
    }

    @Test("a failing save of an object graph leaves nothing, and ids as they were", arguments: Backend.allCases)
    func failingGraph(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes + [Hooked.self]) else { return }
        let m = database.manager
        // A trigger that refuses one row of the graph, in each engine's words.
        switch backend {
        case .sqlite:
            try m.execute(
                "CREATE TRIGGER no_bad BEFORE INSERT ON Member WHEN NEW.firstName = 'Bad' BEGIN SELECT RAISE(ABORT, 'Bad is not allowed'); END"
            )
        case .postgresql:
            try m.execute(
                #"CREATE FUNCTION no_bad() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."firstName" = 'Bad' THEN "#
                    + #"RAISE EXCEPTION 'Bad is not allowed'; END IF; RETURN NEW; END $$"#)
            try m.execute(#"CREATE TRIGGER no_bad BEFORE INSERT ON "Member" FOR EACH ROW EXECUTE FUNCTION no_bad()"#)
        }
        let daddy = Member("John", "Doe", age: 35, manager: m)
        let good = Member("Good", "Kid", age: 3, manager: m)
        daddy.children = [good, Member("Bad", "Kid", age: 4, manager: m)]
        daddy.employer = Company("Acme", manager: m)
        #expect {
            try daddy.save()
        } throws: { error in
            (error as? DBBError)?.message == "Bad is not allowed"
        }
        #expect(daddy.id == 0 && good.id == 0 && daddy.employer?.id == 0)
        #expect(try m.count(of: "Member") == 0 && m.count(of: "Company") == 0 && m.count(of: "Member_children") == 0)
    }
}
