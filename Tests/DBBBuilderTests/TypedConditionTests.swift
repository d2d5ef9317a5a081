import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Synchronization
import Testing

@Suite("Typed conditions and sorting: the objects the string form selects, checked by the compiler")
struct TypedConditionTests {
    /// Members, companies, ventures and meetings with every kind of value a condition tests.
    struct World {
        let database: BackendDatabase
        let ada, alan, grace: Member
        let apollo: Venture

        init?(_ backend: Backend) throws {
            guard let database = try BackendDatabase(backend, [Member.self, Company.self, Venture.self, Meeting.self])
            else { return nil }
            self.database = database
            let manager = database.manager
            ada = Member("Ada", "Lovelace", age: 36, manager: manager)
            ada.nicknames = ["Enchantress", "Ace"]
            alan = Member("Alan", "Turing", age: 41, manager: manager)
            alan.luckyNumbers = [7]
            grace = Member("Grace", "Hopper", age: 85, manager: manager)
            grace.spouse = alan
            try Member.save([ada, alan, grace], manager: manager)
            apollo = Venture("Apollo", manager: manager)
            try apollo.save()
            try Meeting("Note G", [ada, alan], project: nil, manager: manager).save()
            try Meeting("Kickoff", [grace], project: apollo, manager: manager).save()
        }
    }

    /// Runs the typed fetch and the string fetch it stands for; expects the same objects, in
    /// the same order, and returns their ids. (The typed fetch renders its own SQL from the
    /// expression tree: numbered placeholders, `EXISTS` for arrays.)
    static func same<T: DBBTableObject>(
        _ type: T.Type, _ manager: DBBManager, typed: () throws -> [T], conditions: [String],
        arguments: SQLiteArguments, sorting: [String]? = nil
    ) throws -> [Int64] {
        let typedObjects = try typed()
        var options = DBBQueryOptions.options(withConditions: conditions, sortColumns: sorting)
        options.arguments = arguments
        let stringObjects = try T.instances(matching: options, manager: manager)
        #expect(typedObjects.map(\.id) == stringObjects.map(\.id))
        return typedObjects.map(\.id)
    }

