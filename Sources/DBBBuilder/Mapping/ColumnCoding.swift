import DBBSQLite
import Foundation

/// How the values of a property of type `Value` are kept in one column: read from a row, and
/// given as the column's value. A ``DBBColumnValue`` type is its own (``PlainColumn``); an enum
/// is kept as its raw value (``RawValueColumn``), a value marked as JSON as its JSON text
/// (``JSONColumn``), and an optional of any of them as `NULL` for `nil` (``OptionalColumn``).
/// The column forms of ``DBBPropertyPersistence``, ``DBBRowDecoder`` and ``DBBRowEncoder`` are
/// each written once over a coding.
@usableFromInline
protocol ColumnCoding {
    associatedtype Value
    /// The storage type of the column.
    static var storageType: DBBStorageType { get }
    /// The value of column `index` of `row`, or `nil` to leave the property as it is (see
    /// ``DBBColumnValue/read(from:at:)``).
    static func read(from row: DBBColumnReader, at index: Int) throws -> Value?
    /// The value as it is stored in its column.
    static func columnValue(of value: Value) -> DBBValue
    /// Whether the value is stored as the ``DBBColumnValue`` it is (a ``StoredSlot`` may then
    /// read and write it in its stead): not so for a `String` kept as JSON.
    static var isPlain: Bool { get }
}

extension ColumnCoding {
    @inlinable
    static var isPlain: Bool { false }
}

/// A ``DBBColumnValue`` type, which reads and writes itself.
@usableFromInline
enum PlainColumn<Value: DBBColumnValue>: ColumnCoding {
    @inlinable
    static var storageType: DBBStorageType { Value.storageType }

    @inlinable @inline(__always)
    static func read(from row: DBBColumnReader, at index: Int) throws -> Value? {
        try Value.read(from: row, at: index)
    }

    @inlinable @inline(__always)
    static func columnValue(of value: Value) -> DBBValue { value.columnValue }

    @inlinable
    static var isPlain: Bool { true }
}

/// An enum (or any `RawRepresentable` type) kept as its raw value: in a table created for the
/// raw type, unchanged. A stored raw value that is no case of the enum fails the fetch.
@usableFromInline
enum RawValueColumn<Value: RawRepresentable>: ColumnCoding where Value.RawValue: DBBColumnValue {
    @inlinable
    static var storageType: DBBStorageType { Value.RawValue.storageType }

    @inlinable
    static func read(from row: DBBColumnReader, at index: Int) throws -> Value? {
        guard let raw = try Value.RawValue.read(from: row, at: index) else { return nil }
        guard let value = Value(rawValue: raw) else { throw unknownCase(raw.columnValue, of: Value.self) }
        return value
    }

    @inlinable
    static func columnValue(of value: Value) -> DBBValue { value.rawValue.columnValue }
}

/// The error of a stored raw value for which `type` has no case (a case since removed, or a
/// value other SQL wrote): the fetch names the property and row.
@usableFromInline
func unknownCase(_ raw: DBBValue, of type: Any.Type) -> DBBError {
    DBBError(
        .invalidValue,
        "the stored value \(raw) is the raw value of no case of \(type): add the case back, or update the rows "
            + "that hold it; the fetch does not guess one")
}

/// An optional of another coding's value: `NULL` is `nil`.
@usableFromInline
enum OptionalColumn<Wrapped: ColumnCoding>: ColumnCoding {
    @usableFromInline typealias Value = Wrapped.Value?

    @inlinable
    static var storageType: DBBStorageType { Wrapped.storageType }

    @inlinable
    static func read(from row: DBBColumnReader, at index: Int) throws -> Wrapped.Value?? {
        row.isNull(at: index) ? .some(nil) : .some(try Wrapped.read(from: row, at: index))
    }

    @inlinable
    static func columnValue(of value: Wrapped.Value?) -> DBBValue { value.map(Wrapped.columnValue) ?? .null }
}

/// A `Codable` value kept as JSON text (`jsonb` on PostgreSQL), written with sorted keys so
/// that the same value is the same text (what change tracking compares).
///
/// A value that does not encode (its `encode(to:)` throws) stands in as ``unstorableStandIn``,
/// which the save refuses naming the property: column values are taken without throwing.
@usableFromInline
enum JSONColumn<Value: Codable>: ColumnCoding {
    @inlinable
    static var storageType: DBBStorageType { .json }

    @usableFromInline
    static func read(from row: DBBColumnReader, at index: Int) throws -> Value? {
        switch row.type(at: index) {
        case .null: return nil
        case .text:
            let data = row.withUnsafeUTF8(at: index) { Data($0) }
            do {
                return try JSONCoders.decoder.decode(Value.self, from: data)
            } catch {
                let text = String(decoding: data.prefix(60), as: UTF8.self)
                throw DBBError(
                    .invalidValue,
                    "the stored text '\(text)\(data.count > 60 ? "…" : "")' is not JSON of the type \(Value.self): "
                        + "\(JSONCoders.reason(error))")
            }
        default: throw unreadable(row, at: index, as: Value.self)
        }
    }

    /// The JSON text of `value`, or the stand-in of a value that cannot be stored: one that does
    /// not encode, or whose text holds a NUL character (`\u0000`), which PostgreSQL's `jsonb`
    /// refuses — refused on every backend alike.
    @usableFromInline
    static func columnValue(of value: Value) -> DBBValue {
        guard let data = try? JSONCoders.encoder.encode(value) else { return unstorableStandIn }
        return JSONCoders.holdsNUL(data) ? unstorableStandIn : .text(String(decoding: data, as: UTF8.self))
    }
}

/// What a column value is when the property's value cannot be stored (`Decimal.nan`, a value
/// that does not encode as JSON): a NaN real, which a save refuses before it binds anything
/// (``RowWriter/unstorable(_:in:)`` names the property and says why, by the column's type).
@usableFromInline
let unstorableStandIn = DBBValue.real(.nan)

/// The JSON coders of ``JSONColumn``: keys sorted, slashes as they are, and the non-finite
/// numbers JSON has no literal for as the strings `"NaN"`, `"Infinity"` and `"-Infinity"`, so
/// that a `Double.nan` in a value stores and reads back. Dates as `JSONEncoder`'s default
/// (seconds since 2001), as table objects store them.
enum JSONCoders {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }()

    /// Whether JSON text holds the escape of a NUL character, `\u0000` after an odd number of
    /// backslashes (after an even number, the backslashes are text of their own).
    static func holdsNUL(_ json: Data) -> Bool {
        let bytes = [UInt8](json)
        let escape = Array("u0000".utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, bytes[end] == UInt8(ascii: "\\") { end += 1 }
            if (end - index) % 2 == 1, bytes[end...].starts(with: escape) { return true }
            index = end
        }
        return false
    }

    /// What a decoding error says, without the coding path's noise.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
            .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        @unknown default: return "\(error)"
        }
    }
}
