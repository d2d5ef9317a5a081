import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Saving, updating and fetching scalar properties")
struct SaveFetchTests {
    @Test("insert then update, refetched with exact dates, from another manager", arguments: Backend.allCases)
    func saveUpdateRefetch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Person.self]) else { return }
        let ada = Person("Ada", "Lovelace", age: 36, manager: database.manager)
        let birthday = Date(timeIntervalSinceReferenceDate: -5_000_000_000.123456)
        ada.birthday = birthday
        ada.isMember = true
        ada.rating = 4.75
        ada.nickname = "Enchantress"
        #expect(ada.id == 0)
        #expect(ada.saveToDB())
        #expect(ada.id == 1)
        let created = try #require(ada.createdTime)
        #expect(ada.modifiedTime == created)

        let other = try database.reopen([Person.self])
        let fetched = try #require(try Person.instance(id: ada.id, manager: other))
        #expect(fetched.firstName == "Ada" && fetched.lastName == "Lovelace" && fetched.age == 36)
        #expect(fetched.birthday == birthday, "dates come back bit for bit")
        #expect(fetched.isMember && fetched.rating == 4.75 && fetched.nickname == "Enchantress")
        #expect(fetched.createdTime == created)

        fetched.age = 37
        fetched.nickname = nil
        fetched.rating = nil
        try fetched.save()
        #expect(fetched.id == 1)
        #expect(try Person.allIDs(manager: other) == [1])
        let updated = try #require(try Person.instance(id: 1, manager: database.manager))
        #expect(updated.age == 37)
        #expect(updated.nickname == nil, "setting an optional to nil and saving clears the column")
        #expect(updated.rating == nil)
        #expect(updated.createdTime == created)
        #expect(try #require(updated.modifiedTime) >= created)
        #expect(try database.scalar(#"SELECT "nick" IS NULL FROM "Person""#, as: Bool.self) == true)
    }

    @Test("every scalar type round-trips, extreme values included", arguments: Backend.allCases)
    func allTypes(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [AllTypes.self]) else { return }
        let object = AllTypes(dbManager: database.manager)
        object.bool = true
        object.int = Int.min
        object.int8 = Int8.min
        object.int16 = Int16.max
        object.int32 = Int32.min
        object.int64 = Int64.max
        object.uint8 = UInt8.max
        object.uint32 = UInt32.max
        object.uint64 = UInt64(Int64.max)
        object.double = -Double.greatestFiniteMagnitude
        object.float = Float.leastNonzeroMagnitude
        object.string = "Zoë 🇩🇪 'quoted' \"double\" \u{0}nul"
        if backend == .postgresql {
            // PostgreSQL's text cannot hold U+0000: the save refuses it before the server does,
            // naming the property, and writes nothing; without it the round trip is exact.
            let refused = try #require(throws: DBBError.self) { try object.save() }
            #expect(refused.kind == .invalidValue && refused.property == "string" && object.id == 0)
            #expect(try database.rows(of: "AllTypes") == 0)
            object.string = "Zoë 🇩🇪 'quoted' \"double\" nul"
        }
        object.date = Date.distantFuture
        object.optionalBool = false
        object.optionalInt = 0
        object.optionalDouble = .pi
        object.optionalString = ""
        object.optionalDate = Date.distantPast
        object.blob = Data((0...255).map(UInt8.init))
        object.bytes = Data()
        try object.save()

        let back = try #require(try AllTypes.instance(id: object.id, manager: try database.reopen()))
        #expect(back.bool && back.int == Int.min && back.int8 == Int8.min && back.int16 == Int16.max)
        #expect(back.int32 == Int32.min && back.int64 == Int64.max && back.uint8 == UInt8.max)
        #expect(back.uint32 == UInt32.max && back.uint64 == UInt64(Int64.max))
        #expect(back.double == -Double.greatestFiniteMagnitude && back.float == Float.leastNonzeroMagnitude)
        #expect(back.string == object.string)
        #expect(back.date == Date.distantFuture && back.optionalDate == Date.distantPast)
        #expect(back.optionalBool == false && back.optionalInt == 0 && back.optionalDouble == .pi)
        #expect(back.optionalString == "", "an empty string is not nil")
        #expect(back.blob == object.blob)
        #expect(back.bytes == Data(), "empty data is an empty blob, not the default")

        // And nil everywhere it can be.
        let empty = AllTypes(dbManager: database.manager)
        try empty.save()
        let emptyBack = try #require(try AllTypes.instance(id: empty.id, manager: database.manager))
        #expect(emptyBack.optionalBool == nil && emptyBack.optionalInt == nil && emptyBack.optionalDouble == nil)
        #expect(emptyBack.optionalString == nil && emptyBack.optionalDate == nil && emptyBack.blob == nil)
        #expect(emptyBack.bytes == Data([1]))
        #expect(try database.rows(of: "AllTypes_blob") == 1)

        object.blob = nil
        try object.save()
        #expect(try AllTypes.instance(id: object.id, manager: database.manager)?.blob == nil)
        #expect(try database.rows(of: "AllTypes_blob") == 0)
    }

    @Test("a NOT NULL violation names the property, and nothing is written", arguments: Backend.allCases)
    func notNullViolation(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Person.self]) else { return }
        let nameless = Person(dbManager: database.manager)
        nameless.firstName = nil
        #expect {
            try nameless.save()
        } throws: { error in
            let error = try #require(error as? DBBError)
            let engineMessage =
                switch backend {
                case .sqlite: "NOT NULL constraint failed: Person.firstName"
                case .postgresql: #"null value in column "firstName" of relation "Person" violates not-null constraint"#
                }
            return error.kind == database.refusalKind && error.table == "Person" && error.property == "firstName"
                && database.isConstraintViolation(error) && error.description.contains(engineMessage)
        }
        #expect(nameless.id == 0 && nameless.createdTime == nil)
        #expect(!nameless.saveToDB())
        #expect(database.manager.errorMessage().contains("Person.firstName"))
        #expect(try database.manager.count(of: "Person") == 0)
    }
}
