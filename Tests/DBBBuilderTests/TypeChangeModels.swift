import DBBBuilder
import Foundation

// Versions of one table, `Reading`, whose `value` and `samples` change type from one version
// to the next: each is registered by a manager of its own, as a new release would be.

/// `Reading` with 8-bit integers.
@DBBTable(tableName: "Reading", indexes: [DBBIndexer(columnsToIndex: ["value"])])
final class ReadingInt8: DBBTableObject {
    var value: Int8 = 0
    var samples: [Int8] = []
    var note = ""
}

/// `Reading` with `Int`s.
@DBBTable(tableName: "Reading", indexes: [DBBIndexer(columnsToIndex: ["value"])])
final class ReadingInt: DBBTableObject {
    var value = 0
    var samples: [Int] = []
    var note = ""
}

/// `Reading` with `Double`s.
@DBBTable(tableName: "Reading", indexes: [DBBIndexer(columnsToIndex: ["value"])])
final class ReadingDouble: DBBTableObject {
    var value = 0.0
    var samples: [Double] = []
    var note = ""
}

/// `Reading` with `Float`s.
@DBBTable(tableName: "Reading", indexes: [DBBIndexer(columnsToIndex: ["value"])])
final class ReadingFloat: DBBTableObject {
    var value: Float = 0
    var samples: [Float] = []
    var note = ""
}

/// A class with one property of each kind the catalog tells apart: a narrow integer, an
/// optional date, an array, a reference.
@DBBTable
final class Crate: DBBTableObject {
    var count: Int8 = 0
    var packed: Date?
    var labels: [String] = []
    var sibling: Crate?
}

/// `Crate` without `labels`: the property removed, its join table and rows kept.
@DBBTable(tableName: "Crate")
final class CrateWithoutLabels: DBBTableObject {
    var count: Int8 = 0
    var packed: Date?
    var sibling: CrateWithoutLabels?
}

/// `Crate` with `count` renamed `quantity`, kept in its column.
@DBBTable(tableName: "Crate")
final class CrateRenamed: DBBTableObject {
    @Column("count") var quantity: Int8 = 0
    var packed: Date?
    var labels: [String] = []
    var sibling: CrateRenamed?
}
