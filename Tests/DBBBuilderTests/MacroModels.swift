import DBBBuilder
import Foundation

/// A table object written with `@DBBTable`: every kind of property the macro maps, its markers,
/// and properties it leaves out.
@DBBTable(indexes: [DBBIndexer(columnsToIndex: ["family", "given"])])
final class Gadget: DBBTableObject {
    @Column("itemName") @NotNull var name = ""
    @Unique var serial: String?
    @Indexed var family = ""
    var given = ""
    var count = 0
    var small: Int8 = 0
    var large: UInt64 = 0
    var price = 0.0
    var weight: Float = 0
    var isActive = false
    var released: Date?
    var seen = Date(timeIntervalSinceReferenceDate: 0)
    var tags: [String] = []
    var photo: Data?
    var maker: Maker?
    var size: Size = .medium
    /// Set on each assignment: the generated code assigns as plain Swift does.
    var rank = 0 {
        didSet { rankAssignments += 1 }
    }
    @Transient var rankAssignments = 0
    @Transient var note = "not stored"
    var label: String { "\(name) #\(serial ?? "-")" }
    static let unitName = "gadget"
}

/// Referred to by ``Gadget/maker``; properties without initial values start at zero.
@DBBTable
final class Maker: DBBTableObject {
    var name: String
    var founded: Int
    var country: String?
}

/// A custom column value: the macro cannot tell its storage from the spelling, the compiler does.
enum Size: Int, DBBColumnValue {
    case small, medium, large

    static var storageType: DBBStorageType { .int }
    static func read(from row: DBBColumnReader, at index: Int) throws -> Size? {
        guard let raw = try Int.read(from: row, at: index) else { return nil }
        guard let size = Size(rawValue: raw) else { throw NotASize(value: raw) }
        return size
    }
    var columnValue: DBBValue { .integer(Int64(rawValue)) }

    struct NotASize: Error { let value: Int }
}

/// The same table as ``Gadget``, mapped by hand the DBBBuilder way: what one writes, the other reads.
enum HandWritten {
    final class Gadget: DBBTableObject {
        var name = ""
        var serial: String?
        var family = ""
        var given = ""
        var count = 0
        var small: Int8 = 0
        var large: UInt64 = 0
        var price = 0.0
        var weight: Float = 0
        var isActive = false
        var released: Date?
        var seen = Date(timeIntervalSinceReferenceDate: 0)
        var tags: [String] = []
        var photo: Data?
        var size: Size = .medium
        var rank = 0

        override class var databaseTableName: String { "Gadget" }

        required init(dbManager: DBBManager) {
            super.init(dbManager: dbManager)
            dbManager.addPersistenceMapping(
                [
                    "name": DBBPropertyPersistence(\Gadget.name, columnName: "itemName"),
                    "serial": DBBPropertyPersistence(\Gadget.serial),
                    "family": DBBPropertyPersistence(\Gadget.family),
                    "given": DBBPropertyPersistence(\Gadget.given),
                    "count": DBBPropertyPersistence(\Gadget.count),
                    "small": DBBPropertyPersistence(\Gadget.small),
                    "large": DBBPropertyPersistence(\Gadget.large),
                    "price": DBBPropertyPersistence(\Gadget.price),
                    "weight": DBBPropertyPersistence(\Gadget.weight),
                    "isActive": DBBPropertyPersistence(\Gadget.isActive),
                    "released": DBBPropertyPersistence(\Gadget.released),
                    "seen": DBBPropertyPersistence(\Gadget.seen),
                    "tags": DBBPropertyPersistence(\Gadget.tags),
                    "photo": DBBPropertyPersistence(\Gadget.photo),
                    "size": DBBPropertyPersistence(\Gadget.size),
                    "rank": DBBPropertyPersistence(\Gadget.rank),
                ], for: self)
        }
    }
}

/// Properties named with keywords, written in backticks: the table says `default`, `class`.
@DBBTable(tableName: "Rule")
final class Rule: DBBTableObject {
    var `default` = ""
    var `class` = 0
}

/// The same table mapped by hand, as a port from DBBBuilder has it.
final class OldRule: DBBTableObject {
    var `default` = ""
    var `class` = 0

    override class var databaseTableName: String { "Rule" }

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            ["default": DBBPropertyPersistence(\OldRule.default), "class": DBBPropertyPersistence(\OldRule.class)],
            for: self)
    }
}
