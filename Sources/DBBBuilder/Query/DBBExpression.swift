import DBBSQLite

/// A value a typed query computes from the rows of `Root`'s table — a property's column, a
/// bound Swift value, an operator, a function, an aggregate — whose Swift type the compiler
/// knows: `Value`. A condition is a `DBBExpression<Root, Bool>` (``DBBCondition``).
///
/// ```swift
/// let total = DBBExpression<Visit, Double?>.sum(\.seconds)     // SUM("seconds"), nil for no rows
/// let long = .column(\Visit.seconds) * 2 > 60                   // a DBBCondition<Visit>
/// ```
///
/// An expression is a tree, not SQL text: each backend's dialect writes it with its own
/// quoting and placeholders when the query runs, and binds its values in order (see
/// <doc:Reports>).
public struct DBBExpression<Root: DBBTableObject, Value>: @unchecked Sendable {
    // @unchecked Sendable: the tree holds key paths of stored properties, immutable values that
    // Swift does not mark Sendable, and DBBValues.

    let node: SQLNode

    init(_ node: SQLNode) { self.node = node }

    // MARK: - Columns and values

    /// The mapped property `keyPath` reaches, `\.id`, `\.createdTime` and `\.modifiedTime`
    /// included: `.column(\.seconds)`.
    public static func column(_ keyPath: KeyPath<Root, Value>) -> Self { Self(.keyPath(keyPath)) }

    /// The mapped property of a `@DBBTable` class's column key: `.column(Visit.Columns.seconds)`.
    public static func column(_ key: DBBColumnKey<Root, Value>) -> Self { Self(.keyPath(key.keyPath)) }

    /// `value`, bound: `.value(42)`.
    public static func value(_ value: Value) -> Self where Value: DBBColumnValue { Self(.value(value.columnValue)) }
}

/// A condition on the rows of `Root`'s table: a boolean ``DBBExpression``, written with key
/// paths and Swift values and checked by the compiler (the value must have the property's type).
///
/// ```swift
/// let adults = try Person.instances(
///     where: \.age >= 18 && (\.lastName == "Doe" || \.nickname == nil),
///     sortedBy: [.descending(\.age), .ascending(\.lastName)], manager: manager)
/// let hers = try Meeting.instances(where: .contains(\.participants, ada), manager: manager)
/// ```
///
/// Each backend's dialect writes the condition straight to SQL (no condition text on the way).
/// `||`, `&&` and `!` combine any conditions, those on array properties included: an array
/// condition is an `EXISTS` over its join rows. `\.id`, `\.createdTime` and `\.modifiedTime`
/// are columns like the others. A key path to a property the class does not map throws
/// ``DBBError/Kind/unknownProperty`` when the query runs; with a `@DBBTable` class, conditions
/// on its `Columns` keys do not compile for a property it does not map.
public typealias DBBCondition<Root: DBBTableObject> = DBBExpression<Root, Bool>

/// A Swift number typed arithmetic (`+`, `-`, `*`, `/`) and the `SUM` aggregate take: the
/// integers and floating-point types a column holds.
public protocol DBBArithmeticValue: DBBColumnValue, Comparable {}

extension Int: DBBArithmeticValue {}
extension Int64: DBBArithmeticValue {}
extension Int32: DBBArithmeticValue {}
extension Double: DBBArithmeticValue {}
