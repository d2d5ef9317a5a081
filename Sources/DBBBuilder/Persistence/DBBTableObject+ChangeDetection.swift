import DBBSQLite
import Foundation

extension DBBTableObject {
    /// Appends to `changed` the indices, of `count` columns, whose current value (`current[i]`)
    /// differs from the snapshot, or that are among `assigned` (bit `i`: column `i`, left out by
    /// a partial fetch and set since): all of them when there is no snapshot (an object never
    /// loaded or saved). The values are compared where they lie, not copied.
    @inline(__always)
    func appendDifferingColumns(
        _ count: Int, current: UnsafePointer<DBBValue>, assigned: UInt64, to changed: inout [Int]
    ) {
        guard let stored = snapshot?.row else { return changed.append(contentsOf: 0..<count) }
        withExtendedLifetime(self) {
            if assigned == 0 {
                for index in 0..<count where !DBBValue.areSameStored(current + index, stored + index) {
                    changed.append(index)
                }
            } else {
                for index in 0..<count
                where (index < 64 && assigned & (1 &<< UInt64(index)) != 0)
                    || !DBBValue.areSameStored(current + index, stored + index)
                {
                    changed.append(index)
                }
            }
        }
    }
}

extension DBBTableObject {
    /// The indices of the mapping's columns whose value differs from the snapshot: all of them
    /// for an object never loaded or saved.
    func changedColumns(_ mapping: TableMapping) -> [Int] {
        var current = ContiguousArray<DBBValue>()
        current.reserveCapacity(mapping.columns.count)
        mapping.values.forEachValue(of: self) { _, value in current.append(value) }
        var changed: [Int] = []
        current.withUnsafeBufferPointer { current in
            if let base = current.baseAddress {
                appendDifferingColumns(
                    current.count, current: base, assigned: assignedUnloadedColumns(mapping), to: &changed)
            }
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
    func joinDiffers(_ index: Int, _ current: [DBBValue], _ mapping: TableMapping) -> Bool {
        guard let snapshot, snapshot.joins.count == mapping.joins.count, !isAssignedUnloadedJoin(index, mapping)
        else { return true }
        return !DBBValue.areSameStored(current, snapshot.joins[index])
    }

    /// Whether saving the object would write anything.
    func needsWrite(_ mapping: TableMapping) -> Bool {
        isNew || forcedDirty || !changedColumns(mapping).isEmpty || !changedJoins(mapping).isEmpty
    }
}
