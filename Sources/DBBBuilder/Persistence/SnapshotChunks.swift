import DBBSQLite
import Foundation

/// Hands out the places of the snapshot values of a fetch's objects, one line of `width` values
/// per object, in chunks of storage (a new chunk when one is full).
struct SnapshotChunks {
    let width: Int
    let capacity: Int
    var storage: SnapshotStorage
    var filled = 0

    init(width: Int, rows: Int) {
        self.width = width
        capacity = max(rows * width, 1)
        storage = SnapshotStorage(capacity: capacity)
    }

    /// Where the next object's values go; the caller initializes all `width` of them.
    @inline(__always)
    mutating func nextLine() -> UnsafeMutablePointer<DBBValue> {
        if filled + width > storage.capacity {
            storage.seal(count: filled)
            storage = SnapshotStorage(capacity: capacity)
            filled = 0
        }
        return storage.values + filled
    }

    /// The snapshot of the line just initialized.
    @inline(__always)
    mutating func lineFilled() -> ObjectSnapshot {
        defer { filled += width }
        return ObjectSnapshot(storage: storage, start: filled, joins: [])
    }

    /// Records how much of the current chunk is initialized.
    func seal() { storage.seal(count: filled) }
}
