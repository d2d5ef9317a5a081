import DBBBuilder
import Foundation

/// Who makes an item.
final class Maker: DBBTableObject {
    enum Keys {
        static let name = "name"
        static let founded = "founded"
    }

    var name = ""
    var founded: Int?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = [Keys.name: "NOT NULL UNIQUE"]
        dbManager.addPersistenceMapping(
            [
                Keys.name: DBBPropertyPersistence(\Maker.name),
                Keys.founded: DBBPropertyPersistence(\Maker.founded, columnName: "year"),
            ], for: self)
    }
}

/// A size, stored as its raw value.
enum Size: Int, DBBColumnValue {
    case small, medium, large

    static var storageType: DBBStorageType { .int }
    static func read(from row: DBBColumnReader, at index: Int) throws -> Size? {
        try Int.read(from: row, at: index).flatMap(Size.init(rawValue:))
    }
    var columnValue: DBBValue { .integer(Int64(rawValue)) }
}

/// An item of the catalog, in the table "CatalogItem": every kind of property a mapping by
/// hand stores, custom column names, attributes in their typed and text forms, an index.
final class Item: DBBTableObject {
    struct Keys {
        static let title = "title"
        static let sku = "sku"
        static let grams = "grams"
    }

    var title = ""
    var sku: String?
    var grams: Int8 = 0
    var stock: UInt64 = 0
    var price = 0.0
    var rating: Float = 0
    var onSale = false
    var released: Date?
    var added = Date(timeIntervalSinceReferenceDate: 0)
    var tags: [String] = []
    var photo: Data?
    var maker: Maker?
    var alsoBy: [Maker] = []
    var size: Size = .medium
    /// Shown in the list, never stored.
    var isSelected = false
    var label: String { "\(title) (\(sku ?? "-"))" }

    override class var databaseTableName: String { "CatalogItem" }

    // MARK: - Mapping

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = [
            Keys.title: ColumnAttribute.notNull,
            Keys.sku: "UNIQUE",  // one row per stock-keeping unit
            "price": [.notNull],
        ]
        dbManager.addPersistenceMapping(
            [
                // What the list shows.
                Keys.title: DBBPropertyPersistence(\Item.title, columnName: "name"),
                Keys.sku: DBBPropertyPersistence(\Item.sku),
                Keys.grams: DBBPropertyPersistence(\Item.grams, columnName: "weight"),  // grams, not ounces
                "stock": DBBPropertyPersistence(\Item.stock),
                "price": DBBPropertyPersistence(\Item.price),
                "rating": DBBPropertyPersistence(\Item.rating),
                "onSale": DBBPropertyPersistence(\Item.onSale),
                "released": DBBPropertyPersistence(\Item.released),
                "added": DBBPropertyPersistence(\Item.added),
                "tags": DBBPropertyPersistence(\Item.tags, columnName: "labels"),
                "photo": DBBPropertyPersistence(\Item.photo),
                // "legacy": DBBPropertyPersistence(\Item.legacy),
                "maker": DBBPropertyPersistence(\Item.maker),
                "alsoBy": DBBPropertyPersistence(\Item.alsoBy),
                "size": DBBPropertyPersistence(\Item.size),
            ], for: self, indexer: DBBIndexer(columnsToIndex: [Keys.title]))
    }

    func describe() -> String { label }
}
