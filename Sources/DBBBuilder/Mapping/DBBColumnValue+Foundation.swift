import DBBSQLite
import Foundation

// `Decimal`, `UUID` and `URL` in a column of their own or, in arrays, a join table: stored as
// the text of ``DBBValueConvertible`` (a `numeric` and a `uuid` column on PostgreSQL), read back
// exactly or not at all. See <doc:TableObjectsAndMappings#Value-types>.

/// The stored text at `index` of `row` as `Value` (a `NULL` as `nil`).
/// - Throws: ``DBBError/Kind/invalidValue`` naming the text when `make` refuses it (`what` says
///   what it should be), and for a value that is not text.
@inline(__always)
private func storedText<Value>(
    _ row: DBBColumnReader, at index: Int, as type: Value.Type, _ what: String, _ make: (String) -> Value?
) throws -> Value? {
    switch row.type(at: index) {
    case .null: return nil
    case .text:
        let text = row.withUnsafeUTF8(at: index) { String(decoding: $0, as: UTF8.self) }
        guard let value = make(text) else {
            throw DBBError(
                .invalidValue,
                "the stored text '\(text.prefix(60))\(text.count > 60 ? "…" : "")' is not \(what), so it is no "
                    + "\(Value.self): it is read as it is or not at all")
        }
        return value
    default: throw unreadable(row, at: index, as: Value.self)
    }
}

extension Decimal: DBBColumnValue {
    /// `.decimal`: exact digits as text on SQLite, `numeric` on PostgreSQL.
    public static var storageType: DBBStorageType { .decimal }

    /// The stored decimal number: text of the strict form (`-12.50`, `1e-3`) that a `Decimal`
    /// holds exactly, or an integer.
    /// - Throws: ``DBBError/Kind/invalidValue`` for text that is not such a number (`1.5x`, `NaN`,
    ///   more than 38 significant digits) and for a REAL, which is no exact decimal.
    public static func read(from row: DBBColumnReader, at index: Int) throws -> Decimal? {
        if row.type(at: index) == .integer { return Decimal(row.int64(at: index)) }
        return try storedText(
            row, at: index, as: Decimal.self, "a decimal number with at most 38 significant digits",
            Decimal.init(exactly:))
    }

    /// The number's text; `Decimal.nan`, which no backend stores alike, as a value every save refuses.
    public var columnValue: DBBValue { databaseValue }
}

extension UUID: DBBColumnValue {
    /// `.uuid`: text in lower case on SQLite, `uuid` on PostgreSQL.
    public static var storageType: DBBStorageType { .uuid }

    /// The stored UUID, its text in either case.
    /// - Throws: ``DBBError/Kind/invalidValue`` for text that is not a UUID.
    public static func read(from row: DBBColumnReader, at index: Int) throws -> UUID? {
        try storedText(row, at: index, as: UUID.self, "a UUID", UUID.init(uuidString:))
    }

    public var columnValue: DBBValue { databaseValue }
}

extension URL: DBBColumnValue {
    /// `.string`: the `absoluteString`, text on every backend.
    public static var storageType: DBBStorageType { .string }

    /// The stored URL, its text as it is (a URL relative to a base reads back as its absolute form).
    /// - Throws: ``DBBError/Kind/invalidValue`` for text that is not a URL (a space in it, or
    ///   nothing at all), which percent-encoding would turn into another URL.
    public static func read(from row: DBBColumnReader, at index: Int) throws -> URL? {
        try storedText(row, at: index, as: URL.self, "a URL") { URL(string: $0, encodingInvalidCharacters: false) }
    }

    public var columnValue: DBBValue { databaseValue }
}

extension Decimal: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .decimalArray }
    public var joinValue: DBBValue { databaseValue }
    /// Text of a decimal number (see ``read(from:at:)``) or an integer.
    public init?(joinValue: DBBValue) {
        if case .real = joinValue { return nil }
        self.init(databaseValue: joinValue)
    }
}

extension UUID: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .uuidArray }
    public var joinValue: DBBValue { databaseValue }
    public init?(joinValue: DBBValue) { self.init(databaseValue: joinValue) }
}

extension URL: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .stringArray }
    public var joinValue: DBBValue { databaseValue }
    public init?(joinValue: DBBValue) { self.init(databaseValue: joinValue) }
}
