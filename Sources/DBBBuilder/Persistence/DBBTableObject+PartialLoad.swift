/// The properties a partial fetch left out (``DBBQueryOptions/propertyNames``,
/// ``DBBQueryOptions/joinPropertiesToPopulate``): they hold a new object's values, so their
/// values cannot tell whether the application set them. One is a change when it differs from
/// what the object was made with, or when `@DBBTable`'s setter marked it set — to its default
/// value too. A save that writes one makes it loaded.
extension DBBTableObject {
    /// The unloaded column properties the application set (bit `i`: the mapping's column `i`).
    @inline(__always)
    func assignedUnloadedColumns(_ mapping: TableMapping) -> UInt64 {
        var unloaded = unloadedColumns
        guard unloaded != 0, assignedMarks != 0 else { return 0 }
        var assigned: UInt64 = 0
        while unloaded != 0 {
            let index = unloaded.trailingZeroBitCount
            if assignedMarks & mapping.columnMarks[index] != 0 { assigned |= 1 &<< UInt64(index) }
            unloaded &= unloaded &- 1
        }
        return assigned
    }

    /// Whether join property `index` was left out by a partial fetch and set since.
    @inline(__always)
    func isAssignedUnloadedJoin(_ index: Int, _ mapping: TableMapping) -> Bool {
        index < 64 && unloadedJoins & (1 &<< UInt64(index)) != 0 && assignedMarks & mapping.joinMarks[index] != 0
    }

    /// Records, once a save committed `row` and `joins` (the object's snapshot to be), that the
    /// unloaded properties it wrote — set, or differing from the old snapshot — are loaded now,
    /// and forgets what was set. Call before the new snapshot replaces the old.
    @inline(__always)
    func noteSaved(_ mapping: TableMapping, row: UnsafePointer<DBBValue>, joins: [[DBBValue]]) {
        if unloadedColumns | unloadedJoins != 0 {
            noteSavedUnloaded(mapping, row: row, joins: joins)
        } else if assignedMarks != 0 {
            assignedMarks = 0
        }
    }

    private func noteSavedUnloaded(_ mapping: TableMapping, row: UnsafePointer<DBBValue>, joins: [[DBBValue]]) {
        if let old = snapshot {
            var written = assignedUnloadedColumns(mapping)
            var unloaded = unloadedColumns & ~written
            while unloaded != 0 {
                let index = unloaded.trailingZeroBitCount
                if !DBBValue.areSameStored(row + index, old.row + index) { written |= 1 &<< UInt64(index) }
                unloaded &= unloaded &- 1
            }
            unloadedColumns &= ~written
            for index in mapping.joins.indices where index < 64 && unloadedJoins & (1 &<< UInt64(index)) != 0 {
                let set = isAssignedUnloadedJoin(index, mapping)
                if set
                    || (index < joins.count && index < old.joins.count
                        && !DBBValue.areSameStored(joins[index], old.joins[index]))
                {
                    unloadedJoins &= ~(1 &<< UInt64(index))
                }
            }
        }
        if assignedMarks != 0 { assignedMarks = 0 }
    }

    /// Whether a partial fetch left some of the object's mapped properties out: those hold the
    /// values a new object has, and a save writes one only when it was set (``unloadedPropertyNames``).
    public var isPartiallyLoaded: Bool { unloadedColumns != 0 || unloadedJoins != 0 }

    /// The mapped properties a partial fetch left out (``DBBQueryOptions/propertyNames``,
    /// ``DBBQueryOptions/joinPropertiesToPopulate``), sorted; empty for an object loaded whole,
    /// and for a new one.
    ///
    /// Such a property holds the value a new object has. Setting it is a change, which the
    /// next save writes — to its default value too, in a `@DBBTable` class, whose setters note
    /// every assignment; in a class mapped by hand, whose assignments cannot be seen, only a
    /// value other than the default is a change. A property the save writes is loaded from
    /// then on.
    ///
    /// ```swift
    /// let book = try Book.instances(matching: .options(properties: ["title"]), manager: manager)[0]
    /// book.unloadedPropertyNames      // ["isbn", "price", "tags"]
    /// book.price = 0                  // a change, although 0 is the default
    /// try book.save()                 // writes title (unchanged, so not) and price
    /// ```
    public var unloadedPropertyNames: [String] {
        guard isPartiallyLoaded,
            let mapping = try? dbManager.registry.mapping(for: type(of: self), manager: dbManager)
        else { return [] }
        let columns = mapping.columns.indices.filter { $0 < 64 && unloadedColumns & (1 &<< UInt64($0)) != 0 }
        let joins = mapping.joins.indices.filter { $0 < 64 && unloadedJoins & (1 &<< UInt64($0)) != 0 }
        return (columns.map { mapping.columns[$0].name } + joins.map { mapping.joins[$0].name }).sorted()
    }
}
