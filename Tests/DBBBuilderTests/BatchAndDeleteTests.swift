import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Batches, save hooks, deletion")
struct BatchAndDeleteTests {
    @Test("saveObjects writes a batch in one go and calls both hooks for every object", arguments: Backend.allCases)
    func batchWithHooks(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Hooked.self]) else { return }
        let objects = (0..<50).map { n -> Hooked in
            let object = Hooked(dbManager: database.manager)
            object.name = "item \(n)"
            return object
        }
        #expect(Hooked.saveObjects(objects, dbManager: database.manager))
        #expect(objects.allSatisfy { $0.preSaves == 1 && $0.postSaves == 1 && $0.idSeenBeforeSave == 0 })
        #expect(objects.map(\.id) == Array(1...50))
        try Hooked.save(objects, manager: database.manager)
        #expect(objects.allSatisfy { $0.preSaves == 2 && $0.postSaves == 2 })
        #expect(try database.manager.count(of: "Hooked") == 50)
    }

    @Test("a batch with a failing row leaves the database and the objects as they were", arguments: Backend.allCases)
    func failingBatch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Hooked.self]) else { return }
        let existing = Hooked(dbManager: database.manager)
        existing.name = "taken"
        try existing.save()
        let before = try database.manager.query(#"SELECT * FROM "Hooked" ORDER BY "id""#).map(\.values)

        let batch = ["a", "b", "taken", "d"].map { name -> Hooked in
            let object = Hooked(dbManager: database.manager)
            object.name = name
            return object
        }
        existing.name = "renamed"
        #expect {
            try Hooked.save(batch + [existing], manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return database.isConstraintViolation(error) && error.property == "name"
        }
        #expect(try database.manager.query(#"SELECT * FROM "Hooked" ORDER BY "id""#).map(\.values) == before)
        #expect(batch.allSatisfy { $0.id == 0 && $0.createdTime == nil && $0.postSaves == 0 })
        #expect(existing.id == 1)
        #expect(!Hooked.saveObjects(batch, dbManager: database.manager))
        #expect(database.manager.errorMessage().contains(backend == .sqlite ? "UNIQUE" : "violates unique constraint"))
    }

    @Test("a batch mixing classes is refused before anything is written", arguments: Backend.allCases)
    func mixedBatch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Person.self, Project.self]) else { return }
        let person = Person("A", "B", age: 1, manager: database.manager)
        let project = Project("P", budget: 1, manager: database.manager)
        #expect {
            try Person.save([person, project], manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .nonHomogeneousBatch && error.message.contains("object 1")
        }
        #expect(!Person.saveObjects([person, project], dbManager: database.manager))
        #expect(try database.manager.count(of: "Person") == 0 && database.manager.count(of: "Project") == 0)
        #expect(person.id == 0)
    }

    @Test(
        "a typed array is saved where it lies: a subclass's objects in a superclass's array are refused, a homogeneous one saved",
        arguments: Backend.allCases)
    func typedArrayBatch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Animal.self, Mammal.self, Pet.self]) else { return }
        let animal = Animal(dbManager: database.manager)
        let pet = Pet(dbManager: database.manager)
        let mixed: [Animal] = [animal, pet]
        #expect {
            try Animal.save(mixed, manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .nonHomogeneousBatch && error.message.contains("object 1")
        }
        #expect(animal.id == 0 && pet.id == 0)
        let pets: [Pet] = (0..<3).map { n in
            let pet = Pet(dbManager: database.manager)
            pet.name = "pet \(n)"
            return pet
        }
        try Pet.save(pets, manager: database.manager)
        #expect(pets.allSatisfy { $0.id > 0 && !$0.hasChanges })
        #expect(try Pet.all(manager: database.manager).map(\.name) == ["pet 0", "pet 1", "pet 2"])
    }

    @Test("delete one, several, all; join rows go with their objects", arguments: Backend.allCases)
    func deletion(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [AllTypes.self]) else { return }
        let m = database.manager
        let objects = (0..<5).map { n -> AllTypes in
            let object = AllTypes(dbManager: m)
            object.int = n
            object.blob = Data([UInt8(n)])
            return object
        }
        try AllTypes.save(objects, manager: m)
        #expect(AllTypes.deleteInstance(objects[0], manager: m))
        #expect(objects[0].isDeleted && objects[0].id == 1 && !objects[1].isDeleted)
        #expect(AllTypes.allInstanceIDs(manager: m) == [2, 3, 4, 5])
        #expect(AllTypes.deleteMultipleInstances([objects[1], objects[2]], manager: m))
        #expect(try AllTypes.allIDs(manager: m) == [4, 5])
        #expect(
            try database.values(#"SELECT "AllTypes_ID" FROM "AllTypes_blob" ORDER BY 1"#, as: Int64.self) == [4, 5])
        try objects[3].delete()
        #expect(AllTypes.deleteAllInstances(manager: m))
        #expect(try m.count(of: "AllTypes") == 0)
        #expect(try database.rows(of: "AllTypes_blob") == 0)
    }
}
