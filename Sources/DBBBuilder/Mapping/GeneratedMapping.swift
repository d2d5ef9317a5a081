/// The mapping `@DBBTable` generates for a class: what `addPersistenceMapping` and
/// `attributesDictionary` give for a class written by hand.
public struct DBBGeneratedMapping: Sendable {
    /// Each mapped property by name.
    public let properties: [String: DBBPropertyPersistence]
    /// The mapped properties' names in the order ``DBBTableObject/readColumns(_:)`` and
    /// ``DBBTableObject/writeColumns(_:)`` take their columns (join properties take none).
    public let order: [String]
    /// `NOT NULL` and `UNIQUE` by property name; ``DBBTableObject/attributesDictionary`` adds to them.
    public let attributes: [String: ColumnAttributes]
    /// The indexes over the properties' columns.
    public let indexers: [DBBIndexer]

    /// A mapping; `@DBBTable` writes this call.
    public init(
        properties: [String: DBBPropertyPersistence], order: [String], attributes: [String: ColumnAttributes],
        indexers: [DBBIndexer]
    ) {
        self.properties = properties
        self.order = order
        self.attributes = attributes
        self.indexers = indexers
    }
}

/// A mapped property of `Root` holding `Value`, by its key path: what typed conditions and
/// sorting name. `@DBBTable` generates one per property in the class's `Columns`.
public struct DBBColumnKey<Root: DBBTableObject, Value>: @unchecked Sendable {
    // @unchecked Sendable: a key path of a stored property is an immutable value (Swift does
    // not mark key path classes Sendable).

    /// The property's key path.
    public let keyPath: ReferenceWritableKeyPath<Root, Value>

    /// The key of the property `keyPath` reaches.
    public init(_ keyPath: ReferenceWritableKeyPath<Root, Value>) { self.keyPath = keyPath }
}
