import DBBBuilder

/// A table that a deploy changes, in its old and new versions: the old one maps a quantity and
/// a note, unconstrained; the new one (``DeployOrderV2``) adds a unique `code`, an array of tags
/// (a join table), an index on the quantity and `NOT NULL` on the note.
open class DeployOrderVersion: DBBTableObject {
    override open class var databaseTableName: String { "DeployOrder" }
    public var quantity = 0
    public var note = ""
    public var code: String?
    public var tags: [String] = []

    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        let upgraded = Self.self == DeployOrderV2.self
        var mapping: [String: DBBPropertyPersistence] = [
            "quantity": DBBPropertyPersistence(\DeployOrderVersion.quantity),
            "note": DBBPropertyPersistence(\DeployOrderVersion.note),
        ]
        if upgraded {
            mapping["code"] = DBBPropertyPersistence(\DeployOrderVersion.code)
            mapping["tags"] = DBBPropertyPersistence(\DeployOrderVersion.tags)
        }
        dbManager.addPersistenceMapping(
            mapping, for: self, indexer: upgraded ? DBBIndexer(columnsToIndex: ["quantity"]) : nil)
        if upgraded { attributesDictionary = ["note": .notNull, "code": .unique] }
    }
}

/// The old version.
public final class DeployOrderV1: DeployOrderVersion {}

/// The new version.
public final class DeployOrderV2: DeployOrderVersion {}
