import DBBBuilder

/// Versions of one class on the table `Contact`, which add and remove constraints on
/// existing properties: registered by the tests and by `dbb-crash-helper register` in another
/// process (``contactVersions``). Each version is a subclass that declares only its attributes.
///
/// `code` has a unique indexer (except in ``ContactUnindexed``), which is not an attribute.
open class ContactVersion: DBBTableObject {
    override public class var databaseTableName: String { "Contact" }
    /// Whether the version declares the unique indexer on `code`.
    public class var indexesCode: Bool { true }
    public var email = ""
    public var note: String? = nil
    public var code = 0

    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "email": DBBPropertyPersistence(\ContactVersion.email),
                "note": DBBPropertyPersistence(\ContactVersion.note),
                "code": DBBPropertyPersistence(\ContactVersion.code),
            ], for: self,
            indexer: Self.indexesCode ? DBBIndexer(columnsToIndex: ["code"], unique: true) : nil)
    }
}

/// Version 1: no constraints.
public final class ContactV1: ContactVersion {}

/// `email` becomes `UNIQUE`.
public final class ContactUniqueEmail: ContactVersion {
    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["email": .unique]
    }
}

/// `note` becomes `NOT NULL`.
public final class ContactRequiredNote: ContactVersion {
    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["note": .notNull]
    }
}

/// Both, and `email` `NOT NULL` too.
public final class ContactStrict: ContactVersion {
    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["email": [.notNull, .unique], "note": .notNull]
    }
}

/// Version 1 without the indexer on `code` (whose unique index stays: it is not an attribute's).
public final class ContactUnindexed: ContactVersion {
    override public class var indexesCode: Bool { false }
}

/// The versions by name, for `dbb-crash-helper register DATABASE NAME`.
public let contactVersions: [String: ContactVersion.Type] = [
    "ContactV1": ContactV1.self, "ContactUniqueEmail": ContactUniqueEmail.self,
    "ContactRequiredNote": ContactRequiredNote.self, "ContactStrict": ContactStrict.self,
    "ContactUnindexed": ContactUnindexed.self,
]
