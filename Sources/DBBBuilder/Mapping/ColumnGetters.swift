import DBBFormat
import DBBSQLite
import Foundation

/// The value getters of a mapping's columns. `@unchecked Sendable` as ``ColumnAccess``.
struct ColumnGetters: @unchecked Sendable {
    let list: [ColumnGetter]
    /// Whether the values come from the class's ``DBBTableObject/writeColumns(_:)``.
    let generated: Bool
    /// Every column's ``StoredSlot`` when every column has one (the usual class): a save reads
    /// its row by a switch per column, with no closure context retained and released per
    /// value. Allocated once; the mapping frees it (``free()``).
    private let slots: UnsafeMutableBufferPointer<StoredSlot>?

    /// The getters of `columns`; through ``DBBTableObject/writeColumns(_:)`` when `generated`
    /// (an object of the class) gives each column's value, in order.
    init(_ columns: [ColumnProperty], generated prototype: DBBTableObject?) {
        list = columns.map { ColumnGetter($0.access) }
        generated = prototype.map { Self.writesEachColumn($0, columns.count) } ?? false
        if generated {
            slots = nil
            return
        }
        let all = list.compactMap(\.slot)
        if !all.isEmpty && all.count == list.count {
            let slots = UnsafeMutableBufferPointer<StoredSlot>.allocate(capacity: all.count)
            _ = slots.initialize(from: all)
            self.slots = slots
        } else {
            slots = nil
        }
    }

    func free() { slots?.deallocate() }

    /// Appends the value of each of `object`'s columns, as stored, to `values`.
    @inline(__always)
    func append(_ object: DBBTableObject, to values: SavedValues) {
        if generated {
            values.appendColumns(of: object, width: list.count)
        } else {
            forEachValue(of: object) { _, value in values.append(value) }
        }
    }

    /// Whether `prototype`'s ``DBBTableObject/writeColumns(_:)`` gives `width` values.
    private static func writesEachColumn(_ prototype: DBBTableObject, _ width: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: DBBValue.self, capacity: width + 1) { buffer in
            var row = DBBRowEncoder(into: buffer.baseAddress!, width: width + 1)
            prototype.writeColumns(&row)
            buffer.baseAddress!.deinitialize(count: row.count)
            return row.count == width
        }
    }

    /// Calls `body` with each column's index and the value of `object`'s property, as stored.
    @inline(__always)
    func forEachValue(of object: DBBTableObject, _ body: (Int, DBBValue) throws -> Void) rethrows {
        if generated {
            let width = list.count
            try withUnsafeTemporaryAllocation(of: DBBValue.self, capacity: width) { buffer in
                let values = buffer.baseAddress!
                var row = DBBRowEncoder(into: values, width: width)
                object.writeColumns(&row)
                let count = row.count
                defer { values.deinitialize(count: count) }
                precondition(count == width, "\(type(of: object)).writeColumns(_:) wrote \(count) of \(width) columns")
                for index in 0..<width { try body(index, values[index]) }
            }
        } else if let slots {
            try withExtendedLifetime(object) {
                for index in slots.indices { try body(index, slots[index].value(of: object)) }
            }
        } else {
            try list.withUnsafeBufferPointer { list in
                for index in list.indices { try body(index, list[index](object)) }
            }
        }
    }
}

/// Gets one column's value from an object: through its ``StoredSlot`` when it has one (a
/// switch on the type), otherwise through the property's closure.
struct ColumnGetter {
    let slot: StoredSlot?
    let closure: ColumnAccess.Getter

    init(_ access: ColumnAccess) {
        (slot, closure) = (access.slot, access.value)
    }

    @inline(__always)
    func callAsFunction(_ object: DBBTableObject) -> DBBValue {
        if let slot { return withExtendedLifetime(object) { slot.value(of: object) } }
        return closure(object)
    }
}