    @Test(
        "comparisons, AND and OR, IN, LIKE, NOT and NULL: the string form's statements and rows",
        arguments: Backend.allCases)
    func scalarConditions(_ backend: Backend) throws {
        guard let world = try World(backend) else { return }
        let manager = world.database.manager
        let byAge = [DBBSort<Member>.ascending(\.age)]
        #expect(
            try Self.same(
                Member.self, manager,
                typed: { try Member.instances(where: \.age > 30 && \.lastName == "Turing", manager: manager) },
                conditions: ["age > ?", "lastName = ?"], arguments: [30, "Turing"]) == [world.alan.id])
        #expect(
            try Self.same(
                Member.self, manager,
                typed: {
                    try Member.instances(
                        where: \.age >= 40 && (\.lastName == "Hopper" || \.firstName == "Alan"), sortedBy: byAge,
                        manager: manager)
                },
                conditions: ["age >= ?", "(lastName = ?) OR (firstName = ?)"], arguments: [40, "Hopper", "Alan"],
                sorting: ["age"]) == [world.alan.id, world.grace.id])
        #expect(
            try Self.same(
                Member.self, manager, typed: { try Member.instances(where: .in(\.age, [36, 85]), manager: manager) },
                conditions: ["age IN (?, ?)"], arguments: [36, 85]) == [world.ada.id, world.grace.id])
        #expect(
            try Self.same(
                Member.self, manager,
                typed: { try Member.instances(where: .like(\.firstName, "A%"), manager: manager) },
                conditions: ["firstName LIKE ?"], arguments: ["A%"]) == [world.ada.id, world.alan.id])
        #expect(
            try Self.same(
                Member.self, manager, typed: { try Member.instances(where: !(\.age < 40), manager: manager) },
                conditions: ["NOT (age < ?)"], arguments: [40]) == [world.alan.id, world.grace.id])
        #expect(
            try Self.same(
                Member.self, manager,
                typed: {
                    try Member.instances(where: .notIn(\.age, []), sortedBy: [.descending(\.age)], manager: manager)
                },
                conditions: ["(age IS NULL OR age IS NOT NULL)"], arguments: [], sorting: ["age DESC"])
                == [world.grace.id, world.alan.id, world.ada.id])
        #expect(try Member.instances(where: .in(\.age, []), manager: manager).isEmpty)
    }

    @Test("references and arrays: the join-table forms of the string conditions", arguments: Backend.allCases)
    func joinConditions(_ backend: Backend) throws {
        guard let world = try World(backend) else { return }
        let manager = world.database.manager
        #expect(
            try Self.same(
                Member.self, manager, typed: { try Member.instances(where: \.spouse == nil, manager: manager) },
                conditions: ["spouse IS NULL"], arguments: []) == [world.ada.id, world.alan.id])
        #expect(
            try Self.same(
                Member.self, manager, typed: { try Member.instances(where: \.spouse == world.alan, manager: manager) },
                conditions: ["spouse = ?"], arguments: [world.alan.id]) == [world.grace.id])
        #expect(
            try Self.same(
                Member.self, manager,
                typed: { try Member.instances(where: .contains(\.nicknames, "Ace"), manager: manager) },
                conditions: ["nicknames = ?"], arguments: ["Ace"]) == [world.ada.id])
        #expect(
            try Self.same(
                Member.self, manager,
                typed: { try Member.instances(where: .isNotNull(\.luckyNumbers), manager: manager) },
                conditions: ["luckyNumbers IS NOT NULL"], arguments: []) == [world.alan.id])
        let withAlan = try Self.same(
            Meeting.self, manager,
            typed: { try Meeting.instances(where: .contains(\.participants, world.alan), manager: manager) },
            conditions: ["participants = ?"], arguments: [world.alan.id])
        #expect(try Meeting.instances(ids: withAlan, manager: manager).map(\.purpose) == ["Note G"])
        let onApollo = try Self.same(
            Meeting.self, manager, typed: { try Meeting.instances(where: \.project == world.apollo, manager: manager) },
            conditions: ["project = ?"], arguments: [world.apollo.id])
        #expect(try Meeting.instances(ids: onApollo, manager: manager).map(\.purpose) == ["Kickoff"])
    }

    @Test("a key path to a property the class does not map is refused, naming the class", arguments: Backend.allCases)
    func unmappedProperty(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        #expect {
            try Gadget.instances(where: \.rankAssignments > 0, manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unknownProperty && error.table == "Gadget" && error.message.contains("Gadget")
        }
        #expect {
            try Gadget.instances(sortedBy: [.ascending(\.note)], manager: database.manager)
        } throws: { error in
            (error as? DBBError)?.kind == .unknownProperty
        }
    }

    @Test("a @DBBTable class: typed conditions on every column type, and a limit", arguments: Backend.allCases)
    func macroClass(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        let manager = database.manager
        for (index, name) in ["Awl", "Bit", "Cog"].enumerated() {
            let gadget = Gadget(dbManager: manager)
            (gadget.name, gadget.count, gadget.price, gadget.isActive) = (name, index, Double(index) / 2, index != 1)
            gadget.released = index == 2 ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * 1_000)
            gadget.size = index == 0 ? .small : .large
            try gadget.save()
        }
        func names(_ condition: DBBCondition<Gadget>) throws -> [String] {
            try Gadget.instances(where: condition, sortedBy: [.ascending(\.name)], manager: manager).map(\.name)
        }
        #expect(try names(\.isActive == true && \.price >= 0.5) == ["Cog"])
        #expect(try names(\.released == nil) == ["Cog"])
        #expect(try names(\.released < Date(timeIntervalSinceReferenceDate: 500)) == ["Awl"])
        #expect(try names(\.size == .large) == ["Bit", "Cog"])
        #expect(try names(\.name != "Bit") == ["Awl", "Cog"])
        let top = try Gadget.instances(sortedBy: [.descending(\.count)], limit: 2, manager: manager)
        #expect(top.map(\.name) == ["Cog", "Bit"])
        // The generated column keys: the class's mapped properties only (a transient one is not
        // among them, so a condition on it does not compile).
        #expect(
            try Gadget.instances(
                where: Gadget.Columns.count >= 1 && Gadget.Columns.serial == nil,
                sortedBy: [.descending(Gadget.Columns.price)], manager: manager
            ).map(\.name) == ["Cog", "Bit"])
    }
}
