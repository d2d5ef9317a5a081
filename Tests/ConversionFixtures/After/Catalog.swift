import DBBBuilder
import Foundation

/// Who makes an item.
@DBBTable
final class Maker: DBBTableObject {
    enum Keys {
        static let name = "name"
        static let founded = "founded"
    }

    @NotNull @Unique var name = ""
    @Column("year") var founded: Int?
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
@DBBTable(tableName: "CatalogItem")
final class Item: DBBTableObject {
    struct Keys {
        static let title = "title"
        static let sku = "sku"
        static let grams = "grams"
    }

    // What the list shows.
    @Column("name") @NotNull @Indexed var title = ""
    @Unique var sku: String? // one row per stock-keeping unit
    @Column("weight") var grams: Int8 = 0 // grams, not ounces
    var stock: UInt64 = 0
    @NotNull var price = 0.0
    var rating: Float = 0
    var onSale = false
    var released: Date?
    var added = Date(timeIntervalSinceReferenceDate: 0)
    @Column("labels") var tags: [String] = []
    var photo: Data?
    var maker: Maker?
    var alsoBy: [Maker] = []
    var size: Size = .medium
    /// Shown in the list, never stored.
    @Transient var isSelected = false
    var label: String { "\(title) (\(sku ?? "-"))" }

    // MARK: - Mapping
    // "legacy": DBBPropertyPersistence(\Item.legacy),

    func describe() -> String { label }
}
