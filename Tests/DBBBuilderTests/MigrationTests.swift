import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Migrations only add, and say so")
struct MigrationTests {
    @Test("a property whose type no longer fits its column is refused at registration; nothing changes")
    func typeChangeIsRefused() throws {
        let database = try ManagerTestDatabase([GadgetV1.self])
        let gadget = GadgetV1(dbManager: database.manager)
        (gadget.code, gadget.serial) = (7, "s1")
        try gadget.save()
        let schema = try database.schema()
        let later = try DBBManager(url: database.url)
        #expect {
            try later.register([GadgetV2.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.table == "Gadget" && error.property == "code"
                && error.message.contains("GadgetV2") && error.message.contains("String")
                && error.message.uppercased().contains("INTEGER")
        }
        #expect(try database.schema() == schema)
        #expect(try GadgetV1.all(manager: database.manager).map(\.code) == [7])
    }

    @Test("a removed NOT NULL property no longer blocks inserts, and its data, ids and indexes stay")
    func removedNotNullColumn() throws {
        let database = try ManagerTestDatabase([GadgetV1.self])
        for n in 1...3 {
            let gadget = GadgetV1(dbManager: database.manager)
            (gadget.code, gadget.serial, gadget.name) = (n, "serial \(n)", "g\(n)")
            try gadget.save()
        }
        try GadgetV1.all(manager: database.manager).last!.delete()  // the counter stays at 3
        let later = try DBBManager(url: database.url)
        try later.register([GadgetV3.self])
        let gadget = GadgetV3(dbManager: later)
        (gadget.code, gadget.name) = (9, "g9")
        try gadget.save()
        #expect(gadget.id == 4)
        let rows = try database.connection().fetchAll("SELECT id, code, serial, name FROM Gadget ORDER BY id") { row in
            "\(row.int64(at: 0)) \(row.int64(at: 1)) \(row.string(at: 2) ?? "NULL") \(row.string(at: 3) ?? "")"
        }
        #expect(rows == ["1 1 serial 1 g1", "2 2 serial 2 g2", "4 9 NULL g9"])
        #expect(try database.schema().contains { $0.contains("Gadget_name") })
        #expect(try GadgetV3.all(manager: later).map(\.name) == ["g1", "g2", "g9"])
        #expect(try database.connection().fetchValue("PRAGMA integrity_check", as: String.self) == "ok")
    }

    @Test("a new NOT NULL UNIQUE property is refused on a table with rows, and accepted on an empty one")
    func notNullUniqueOnRows() throws {
        let database = try ManagerTestDatabase([GadgetV3.self])
        try GadgetV3(dbManager: database.manager).save()
        let schema = try database.schema()
        #expect {
            try DBBManager(url: database.url).register([GadgetV4.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.property == "barcode" && error.message.contains("UNIQUE")
        }
        #expect(try database.schema() == schema)
        try GadgetV3.deleteAll(manager: database.manager)
        let later = try DBBManager(url: database.url)
        try later.register([GadgetV4.self])
        let gadget = GadgetV4(dbManager: later)
        gadget.barcode = "b1"
        try gadget.save()
        let twin = GadgetV4(dbManager: later)
        twin.barcode = "b1"
        #expect(throws: DBBError.self) { try twin.save() }
    }
}
