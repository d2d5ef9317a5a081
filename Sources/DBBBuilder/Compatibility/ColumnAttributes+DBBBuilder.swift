/// DBBBuilder's name for ``ColumnAttributes``: `ColumnAttribute.notNull` and
/// `ColumnAttribute.unique` keep compiling where DBBBuilder code set `attributesDictionary`.
public typealias ColumnAttribute = ColumnAttributes

/// DBBBuilder wrote attributes as text; a literal is read as ``init(parsing:)`` reads it, so
/// `["barcode": "NOT NULL UNIQUE"]` keeps working. A literal naming anything else (`"DEFAULT 0"`)
/// makes registering the class fail with ``DBBError/Kind/invalidMapping``.
extension ColumnAttributes: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        self = ColumnAttributes(parsing: text) ?? .unrecognized
    }

    /// DBBBuilder's way to combine attributes, `ColumnAttribute.notNull + " " + ColumnAttribute.unique`:
    /// the union of both sides (the `" "` between them reads as no attribute).
    public static func + (lhs: ColumnAttributes, rhs: ColumnAttributes) -> ColumnAttributes {
        lhs.union(rhs)
    }
}
