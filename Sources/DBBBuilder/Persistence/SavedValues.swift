import DBBSQLite

/// The column values a save session writes, every object's after the other's, appended in
/// place and handed over whole as the objects' new snapshots (``SnapshotStorage``) when the
/// transaction commits: nothing is copied and nothing is reference-counted on the way.
///
/// Used by one session, on one thread: its fields skip the run-time exclusivity check.
final class SavedValues {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<DBBValue>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Makes room for `additional` more values without growing on the way.
    func reserve(_ additional: Int) {
        if count + additional > capacity { grow(to: count + additional) }
    }

    @inline(__always)
    func append(_ value: DBBValue) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: value)
        count += 1
    }

    /// Appends the values of `object`'s columns by its class's ``DBBTableObject/writeColumns(_:)``,
    /// written in place (`width` of them).
    @inline(__always)
    func appendColumns(of object: DBBTableObject, width: Int) {
        reserve(width)
        var row = DBBRowEncoder(into: base + count, width: width)
        object.writeColumns(&row)
        let written = row.count
        guard written == width else {
            (base + count).deinitialize(count: written)
            preconditionFailure("\(type(of: object)).writeColumns(_:) wrote \(written) of \(width) columns")
        }
        count += width
    }

    /// Drops the values from `start` on (an object that needs no write, a nested save undone).
    func removeAll(from start: Int) {
        (base + start).deinitialize(count: count - start)
        count = start
    }

    private func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<DBBValue>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        (base, capacity) = (grown, newCapacity)
    }

    /// Hands the values over to a snapshot storage; this buffer is left empty, ready for more.
    func takeStorage() -> SnapshotStorage {
        let storage = SnapshotStorage(adopting: base, capacity: capacity, count: count)
        base = .allocate(capacity: 1)
        (capacity, count) = (1, 0)
        return storage
    }
}
