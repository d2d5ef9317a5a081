import DBBBuilder

/// The held-out benchmark's shape (GRDB's performance suite): ten integer columns, mapped the
/// DBBBuilder way by key paths — the form that reads and writes through the Swift runtime.
final class Reading: DBBTableObject {
    var i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0, i8 = 0, i9 = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "i0": DBBPropertyPersistence(\Reading.i0), "i1": DBBPropertyPersistence(\Reading.i1),
                "i2": DBBPropertyPersistence(\Reading.i2), "i3": DBBPropertyPersistence(\Reading.i3),
                "i4": DBBPropertyPersistence(\Reading.i4), "i5": DBBPropertyPersistence(\Reading.i5),
                "i6": DBBPropertyPersistence(\Reading.i6), "i7": DBBPropertyPersistence(\Reading.i7),
                "i8": DBBPropertyPersistence(\Reading.i8), "i9": DBBPropertyPersistence(\Reading.i9),
            ], for: self)
    }
}
