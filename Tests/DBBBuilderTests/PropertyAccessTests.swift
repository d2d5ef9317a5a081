@_spi(DBBBackend) import DBBBuilder
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
            #expect(
                copy.furColor == original.furColor && copy.name == original.name && copy.adopted == original.adopted)
        }
    }

    // MARK: - Stored-offset access

    /// Whether this process runs with stored offsets on (off by default; CI runs the ORM's
    /// suites once more with them on).
    static let offsetsOn = ["on", "1", "yes", "true"].contains(
        (ProcessInfo.processInfo.environment["DBB_STORED_OFFSETS"] ?? "").lowercased())

    @Test("stored offsets are off by default, and on when the environment asks")
    func storedOffsetsDefault() throws {
        let database = try ManagerTestDatabase([Pet.self])
        #expect(database.manager.storedOffsetAccess == Self.offsetsOn)
        #expect(
            try database.manager.storedOffsetProperties(of: Pet.self) == (Self.offsetsOn ? ["adopted", "name"] : []))
    }

    @Test(
        "only plain stored properties go through their storage: computed, observed, lazy and wrapped ones through their accessors"
    )
    func storedOffsetRefusals() throws {
        let database = try ManagerTestDatabase([AccessShapes.self], storedOffsets: true)
        #expect(try database.manager.storedOffsetProperties(of: AccessShapes.self) == ["plain", "plainTags"])

        let object = AccessShapes(dbManager: database.manager)
        object.plain = 1
        object.observed = 2
        object.computed = "a"
        object.lazyValue = 4
        object.wrapped = 3
        object.plainTags = ["a", "b"]
        object.observedTags = ["c"]
        try object.save()
        let back = try #require(
            try AccessShapes.instance(id: object.id, manager: try database.reopen([AccessShapes.self])))
        #expect(back.plain == 1)
        #expect(back.observed == 2 && back.observedSets == 1, "the observer ran on fetch")
        #expect(back.computed == "a!!", "the setter ran on fetch (it appends !)")
        #expect(back.lazyValue == 4)
        #expect(back.wrapped == 12, "the wrapper's setter ran on fetch (it doubles)")
        #expect(back.plainTags == ["a", "b"] && !back.changedPropertyNames.contains("plainTags"))
        #expect(back.observedTags == ["c"] && back.tagSets == 1, "the array's observer ran on fetch")
        back.plainTags.append("d")
        #expect(back.changedPropertyNames.contains("plainTags"))
        try back.save()
        #expect(try AccessShapes.instance(id: object.id, manager: database.manager)?.plainTags == ["a", "b", "d"])
    }

    @Test(
        "a property a subclass may override goes through its key path: the override's observer runs; final classes' own properties do not"
    )
    func overriddenWithObserver() throws {
        let database = try ManagerTestDatabase(
            [OverriddenBase.self, OverridingChild.self, Pet.self], storedOffsets: true)
        // A key path to an overridable property dispatches through the class's accessors
        // (projected through a temporary): refused in the base class and in the subclass.
        #expect(try database.manager.storedOffsetProperties(of: OverriddenBase.self) == [])
        #expect(try database.manager.storedOffsetProperties(of: OverridingChild.self) == [])
        // Pet is final, its superclasses are not: only Pet's own properties use their offsets.
        #expect(
            try database.manager.storedOffsetProperties(of: Pet.self) == ["adopted", "name"])
        let child = OverridingChild(dbManager: database.manager)
        child.level = 7
        try child.save()
        let back = try #require(try OverridingChild.instance(id: child.id, manager: database.manager))
        #expect(back.level == 7 && back.levelSets == 1, "the override's observer ran on fetch")
        let base = OverriddenBase(dbManager: database.manager)
        base.level = 9
        try base.save()
        #expect(try OverriddenBase.instance(id: base.id, manager: database.manager)?.level == 9)
    }

    @Test("each specialization of a generic class has its own offsets and table")
    func genericClasses() throws {
        let database = try ManagerTestDatabase(
            [GenericShape<Int>.self, GenericShape<String>.self], storedOffsets: true)
        for type in [GenericShape<Int>.self, GenericShape<String>.self] as [DBBTableObject.Type] {
            #expect(try database.manager.storedOffsetProperties(of: type) == ["count", "value"])
        }
        let number = GenericShape<Int>(dbManager: database.manager)
        number.value = 42
        number.count = 1
        let text = GenericShape<String>(dbManager: database.manager)
        text.value = String(repeating: "long text ", count: 10)
        text.count = 2
        try number.save()
        try text.save()
        let manager = try database.reopen([GenericShape<Int>.self, GenericShape<String>.self])
        let numberBack = try #require(try GenericShape<Int>.instance(id: number.id, manager: manager))
        let textBack = try #require(try GenericShape<String>.instance(id: text.id, manager: manager))
        #expect(numberBack.value == 42 && numberBack.count == 1)
        #expect(textBack.value == String(repeating: "long text ", count: 10) && textBack.count == 2)
    }

    @Test(
        "with stored offsets turned off on the manager, every property goes through its key path and saves and fetches the same"
    )
    func offsetsTurnedOff() throws {
        let database = try ManagerTestDatabase()
        let manager = database.manager
        manager.storedOffsetAccess = false
        try manager.register([Pet.self, AccessShapes.self])
        #expect(try manager.storedOffsetProperties(of: Pet.self) == [])
        #expect(try manager.storedOffsetProperties(of: AccessShapes.self) == [])
        let pet = Pet(dbManager: manager)
        pet.name = "Rex"
        pet.legs = 4
        pet.adopted = Date(timeIntervalSinceReferenceDate: 1_000.25)
        try pet.save()
        let back = try #require(try Pet.instance(id: pet.id, manager: manager))
        #expect(back.name == "Rex" && back.legs == 4 && back.adopted == pet.adopted)
        #expect(back.createdTime != nil && back.id == pet.id)
        back.name = "Rex II"
        try back.save()
        #expect(try Pet.instance(id: pet.id, manager: manager)?.name == "Rex II")
    }

    @Test(
        "a fetch through storage reads every stored value — usual, NULL or of another kind — as the key paths do, or fails the same way"
    )
    func storageReadsEqualKeyPathReads() throws {
        let database = try ManagerTestDatabase([SlotKinds.self])
        let columns = [
            "int", "int64", "double", "date", "bool", "string", "optionalInt", "optionalInt64", "optionalDouble",
            "optionalDate", "optionalString",
        ]
        // Each stored value in each column: the usual kinds, NULL, and the others.
        let values: [SQLiteValue] = [
            .integer(7), .integer(0), .integer(Int64.max), .integer(-5), .real(1.5), .real(-0.25),
            .real(2), .text("abc"), .text("12"), .text(""), .blob(Data([1, 2])), .null,
        ]
        let connection = try database.connection()
        var rows = 0
        for column in columns {
            for value in values {
                try connection.execute(
                    "INSERT INTO SlotKinds (createdTime, modifiedTime, \"\(column)\") VALUES (1, 1, ?)", [value])
                rows += 1
            }
        }
        let throughStorage = try database.reopen([SlotKinds.self], storedOffsets: true)
        let throughKeyPaths = try database.reopen([SlotKinds.self], storedOffsets: false)
        #expect(try throughStorage.storedOffsetProperties(of: SlotKinds.self).count == columns.count)
        #expect(try throughKeyPaths.storedOffsetProperties(of: SlotKinds.self) == [])
        func outcome(_ id: Int64, _ manager: DBBManager) -> String {
            do {
                guard let object = try SlotKinds.instance(id: id, manager: manager) else { return "missing" }
                return object.described + (object.hasChanges ? " changed" : "")
            } catch {
                return "error: \(error)"
            }
        }
        var errors = 0
        for id in 1...Int64(rows) {
            let storage = outcome(id, throughStorage)
            #expect(storage == outcome(id, throughKeyPaths), "row \(id)")
            if storage.hasPrefix("error") { errors += 1 }
        }
        #expect(errors > 20, "values of another kind fail the fetch")
    }

    @Test(
        "a save through storage writes every value as the key paths do, finds the same changes and refuses the same values"
    )
    func storageSavesEqualKeyPathSaves() throws {
        let database = try ManagerTestDatabase([SlotKinds.self], storedOffsets: true)
        let throughStorage = database.manager
        let throughKeyPaths = try database.reopen([SlotKinds.self], storedOffsets: false)
        // Each property's unusual values beside a usual one; `nil` leaves the object as made.
        let edits: [(SlotKinds) -> Void] = [
            { _ in },
            { ($0.int, $0.int64, $0.bool) = (Int.min, Int64.max, true) },
            { ($0.double, $0.date) = (-0.0, Date(timeIntervalSinceReferenceDate: -1e-9)) },
            { ($0.double, $0.optionalDouble) = (.infinity, -.infinity) },
            { ($0.string, $0.optionalString) = ("", "héllo\u{0}wörld") },
            { ($0.optionalInt, $0.optionalInt64, $0.optionalDate) = (-1, 0, .distantFuture) },
            { $0.double = .nan },
            { $0.optionalDouble = .nan },
        ]
        func saved(_ manager: DBBManager, _ edit: (SlotKinds) -> Void) -> String {
            let object = SlotKinds(dbManager: manager)
            edit(object)
            do {
                try object.save()
                return "id"
            } catch {
                return "error: \(error)"
            }
        }
        for (number, edit) in edits.enumerated() {
            let storage = saved(throughStorage, edit)
            #expect(storage == saved(throughKeyPaths, edit), "edit \(number)")
        }
        let columns = [
            "int", "int64", "double", "date", "bool", "string", "optionalInt", "optionalInt64", "optionalDouble",
            "optionalDate", "optionalString",
        ]
        let shown = columns.map { "typeof(\"\($0)\") || ':' || quote(\"\($0)\")" }.joined(separator: " || ' ' || ")
        let rows = try database.manager.query("SELECT \(shown) FROM SlotKinds ORDER BY id").map {
            try $0.decode(String.self, at: 0)
        }
        #expect(rows.count == 2 * (edits.count - 2), "the NaN edits are refused by both")
        for pair in stride(from: 0, to: rows.count, by: 2) {
            #expect(rows[pair] == rows[pair + 1], "row \(pair + 1)")
        }
        // Fetched, each object is unchanged through either path; one changed property is found by both.
        for manager in [throughStorage, throughKeyPaths] {
            let objects = try SlotKinds.all(manager: manager)
            #expect(objects.allSatisfy { !$0.hasChanges })
            for object in objects { object.optionalString = object.optionalString == nil ? "set" : nil }
            #expect(objects.allSatisfy { $0.hasChanges })
            try SlotKinds.save(objects, manager: manager)
            let fetched = try SlotKinds.all(manager: manager)
            #expect(fetched.count == objects.count && fetched.allSatisfy { !$0.hasChanges })
        }
        let after = try database.manager.query("SELECT \(shown) FROM SlotKinds ORDER BY id").map {
            try $0.decode(String.self, at: 0)
        }
        #expect(after.count == rows.count && after != rows)
        for pair in stride(from: 0, to: after.count, by: 2) {
            #expect(after[pair] == after[pair + 1], "row \(pair + 1) after the updates")
        }
    }
}
