import DBBBuilder
import Foundation

// Models of the data-integrity suites: identity, change tracking, join rows, names, values,
// migrations and hooks.

/// An order (an SQL keyword as a table name) with an array of products.
final class Order: DBBTableObject {
    var note = ""
    var products: [Product] = []
    var clerk: Clerk?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "note": DBBPropertyPersistence(\Order.note),
                "products": DBBPropertyPersistence(\Order.products),
                "clerk": DBBPropertyPersistence(\Order.clerk),
            ], for: self)
    }
}

final class Product: DBBTableObject {
    var name = ""
    var price = 0.0
    var tags: [String] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Product.name),
                "price": DBBPropertyPersistence(\Product.price),
                "tags": DBBPropertyPersistence(\Product.tags),
            ], for: self)
    }

    convenience init(_ name: String, price: Double, manager: DBBManager) {
        self.init(dbManager: manager)
        (self.name, self.price) = (name, price)
    }
}

final class Clerk: DBBTableObject {
    var name = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\Clerk.name)], for: self)
    }

    convenience init(_ name: String, manager: DBBManager) {
        self.init(dbManager: manager)
        self.name = name
    }
}

/// A property named like the library's own SQL words (`value`) on a custom column, and
/// properties named like SQL keywords.
final class Ledger: DBBTableObject {
    var value = 0
    var order = 0
    var group = ""
    var select = false
    var index = 0.0
    var entries: [Double] = []
    var links: [Ledger] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "value": DBBPropertyPersistence(\Ledger.value, columnName: "amount"),
                "order": DBBPropertyPersistence(\Ledger.order),
                "group": DBBPropertyPersistence(\Ledger.group),
                "select": DBBPropertyPersistence(\Ledger.select),
                "index": DBBPropertyPersistence(\Ledger.index),
                "entries": DBBPropertyPersistence(\Ledger.entries),
                "links": DBBPropertyPersistence(\Ledger.links),
            ], for: self)
    }
}

/// Values SQLite cannot hold, scalar and in arrays.
final class Measurement: DBBTableObject {
    var reading = 0.0
    var ratio: Float = 0
    var takenAt: Date?
    var series: [Double] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "reading": DBBPropertyPersistence(\Measurement.reading),
                "ratio": DBBPropertyPersistence(\Measurement.ratio),
                "takenAt": DBBPropertyPersistence(\Measurement.takenAt),
                "series": DBBPropertyPersistence(\Measurement.series),
            ], for: self)
    }
}

/// Two classes with one short name, in different namespaces.
enum Billing {
    final class Account: DBBTableObject {
        var balance = 0
        required init(dbManager: DBBManager) {
            super.init(dbManager: dbManager)
            dbManager.addPersistenceMapping(["balance": DBBPropertyPersistence(\Account.balance)], for: self)
        }
    }
}

enum Auth {
    final class Account: DBBTableObject {
        var login = ""
        required init(dbManager: DBBManager) {
            super.init(dbManager: dbManager)
            dbManager.addPersistenceMapping(["login": DBBPropertyPersistence(\Account.login)], for: self)
        }
    }

    /// The same short name again, with its own table name.
    enum Renamed {
        final class Account: DBBTableObject {
            override class var databaseTableName: String { "AuthAccount" }
            var login = ""
            required init(dbManager: DBBManager) {
                super.init(dbManager: dbManager)
                dbManager.addPersistenceMapping(["login": DBBPropertyPersistence(\Account.login)], for: self)
            }
        }
    }
}

// MARK: - Versions of one table, for migrations

/// Version 1 of the table `Gadget`: `code` an Int, `serial` NOT NULL, `name`.
final class GadgetV1: DBBTableObject {
    override class var databaseTableName: String { "Gadget" }
    var code = 0
    var serial = ""
    var name = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["serial": ColumnAttribute.notNull]
        dbManager.addPersistenceMapping(
            [
                "code": DBBPropertyPersistence(\GadgetV1.code),
                "serial": DBBPropertyPersistence(\GadgetV1.serial),
                "name": DBBPropertyPersistence(\GadgetV1.name),
            ], for: self, indexer: DBBIndexer(columnsToIndex: ["name"]))
    }
}

/// Version 2: `code` became a String.
final class GadgetV2: DBBTableObject {
    override class var databaseTableName: String { "Gadget" }
    var code = ""
    var serial = ""
    var name = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "code": DBBPropertyPersistence(\GadgetV2.code),
                "serial": DBBPropertyPersistence(\GadgetV2.serial),
                "name": DBBPropertyPersistence(\GadgetV2.name),
            ], for: self)
    }
}

/// Version 3: `serial` (NOT NULL) removed.
final class GadgetV3: DBBTableObject {
    override class var databaseTableName: String { "Gadget" }
    var code = 0
    var name = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "code": DBBPropertyPersistence(\GadgetV3.code),
                "name": DBBPropertyPersistence(\GadgetV3.name),
            ], for: self, indexer: DBBIndexer(columnsToIndex: ["name"]))
    }
}

/// Version 4: a new NOT NULL UNIQUE `barcode`.
final class GadgetV4: DBBTableObject {
    override class var databaseTableName: String { "Gadget" }
    var code = 0
    var name = ""
    var barcode = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["barcode": "NOT NULL UNIQUE"]
        dbManager.addPersistenceMapping(
            [
                "code": DBBPropertyPersistence(\GadgetV4.code),
                "name": DBBPropertyPersistence(\GadgetV4.name),
                "barcode": DBBPropertyPersistence(\GadgetV4.barcode),
            ], for: self)
    }
}

// MARK: - Hooks

/// Saves an audit entry from its save hook, and refuses to save when `refuse` is set.
final class AuditedNote: DBBTableObject {
    var text = ""
    var refuse = false
    nonisolated(unsafe) var hookErrors: [Error] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["text": DBBPropertyPersistence(\AuditedNote.text)], for: self)
    }

    override func willSave() throws {
        if refuse { throw RefusedForTest() }
    }

    override func performPreSaveActions() {
        let entry = AuditEntry(dbManager: dbManager)
        entry.line = "saving \(text)"
        do {
            entry.earlier = try AuditEntry.all(manager: dbManager).count
            try entry.save()
        } catch {
            hookErrors.append(error)
        }
    }
}

final class AuditEntry: DBBTableObject {
    var line = ""
    var earlier = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "line": DBBPropertyPersistence(\AuditEntry.line),
                "earlier": DBBPropertyPersistence(\AuditEntry.earlier),
            ], for: self)
    }
}

struct RefusedForTest: Error {}

/// Columns whose names need quoting: a keyword and a double quote, beside a custom column name.
final class Shelf: DBBTableObject {
    var name = ""
    var rank = 0
    var label = ""
    var tags: [String] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Shelf.name, columnName: "itemName"),
                "rank": DBBPropertyPersistence(\Shelf.rank, columnName: "group"),
                "label": DBBPropertyPersistence(\Shelf.label, columnName: "it\"em"),
                "tags": DBBPropertyPersistence(\Shelf.tags, columnName: "labels"),
            ], for: self)
    }
}
