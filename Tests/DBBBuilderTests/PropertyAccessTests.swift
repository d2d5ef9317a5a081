import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Property access: stored, observed and computed properties")
struct PropertyAccessTests {
    @Test("observers fire and computed properties convert, on save and on fetch")
    func observedAndComputed() throws {
        let database = try ManagerTestDatabase([Observed.self])
        let object = Observed(dbManager: database.manager)
        object.title = "draft"
        object.fahrenheit = 212
        object.plain = 7
        try object.save()
        #expect(try database.connection().fetchValue("SELECT fahrenheit FROM Observed", as: Double.self) == 212)

        let back = try #require(try Observed.instance(id: object.id, manager: database.manager))
        #expect(back.title == "draft")
        #expect(back.changes == ["title  → draft"], "didSet ran when the fetch set the property")
        #expect(back.celsius == 100, "the computed setter ran")
        #expect(back.plain == 7)
    }

    @Test("superclass properties land in the right place of every subclass object")
    func subclassStorage() throws {
        let database = try ManagerTestDatabase([Pet.self])
        let pets = (0..<100).map { n -> Pet in
            let pet = Pet(dbManager: database.manager)
            pet.species = "species \(n)"
            pet.legs = n % 5
            pet.furColor = n.isMultiple(of: 2) ? nil : "color \(n)"
            pet.name = "pet \(n)"
            pet.adopted = Date(timeIntervalSinceReferenceDate: Double(n) * 1000.5)
            return pet
        }
        try Pet.save(pets, manager: database.manager)
        let back = try Pet.all(manager: try database.reopen([Pet.self]))
        #expect(back.count == 100)
        for (original, copy) in zip(pets, back) {
            #expect(copy.species == original.species && copy.legs == original.legs)
            #expect(copy.furColor == original.furColor && copy.name == original.name && copy.adopted == original.adopted)
        }
    }
}
