import DBBSQLite
import Foundation

/// The column values of many objects, as they were read or written together by one fetch or
/// one save: one allocation for a chunk of rows instead of one per object, filled in place
/// (no array growth, no copies) and immutable once sealed.
final class SnapshotStorage: @unchecked Sendable {
    // @unchecked Sendable: the values are written by the fetch or save that made the storage,
    // before any object refers to them, and only read afterwards.
    let values: UnsafeMutablePointer<DBBValue>
    let capacity: Int
    /// How many values are initialized; set once by ``seal(count:)``.
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        values = .allocate(capacity: self.capacity)
    }

    /// A storage that takes over `count` initialized values at `values`, allocated for `capacity`.
    init(adopting values: UnsafeMutablePointer<DBBValue>, capacity: Int, count: Int) {
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
