/// The constraints of a property's column, for ``DBBTableObject/attributesDictionary``:
/// `NOT NULL`, `UNIQUE`, or both.
///
/// ```swift
/// attributesDictionary = ["email": [.notNull, .unique], "name": .notNull]
/// ```
///
/// DBBBuilder's text forms are accepted too (see `ColumnAttributes+DBBBuilder.swift`):
/// `ColumnAttribute.notNull`, `"NOT NULL UNIQUE"`, or
/// `ColumnAttribute.notNull + " " + ColumnAttribute.unique`.
///
/// See [SQLite's column constraints](https://sqlite.org/lang_createtable.html#column_constraints).
public struct ColumnAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    /// Creates a set from its bits; use the static members instead.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `NOT NULL`: saving a `nil` value fails with an error naming the property. A column added
    /// to an existing table gets the type's default (`0`, `''`) for the rows already there.
    public static let notNull = ColumnAttributes(rawValue: 1 << 0)

    /// `UNIQUE`: saving a value another row has fails with an error naming the property. A column
    /// added to an existing table gets a unique index instead, as SQLite cannot add the constraint.
    ///
    /// Added to or removed from a property whose column exists, either attribute is applied or
    /// lifted when the class registers (refused, naming the rows in the way, when they do not
    /// allow it): the constraints follow the class that registered last.
    public static let unique = ColumnAttributes(rawValue: 1 << 1)

    /// Set by text that names neither constraint; registering the class refuses it.
    static let unrecognized = ColumnAttributes(rawValue: 1 << 7)
}

// MARK: - Text

extension ColumnAttributes: CustomStringConvertible {
    /// Reads DBBBuilder's text form: `NOT NULL`, `UNIQUE`, both in either order, or nothing,
    /// without regard to case or spacing (`"not null  unique"`). `nil` for any other text:
    /// only these two constraints are supported.
    public init?(parsing text: String) {
        var result: ColumnAttributes = []
        var words = text.split(whereSeparator: \.isWhitespace).map { $0.uppercased() }[...]
        while let word = words.popFirst() {
            switch word {
            case "UNIQUE":
                result.insert(.unique)
            case "NOT" where words.first == "NULL":
                words.removeFirst()
                result.insert(.notNull)
            default:
                return nil
            }
        }
        self = result
    }

    /// The constraints as they appear in the column's definition: `NOT NULL UNIQUE`.
    public var description: String { SchemaSQL.constraints(self) }
}
