import DBBBuilder

/// A mapping spread across a superclass chain, one table "Pet": left as it is.
class Animal: DBBTableObject {
    var species = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["species": DBBPropertyPersistence(\Animal.species)], for: self)
    }
}

final class Pet: Animal {
    var name = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            ["name": DBBPropertyPersistence(\Pet.name)], for: self, indexer: DBBIndexer(columnsToIndex: ["name"]))
    }
}
