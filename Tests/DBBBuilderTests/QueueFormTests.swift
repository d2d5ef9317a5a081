import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// DBBBuilder's queue forms ran inside `FMDatabaseQueue.inDatabase`: the completion had run
/// when the call returned. Ported code relies on it both ways.
@Suite("DBBBuilder's queue forms call back before they return")
struct QueueFormTests {
    private func database() throws -> ManagerTestDatabase {
        let database = try ManagerTestDatabase([Person.self])
        try Person.save(
            [
                Person("Ann", "Lee", age: 30, manager: database.manager),
                Person("Bob", "Ray", age: 40, manager: database.manager),
            ], manager: database.manager)
        return database
    }

    @Test("reading right after the call: what the completion stored is there")
    func readAfterTheCall() throws {
        let database = try database()
        let manager = database.manager
        var names: [String] = []
        var fetchError: DBBError?
        Person.getInstancesFromQueue(withOptions: .options(sortColumns: ["firstName"]), manager: manager) {
            objects, error in
            names = objects.compactMap { ($0 as? Person)?.firstName }
            fetchError = error
        }
        #expect(names == ["Ann", "Bob"] && fetchError == nil)

        var single: DBBTableObject?
        Person.getQueuedInstanceWithIDNumber(2, manager: manager, completion: { single = $0 })
        #expect((single as? Person)?.firstName == "Bob")
        var sparse: Person?
        Person.getQueuedInstanceWithIDNumber(
            2, manager: manager, completion: { sparse = $0 as? Person }, sparsePopulation: true)
        #expect(sparse?.id == 2 && sparse?.firstName == "")
        var missing: DBBTableObject? = Person(dbManager: manager)
        Person.getQueuedInstanceWithIDNumber(99, manager: manager, completion: { missing = $0 })
        #expect(missing == nil)

        var count = 0
        Person.getAllInstancesFromQueue(manager: manager) { count = $0.count }
        #expect(count == 2)
        var ids: [Int64] = []
        Person.fetchAllInstanceIDsFromQueue(manager: manager) { ids = $0 }
        #expect(ids == [1, 2])
        var some: [DBBTableObject] = []
        Person.getInstancesWithIDNumbersFromQueue(ids: [2], manager: manager) { some = $0 }
        #expect(some.map(\.id) == [2])
        var deleted = false
        Person.deleteMultipleInstancesOnQueue(some, manager: manager) { deleted = $0 }
        #expect(deleted && some[0].isDeleted)
        #expect(try manager.count(of: "Person") == 1)
    }

    @Test("reading in the completion: it runs once, on the caller's thread, before the call returns")
    func readInTheCompletion() throws {
        let database = try database()
        let caller = Thread.current
        var calls = 0
        var returned = false
        var options = DBBQueryOptions.options(withConditions: ["age > ?"])
        options.arguments = [35]
        Person.getInstancesFromQueue(withOptions: options, manager: database.manager) { objects, error in
            calls += 1
            #expect(!returned)
            #expect(Thread.current == caller)
            #expect(error == nil)
            #expect(objects.compactMap { ($0 as? Person)?.firstName } == ["Bob"])
        }
        returned = true
        #expect(calls == 1)
    }

    @Test("a failure reaches the completion as a typed error and errorMessage(); the next success clears it")
    func failure() throws {
        let database = try database()
        let manager = database.manager
        var failure: DBBError?
        var objects: [DBBTableObject] = [Person(dbManager: manager)]
        Person.getInstancesFromQueue(withOptions: .options(sortColumns: ["nope"]), manager: manager) {
            objects = $0
            failure = $1
        }
        #expect(objects.isEmpty)
        #expect(failure?.kind == .unknownProperty && failure?.property == "nope")
        #expect(manager.errorMessage().contains("nope"))
        Person.getInstancesFromQueue(withOptions: DBBQueryOptions(), manager: manager) {
            objects = $0
            failure = $1
        }
        #expect(objects.count == 2 && failure == nil)
        #expect(manager.errorMessage() == "")
    }
}
