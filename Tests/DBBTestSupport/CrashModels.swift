import DBBBuilder

/// The classes of the crash helper (`dbb-crash-helper`), shared with the tests that read the
/// databases it writes from another process.
public final class CrashCompany: DBBTableObject {
    public var name = ""

    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\CrashCompany.name)], for: self)
    }
}

/// An item with an array and a reference: every kind of join row.
public final class CrashItem: DBBTableObject {
    public var name = ""
    public var value = 0
    public var tags: [String] = []
    public var company: CrashCompany?

    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\CrashItem.name),
                "value": DBBPropertyPersistence(\CrashItem.value),
                "tags": DBBPropertyPersistence(\CrashItem.tags),
                "company": DBBPropertyPersistence(\CrashItem.company),
            ], for: self)
    }
}

/// A key that at most one process may claim: a `UNIQUE` column several processes race for.
public final class CrashClaim: DBBTableObject {
    public var key = ""
    public var owner = ""

    public required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["key": [.notNull, .unique]]
        dbManager.addPersistenceMapping(
            [
                "key": DBBPropertyPersistence(\CrashClaim.key),
                "owner": DBBPropertyPersistence(\CrashClaim.owner),
            ], for: self)
    }
}
