import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Migrations only add, and say so")
struct MigrationTests {
    @Test(
        "a property whose type no longer fits its column is refused at registration; nothing changes",
        arguments: Backend.allCases)
    func typeChangeIsRefused(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [GadgetV1.self]) else { return }
        let gadget = GadgetV1(dbManager: database.manager)
        (gadget.code, gadget.serial) = (7, "s1")
        try gadget.save()
        let schema = try database.layout()
        let later = try database.reopen()
        let integerType = backend == .sqlite ? "INTEGER" : "BIGINT"
        #expect {
            try later.register([GadgetV2.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.table == "Gadget" && error.property == "code"
                && error.message.contains("GadgetV2") && error.message.contains("String")
                && error.message.uppercased().contains(integerType)
        }
        #expect(try database.layout() == schema)
        #expect(try GadgetV1.all(manager: database.manager).map(\.code) == [7])
    }

    @Test(
        "a removed NOT NULL property no longer blocks inserts, and its data, ids and indexes stay",
        arguments: Backend.allCases)
    func removedNotNullColumn(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [GadgetV1.self]) else { return }
        for n in 1...3 {
            let gadget = GadgetV1(dbManager: database.manager)
            (gadget.code, gadget.serial, gadget.name) = (n, "serial \(n)", "g\(n)")
            try gadget.save()
        }
        try GadgetV1.all(manager: database.manager).last!.delete()  // the counter stays at 3
        let later = try database.reopen([GadgetV3.self])
        let gadget = GadgetV3(dbManager: later)
        (gadget.code, gadget.name) = (9, "g9")
        try gadget.save()
        #expect(gadget.id == 4)
        let rows = try database.manager.query(#"SELECT "id", "code", "serial", "name" FROM "Gadget" ORDER BY "id""#).map
        { row in
            "\(row[0, as: Int64.self] ?? -1) \(row[1, as: Int64.self] ?? -1) \(row[2, as: String.self] ?? "NULL") \(row[3, as: String.self] ?? "")"
        }
        #expect(rows == ["1 1 serial 1 g1", "2 2 serial 2 g2", "4 9 NULL g9"])
        #expect(try database.indexes(of: "Gadget").contains("Gadget_name"))
        #expect(try database.columns(of: "Gadget").first { $0.name == "serial" }?.isNotNull == false)
        #expect(try GadgetV3.all(manager: later).map(\.name) == ["g1", "g2", "g9"])
        if backend == .sqlite {  // the table was rebuilt (PostgreSQL: ALTER … DROP NOT NULL)
            #expect(try database.scalar("PRAGMA integrity_check", as: String.self) == "ok")
        }
    }

    @Test(
        "a new NOT NULL UNIQUE property is refused on a table with rows, and accepted on an empty one",
        arguments: Backend.allCases)
    func notNullUniqueOnRows(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [GadgetV3.self]) else { return }
        try GadgetV3(dbManager: database.manager).save()
        let schema = try database.layout()
        #expect {
            try database.reopen().register([GadgetV4.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.property == "barcode" && error.message.contains("UNIQUE")
        }
        #expect(try database.layout() == schema)
        try GadgetV3.deleteAll(manager: database.manager)
        let later = try database.reopen([GadgetV4.self])
        let gadget = GadgetV4(dbManager: later)
        gadget.barcode = "b1"
        try gadget.save()
        let twin = GadgetV4(dbManager: later)
        twin.barcode = "b1"
        #expect(throws: DBBError.self) { try twin.save() }
    }

