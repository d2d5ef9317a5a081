import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Conditions on join properties mean what SQL means")
struct JoinConditionTests {
    /// Orders: "both" (clerk Ann, products pen+ink), "pen" (products pen), "none" (nothing).
    /// `nil` when the backend is missing (see ``BackendDatabase``).
    private func orders(_ backend: Backend) throws -> (BackendDatabase, pen: Product, ann: Clerk)? {
        guard let database = try BackendDatabase(backend, [Order.self]) else { return nil }
        let manager = database.manager
        let pen = Product("pen", price: 1, manager: manager)
        let ink = Product("ink", price: 2, manager: manager)
        let ann = Clerk("Ann", manager: manager)
        let both = Order(dbManager: manager)
        (both.note, both.products, both.clerk) = ("both", [pen, ink], ann)
        let penOnly = Order(dbManager: manager)
        (penOnly.note, penOnly.products) = ("pen", [pen])
        let none = Order(dbManager: manager)
        none.note = "none"
        try Order.save([both, penOnly, none], manager: manager)
        return (database, pen, ann)
    }

    private func notes(_ conditions: [String], _ arguments: [SQLiteValue] = [], _ manager: DBBManager) throws
        -> [String]
    {
        var options = DBBQueryOptions.options(withConditions: conditions, sortColumns: ["id"])
        options.arguments = arguments
        return try Order.instances(matching: options, manager: manager).map(\.note)
    }

    @Test("IS NULL and IS NOT NULL on a reference and an array", arguments: Backend.allCases)
    func nullTests(_ backend: Backend) throws {
        guard case (let database, _, _)? = try orders(backend) else { return }
        let manager = database.manager
        #expect(try notes(["clerk IS NULL"], [], manager) == ["pen", "none"])
        #expect(try notes(["clerk IS NOT NULL"], [], manager) == ["both"])
        #expect(try notes(["products IS NULL"], [], manager) == ["none"])
        #expect(try notes(["products NOTNULL"], [], manager) == ["both", "pen"])
        try Order.deleteAll(manager: manager)
        try Order(dbManager: manager).save()
        #expect(try notes(["clerk IS NULL"], [], manager) == [""])
    }

    @Test(
        "NOT … IN, NOT IN, != select the objects without such a join row, empty ones included",
        arguments: Backend.allCases)
    func negations(_ backend: Backend) throws {
        guard case (let database, let pen, _)? = try orders(backend) else { return }
        let manager = database.manager
        let penID: SQLiteValue = .integer(pen.id)
        #expect(try notes(["products IN (?)"], [penID], manager) == ["both", "pen"])
        #expect(try notes(["NOT products IN (?)"], [penID], manager) == ["none"])
        #expect(try notes(["products NOT IN (?)"], [penID], manager) == ["none"])
        #expect(try notes(["NOT (products = ?)"], [penID], manager) == ["none"])
        #expect(try notes(["(products NOT IN (?))"], [penID], manager) == ["none"])
    }

    @Test("a reference reads as a nullable column: any SQL over it means what SQL means", arguments: Backend.allCases)
    func referencesAsColumns(_ backend: Backend) throws {
        guard case (let database, _, let ann)? = try orders(backend) else { return }
        let manager = database.manager
        let annID: SQLiteValue = .integer(ann.id)
        #expect(try notes(["(clerk IS NULL)"], [], manager) == ["pen", "none"])
        #expect(try notes(["clerk = ? OR clerk IS NULL"], [annID], manager) == ["both", "pen", "none"])
        #expect(try notes(["? = clerk"], [annID], manager) == ["both"])
        // As in SQL, NULL is not unequal to anything.
        #expect(try notes(["clerk != ?"], [annID], manager) == [])
        #expect(try notes(["clerk IS NOT ?"], [annID], manager) == ["pen", "none"])
        #expect(try notes(["clerk = ? AND note = 'both'"], [annID], manager) == ["both"])
    }

    @Test("an array tested in a form with no one meaning is refused, not guessed at", arguments: Backend.allCases)
    func ambiguousArrayConditions(_ backend: Backend) throws {
        guard case (let database, let pen, _)? = try orders(backend) else { return }
        for condition in ["? != products", "products = ? OR products IS NULL", "products IN (?) AND note = 'x'"] {
            var options = DBBQueryOptions.options(withConditions: [condition])
            options.arguments = [.integer(pen.id)]
            #expect {
                try Order.instances(matching: options, manager: database.manager)
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .invalidOption && error.property == "products"
            }
        }
    }

    @Test("distinct that cannot compare any column is a typed error", arguments: Backend.allCases)
    func distinctWithoutColumns(_ backend: Backend) throws {
        guard case (let database, _, _)? = try orders(backend) else { return }
        for properties in [["products"], ["id"], ["clerk", "createdTime"]] {
            #expect {
                try Order.instances(
                    matching: .options(properties: properties, distinct: true), manager: database.manager)
            } throws: { error in
                (error as? DBBError)?.kind == .invalidOption
            }
        }
        #expect(
            try Order.instances(matching: .options(properties: ["note"], distinct: true), manager: database.manager)
                .count == 3)
    }
}
