#if Postgres
import DBBBuilder
import Foundation

/// A class with one property of every storage type, a unique column, and relations.
final class Member: DBBTableObject {
    var name = ""
    var email: String?
    var age = 0
    var score = 0.0
    var ratio: Float = 0
    var born: Date?
    var active = false
    var photo = Data()
    var tags: [String] = []
    var lucky: [Int] = []
    var spouse: Member?
    var friends: [Member] = []
    var team: Team?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["name": [.notNull], "email": [.unique]]
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Member.name),
                "email": DBBPropertyPersistence(\Member.email),
                "age": DBBPropertyPersistence(\Member.age),
                "score": DBBPropertyPersistence(\Member.score),
                "ratio": DBBPropertyPersistence(\Member.ratio),
                "born": DBBPropertyPersistence(\Member.born),
                "active": DBBPropertyPersistence(\Member.active),
                "photo": DBBPropertyPersistence(\Member.photo),
                "tags": DBBPropertyPersistence(\Member.tags),
                "lucky": DBBPropertyPersistence(\Member.lucky),
                "spouse": DBBPropertyPersistence(\Member.spouse),
                "friends": DBBPropertyPersistence(\Member.friends),
                "team": DBBPropertyPersistence(\Member.team),
            ], for: self, indexer: DBBIndexer(columnsToIndex: ["age"]))
    }
}

/// A class named by an SQL keyword, with a keyword column.
final class Team: DBBTableObject {
    var title = ""
    var order = 0

    override class var databaseTableName: String { "Group" }

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "title": DBBPropertyPersistence(\Team.title),
                "order": DBBPropertyPersistence(\Team.order),
            ], for: self)
    }
}

/// The first version of a class whose second version adds properties.
final class GadgetV1: DBBTableObject {
    var label = ""
    override class var databaseTableName: String { "Gadget" }
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["label": DBBPropertyPersistence(\GadgetV1.label)], for: self)
    }
}

final class GadgetV2: DBBTableObject {
    var label = ""
    var priority = 5
    var notes: [String] = []
    override class var databaseTableName: String { "Gadget" }
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["priority": [.notNull]]
        dbManager.addPersistenceMapping(
            [
                "label": DBBPropertyPersistence(\GadgetV2.label),
                "priority": DBBPropertyPersistence(\GadgetV2.priority),
                "notes": DBBPropertyPersistence(\GadgetV2.notes),
            ], for: self)
    }
}

/// An object whose pre-save hook runs `action` (not stored): a test's way into the middle
/// of a batch's transaction.
final class Tripwire: DBBTableObject {
    var label = ""
    var action: (() throws -> Void)?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["label": DBBPropertyPersistence(\Tripwire.label)], for: self)
    }

    override func willSave() throws {
        try action?()
    }
}
#endif
