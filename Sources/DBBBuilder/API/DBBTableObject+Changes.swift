/// Change tracking: an object remembers the values its row held when it was last loaded or
/// saved, and a save writes only what differs.
extension DBBTableObject {
    /// Whether saving the object would write it: it was never saved, or a mapped property
    /// (column, array or reference) differs from what was last loaded or saved.
    ///
    /// ```swift
    /// let person = try Person.instance(id: 1, manager: manager)!
    /// person.hasChanges          // false
    /// person.age += 1
    /// person.hasChanges          // true; person.changedPropertyNames == ["age"]
    /// ```
    public var hasChanges: Bool {
        guard !isNew, let mapping = trackedMapping else { return true }
        return !changedColumns(mapping).isEmpty || !changedJoins(mapping).isEmpty
    }

    /// The names of the mapped properties that differ from what was last loaded or saved,
    /// sorted; every mapped property for an object never saved.
    public var changedPropertyNames: [String] {
        guard let mapping = trackedMapping else { return [] }
        let columns = isNew ? Array(mapping.columns.indices) : changedColumns(mapping)
        let joins = isNew ? Array(mapping.joins.indices) : changedJoins(mapping)
        return (columns.map { mapping.columns[$0].name } + joins.map { mapping.joins[$0].name }).sorted()
    }

    /// The mapping of the object's class in its manager, `nil` when the class cannot be mapped.
    private var trackedMapping: TableMapping? {
        try? dbManager.registry.mapping(for: type(of: self), manager: dbManager)
    }
}
