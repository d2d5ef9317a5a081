/// Names in query options as DBBBuilder read them: DBBBuilder pasted `propertyNames` and
/// `sorting` into the SQL, so its code names columns there (`"itemName"`), where this library
/// names properties (`"name"`). Both are accepted; anything else is refused by the caller.
extension TableMapping {
    /// The column property named `name`, or else the one stored in column `name`. Column names
    /// compare as SQLite compares identifiers (ignoring ASCII case); a property name wins over
    /// another property's column name.
    func column(namedOrStoredIn name: String) -> ColumnProperty? {
        column(named: name) ?? columns.first { Self.sameIdentifier($0.column, name) }
    }

    /// The join property named `name`, or else the one whose join column is `name`.
    func join(namedOrStoredIn name: String) -> JoinProperty? {
        join(named: name) ?? joins.first { Self.sameIdentifier($0.column, name) }
    }

    /// Whether SQLite reads `a` and `b` as one identifier: equal but for ASCII case.
    static func sameIdentifier(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }
}
