import Foundation

/// Reads values by index, without building a dictionary or an array: implemented by
/// `SQLiteRow` (result columns, indexed from 0) and `SQLiteFunctionArguments`
/// (a function's arguments, indexed from 0).
///
/// The five primitives are the backend's own accessors (SQLite's C calls); everything else (`string(at:)`,
/// `value(at:)`, `decode(_:at:)`…) is derived from them here, once.
public protocol DBBValueReader {
    /// The storage class of the value at `index`.
    func type(at index: Int) -> DBBValueType

    /// The value at `index` as an integer, converted as SQLite converts (`NULL` is 0).
    func int64(at index: Int) -> Int64

    /// The value at `index` as a double, converted as SQLite converts (`NULL` is 0.0).
    func double(at index: Int) -> Double

    /// Calls `body` with the UTF-8 bytes of the value at `index` (converted to text if it is
    /// not; empty for `NULL`). The bytes are valid only during the call.
    func withUnsafeUTF8<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R

    /// Calls `body` with the bytes of the value at `index` (empty for `NULL` and empty blobs).
    /// The bytes are valid only during the call.
    func withUnsafeBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension DBBValueReader {
    /// Whether the value at `index` is `NULL`.
    @inlinable
    public func isNull(at index: Int) -> Bool { type(at: index) == .null }

    /// The value at `index` as an `Int` (`NULL` is 0).
    @inlinable
    public func int(at index: Int) -> Int { Int(truncatingIfNeeded: int64(at: index)) }

    /// The value at `index` as a `Bool`: non-zero is `true` (`NULL` is `false`).
    @inlinable
    public func bool(at index: Int) -> Bool { int64(at: index) != 0 }

    /// The value at `index` as an integer, or `nil` when it is `NULL`. Asks for the storage
    /// class only when the value reads as 0 (as `NULL` does): one C call for most values.
    @inlinable
    public func optionalInt64(at index: Int) -> Int64? {
        let value = int64(at: index)
        return value != 0 || type(at: index) != .null ? value : nil
    }

    /// The value at `index` as a double, or `nil` when it is `NULL` (one C call for most values).
    @inlinable
    public func optionalDouble(at index: Int) -> Double? {
        let value = double(at: index)
        return value != 0 || type(at: index) != .null ? value : nil
    }

    /// The value at `index` as text, or `nil` when it is `NULL`.
    @inlinable
    public func string(at index: Int) -> String? {
        if type(at: index) == .null { return nil }
        return withUnsafeUTF8(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value at `index` as bytes, or `nil` when it is `NULL`. An empty blob is empty `Data`.
    @inlinable
    public func data(at index: Int) -> Data? {
        if type(at: index) == .null { return nil }
        return withUnsafeBytes(at: index) { Data($0) }
    }

    /// The value at `index` in its own storage class.
    @inlinable
    public func value(at index: Int) -> DBBValue {
        switch type(at: index) {
        case .null: .null
        case .integer: .integer(int64(at: index))
        case .real: .real(double(at: index))
        case .text: .text(withUnsafeUTF8(at: index) { String(decoding: $0, as: UTF8.self) })
        case .blob: .blob(withUnsafeBytes(at: index) { Data($0) })
        }
    }

    /// The value at `index` converted to `T`, or `nil` when it is `NULL` or does not convert.
    ///
    /// ```swift
    /// let age = row.decode(Int.self, at: 2)
    /// ```
    public func decode<T: DBBValueConvertible>(_ type: T.Type = T.self, at index: Int) -> T? {
        T(databaseValue: value(at: index))
    }
}