    @Test(
        "a new NOT NULL property gives the rows already there its Swift default, not the type's zero",
        arguments: Backend.allCases)
    func notNullColumnTakesTheSwiftDefault(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ShipmentV1.self]) else { return }
        for note in ["a", "b"] {
            let shipment = ShipmentV1(dbManager: database.manager)
            shipment.note = note
            try shipment.save()
        }
        let later = try database.reopen([ShipmentV2.self])
        let old = try ShipmentV2.all(manager: later)
        #expect(old.map(\.note) == ["a", "b"])
        for shipment in old {
            #expect(shipment.priority == 5 && shipment.carrier == "D'HL" && shipment.express)
            #expect(shipment.ratio == -1.5 && shipment.limit == .infinity && shipment.tag == "")
        }
        switch backend {
        case .sqlite:
            let create = try database.scalar("SELECT sql FROM sqlite_master WHERE name = 'Shipment'", as: String.self)
            #expect(create?.contains("priority Integer NOT NULL DEFAULT 5") == true, "\(create ?? "")")
            #expect(create?.contains("carrier Text NOT NULL DEFAULT 'D''HL'") == true)
        case .postgresql:
            let columns = try database.columns(of: "Shipment")
            #expect(
                columns.first { $0.name == "priority" }?.description == "priority bigint NOT NULL DEFAULT 5",
                "\(columns)")
            #expect(
                columns.first { $0.name == "carrier" }?.description == "carrier text NOT NULL DEFAULT 'D''HL'::text")
        }
    }
    @Test(
        "a new property that may be NULL gives the rows already there its Swift default: they load unchanged",
        arguments: Backend.allCases)
    func nullableColumnTakesTheSwiftDefault(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ShipmentV1.self]) else { return }
        let first = ShipmentV1(dbManager: database.manager)
        first.note = "old"
        try first.save()
        let later = try database.reopen([ShipmentV3.self])
        let old = try #require(try ShipmentV3.all(manager: later).first)
        #expect(old.weight == 2.5 && old.label == "none" && old.count == 3 && old.fragile && old.memo == nil)
        #expect(!old.hasChanges && old.changedPropertyNames.isEmpty)
        let row = try later.query(#"SELECT "weight", "label", "count", "fragile", "memo" FROM "Shipment""#).map { row in
            "\(row[0, as: Double.self].map { "\($0)" } ?? "NULL") \(row[1, as: String.self] ?? "NULL") "
                + "\(row[2, as: Int64.self].map { "\($0)" } ?? "NULL") \(row[3, as: Int64.self].map { "\($0)" } ?? "NULL") "
                + "\(row[4, as: String.self] ?? "NULL")"
        }
        #expect(row == ["2.5 none 3 1 NULL"])
    }

    @Test(
        "a new property whose default has a NUL character is added without a default (SQL text cannot hold one)",
        arguments: Backend.allCases)
    func nulInDefault(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ShipmentV1.self]) else { return }
        try ShipmentV1(dbManager: database.manager).save()
        let later = try database.reopen([ShipmentV4.self])
        let old = try #require(try ShipmentV4.all(manager: later).first)
        #expect(old.code == "a\u{0}b" && old.changedPropertyNames == ["code"], "the row holds NULL")
    }

    @Test(
        "a NULL other SQL wrote into a non-optional property's column counts as a change; setting the default writes it",
        arguments: Backend.allCases)
    func nullInNonOptionalColumn(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ShipmentV3.self]) else { return }
        let manager = database.manager
        try ShipmentV3(dbManager: manager).save()
        try manager.execute(#"UPDATE "Shipment" SET "weight" = NULL, "label" = NULL"#)
        let loaded = try #require(try ShipmentV3.all(manager: manager).first)
        #expect(loaded.weight == 2.5 && loaded.label == "none", "the property keeps its default")
        #expect(loaded.hasChanges && Set(loaded.changedPropertyNames) == ["weight", "label"])
        loaded.weight = 2.5  // the value it already holds: still a change against the row's NULL
        try loaded.save()
        let stored = try manager.query(#"SELECT "weight", "label" FROM "Shipment""#).map {
            "\($0[0, as: Double.self].map { "\($0)" } ?? "NULL") \($0[1, as: String.self] ?? "NULL")"
        }
        #expect(stored == ["2.5 none"])
        let again = try #require(try ShipmentV3.all(manager: manager).first)
        #expect(!again.hasChanges)
    }
}

final class ShipmentV1: DBBTableObject {
    override class var databaseTableName: String { "Shipment" }
    var note = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["note": DBBPropertyPersistence(\ShipmentV1.note)], for: self)
    }
}

/// `ShipmentV1` with NOT NULL properties whose defaults are not the type's zero.
final class ShipmentV2: DBBTableObject {
    override class var databaseTableName: String { "Shipment" }
    var note = ""
    var priority = 5
    var carrier = "D'HL"
    var express = true
    var ratio = -1.5
    var limit = Double.infinity
    var tag: String? = nil

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = [
            "priority": .notNull, "carrier": .notNull, "express": .notNull, "ratio": .notNull,
            "limit": .notNull, "tag": .notNull,
        ]
        dbManager.addPersistenceMapping(
            [
                "note": DBBPropertyPersistence(\ShipmentV2.note),
                "priority": DBBPropertyPersistence(\ShipmentV2.priority),
                "carrier": DBBPropertyPersistence(\ShipmentV2.carrier),
                "express": DBBPropertyPersistence(\ShipmentV2.express),
                "ratio": DBBPropertyPersistence(\ShipmentV2.ratio),
                "limit": DBBPropertyPersistence(\ShipmentV2.limit),
                "tag": DBBPropertyPersistence(\ShipmentV2.tag),
            ], for: self)
    }
}

/// `ShipmentV1` with properties that may be `NULL` in their columns (no attributes).
final class ShipmentV3: DBBTableObject {
    override class var databaseTableName: String { "Shipment" }
    var note = ""
    var weight = 2.5
    var label = "none"
    var count = 3
    var fragile = true
    var memo: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "note": DBBPropertyPersistence(\ShipmentV3.note),
                "weight": DBBPropertyPersistence(\ShipmentV3.weight),
                "label": DBBPropertyPersistence(\ShipmentV3.label),
                "count": DBBPropertyPersistence(\ShipmentV3.count),
                "fragile": DBBPropertyPersistence(\ShipmentV3.fragile),
                "memo": DBBPropertyPersistence(\ShipmentV3.memo),
            ], for: self)
    }
}

/// `ShipmentV1` with a property whose default no SQL literal can spell.
final class ShipmentV4: DBBTableObject {
    override class var databaseTableName: String { "Shipment" }
    var note = ""
    var code = "a\u{0}b"

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "note": DBBPropertyPersistence(\ShipmentV4.note),
                "code": DBBPropertyPersistence(\ShipmentV4.code),
            ], for: self)
    }
}
