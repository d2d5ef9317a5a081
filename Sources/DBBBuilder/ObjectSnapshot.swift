import DBBSQLite
import Foundation

/// The column values of many objects, as they were read or written together by one fetch or
/// one save: one allocation for a chunk of rows instead of one per object, filled in place
/// (no array growth, no copies) and immutable once sealed.
final class SnapshotStorage: @unchecked Sendable {
    // @unchecked Sendable: the values are written by the fetch or save that made the storage,
    // before any object refers to them, and only read afterwards.
    let values: UnsafeMutablePointer<SQLiteValue>
    let capacity: Int
    /// How many values are initialized; set once by ``seal(count:)``.
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        values = .allocate(capacity: self.capacity)
    }

    /// A storage that takes over `count` initialized values at `values`, allocated for `capacity`.
    init(adopting values: UnsafeMutablePointer<SQLiteValue>, capacity: Int, count: Int) {
        (self.values, self.capacity, self.count) = (values, capacity, count)
    }

    /// Records that the first `count` values are initialized (they are deinitialized with the storage).
    func seal(count: Int) { self.count = count }

    deinit {
        // Only text and bytes hold references: the numbers and NULLs, most values, need no
        // destroying (a generic destroy per value is most of what freeing a snapshot costs).
        for index in 0..<count {
            switch values[index] {
            case .text, .blob: (values + index).deinitialize(count: 1)
            case .integer, .real, .null: continue
            }
        }
        values.deallocate()
    }
}

/// What an object's row and join rows held when it was last loaded or saved: what change
/// tracking compares its properties with.
///
/// Column `i` of the snapshot is `row[i]`, in the order of the mapping's
/// columns; `joins[j]` holds the values of the join rows of the mapping's join `j`.
struct ObjectSnapshot {
    /// Keeps ``row`` alive.
    let storage: SnapshotStorage
    /// The object's column values: `storage.values + start`. Read through this trivial field,
    /// a comparison needs no copy of the snapshot (no retain and release of the storage).
    let row: UnsafePointer<SQLiteValue>
    var joins: [[SQLiteValue]]

    init(storage: SnapshotStorage, start: Int, joins: [[SQLiteValue]]) {
        (self.storage, row, self.joins) = (storage, UnsafePointer(storage.values + start), joins)
    }
}

extension DBBTableObject {
    /// Appends to `changed` the indices, of `count` columns, whose current value (`current[i]`)
    /// differs from the snapshot: all of them when there is no snapshot (an object never
    /// loaded or saved). The values are compared where they lie, not copied.
    @inline(__always)
    func appendDifferingColumns(_ count: Int, current: UnsafePointer<SQLiteValue>, to changed: inout [Int]) {
        guard let stored = snapshot?.row else { return changed.append(contentsOf: 0..<count) }
        withExtendedLifetime(self) {
            for index in 0..<count where !SQLiteValue.areSameStored(current + index, stored + index) {
                changed.append(index)
            }
        }
    }
}

extension SQLiteValue {
    /// ``isSameStored(as:)`` of two values in place: numbers and NULLs are compared without
    /// copying either value (a copy of this enum goes through a function that switches on it).
    @inline(__always)
    static func areSameStored(_ a: UnsafePointer<SQLiteValue>, _ b: UnsafePointer<SQLiteValue>) -> Bool {
        switch a.pointee {
        case .integer(let x):
            if case .integer(let y) = b.pointee { return x == y }
            return false
        case .real(let x):
            if case .real(let y) = b.pointee { return x.bitPattern == y.bitPattern }
            return false
        case .null:
            if case .null = b.pointee { return true }
            return false
        case .text, .blob:
            return a.pointee.isSameStored(as: b.pointee)
        }
    }

    /// Whether two values are the same stored value: reals compared bit for bit (a NaN another
    /// program stored is unchanged when the property still holds it; with `==` it never
    /// equals itself, and every save would try to write it back), text byte for byte (Swift's
    /// `==` takes canonically equivalent text as equal — `"é"` and `"e\u{301}"` — which the
    /// database stores as other bytes: a change from one to the other must be written).
    @inline(__always) @usableFromInline
    func isSameStored(as other: SQLiteValue) -> Bool {
        switch (self, other) {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): Self.sameBytes(a, b)
        default: self == other
        }
    }

    /// Whether two lists of values (a join property's rows) are the same stored values, in order.
    static func areSameStored(_ a: [SQLiteValue], _ b: [SQLiteValue]) -> Bool {
        a.elementsEqual(b) { $0.isSameStored(as: $1) }
    }

    /// Whether two strings have the same UTF-8 bytes.
    @usableFromInline
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second in
                first.count == second.count
                    && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }
}

// MARK: - Changes

extension DBBTableObject {
    /// The indices of the mapping's columns whose value differs from the snapshot: all of them
    /// for an object never loaded or saved.
    func changedColumns(_ mapping: TableMapping) -> [Int] {
        var current = ContiguousArray<SQLiteValue>()
        current.reserveCapacity(mapping.columns.count)
        mapping.values.forEachValue(of: self) { _, value in current.append(value) }
        var changed: [Int] = []
        current.withUnsafeBufferPointer { current in
            if let base = current.baseAddress { appendDifferingColumns(current.count, current: base, to: &changed) }
        }
        return changed
    }

    /// The indices of the mapping's join properties whose values differ from the snapshot
    /// (a reference to an unsaved object always differs: its id is 0).
    func changedJoins(_ mapping: TableMapping) -> [Int] {
        mapping.joins.indices.filter { joinDiffers($0, mapping.joins[$0].access.values(self), mapping) }
    }

    /// Whether the values of join property `index`, `current`, differ from the snapshot's
    /// (they do when there is no snapshot of the mapping's joins).
    func joinDiffers(_ index: Int, _ current: [SQLiteValue], _ mapping: TableMapping) -> Bool {
        guard let snapshot, snapshot.joins.count == mapping.joins.count else { return true }
        return !SQLiteValue.areSameStored(current, snapshot.joins[index])
    }

    /// Whether saving the object would write anything.
    func needsWrite(_ mapping: TableMapping) -> Bool {
        isNew || forcedDirty || !changedColumns(mapping).isEmpty || !changedJoins(mapping).isEmpty
    }
}
