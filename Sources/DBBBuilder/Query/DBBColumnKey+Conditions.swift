// Conditions on the column keys `@DBBTable` generates (`Gadget.Columns.price > 10`): a class's
// `Columns` holds its mapped properties only, so a condition on any other does not compile.
// Each forwards to the key-path form.

/// `property == value`, by column key.
public func == <Root: DBBTableObject, Value: DBBColumnValue>(lhs: DBBColumnKey<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    lhs.keyPath == rhs
}

/// `property == value`, by the column key of an optional property.
public func == <Root: DBBTableObject, Value: DBBColumnValue>(lhs: DBBColumnKey<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    lhs.keyPath == rhs
}

/// `property IS NULL`, by the column key of an optional property.
public func == <Root: DBBTableObject, Value>(lhs: DBBColumnKey<Root, Value?>, rhs: _OptionalNilComparisonType)
    -> DBBCondition<Root>
{
    lhs.keyPath == rhs
}

/// `property != value`, by column key.
public func != <Root: DBBTableObject, Value: DBBColumnValue>(lhs: DBBColumnKey<Root, Value>, rhs: Value)
    -> DBBCondition<Root>
{
    lhs.keyPath != rhs
}

/// `property != value`, by the column key of an optional property.
public func != <Root: DBBTableObject, Value: DBBColumnValue>(lhs: DBBColumnKey<Root, Value?>, rhs: Value)
    -> DBBCondition<Root>
{
    lhs.keyPath != rhs
}

/// `property IS NOT NULL`, by the column key of an optional property.
public func != <Root: DBBTableObject, Value>(lhs: DBBColumnKey<Root, Value?>, rhs: _OptionalNilComparisonType)
    -> DBBCondition<Root>
{
    lhs.keyPath != rhs
}

/// `property < value`, by column key.
public func < <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath < rhs
}

/// `property < value`, by the column key of an optional property.
public func < <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value?>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath < rhs
}

/// `property <= value`, by column key.
public func <= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath <= rhs
}

/// `property <= value`, by the column key of an optional property.
public func <= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value?>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath <= rhs
}

/// `property > value`, by column key.
public func > <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath > rhs
}

/// `property > value`, by the column key of an optional property.
public func > <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value?>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath > rhs
}

/// `property >= value`, by column key.
public func >= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath >= rhs
}

/// `property >= value`, by the column key of an optional property.
public func >= <Root: DBBTableObject, Value: DBBColumnValue & Comparable>(
    lhs: DBBColumnKey<Root, Value?>, rhs: Value
) -> DBBCondition<Root> {
    lhs.keyPath >= rhs
}
