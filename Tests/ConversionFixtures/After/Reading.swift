import DBBBuilder

/// The held-out benchmark's shape (GRDB's performance suite): ten integer columns, mapped the
/// DBBBuilder way by key paths — the form that reads and writes through the Swift runtime.
@DBBTable
final class Reading: DBBTableObject {
    var i0 = 0
    var i1 = 0
    var i2 = 0
    var i3 = 0
    var i4 = 0
    var i5 = 0
    var i6 = 0
    var i7 = 0
    var i8 = 0
    var i9 = 0
}
