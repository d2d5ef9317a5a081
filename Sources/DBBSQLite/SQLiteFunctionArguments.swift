import CSQLite

/// The arguments of one call of an ``SQLiteFunction``, read by index (from 0) with the
/// ``SQLiteValueReader`` accessors; nothing is copied until you ask for it.
///
/// ```swift
/// let upper = SQLiteFunction("dbb_upper", argumentCount: 1) { arguments in
///     guard let text = arguments.string(at: 0) else { return .null }
///     return .text(text.uppercased())
/// }
/// ```
///
/// Valid only during the call that receives it.
public struct SQLiteFunctionArguments: SQLiteValueReader {
    @usableFromInline let argv: UnsafeMutablePointer<OpaquePointer?>?

    /// The number of arguments of this call.
    public let count: Int

    init(count: Int32, argv: UnsafeMutablePointer<OpaquePointer?>?) {
        self.count = Int(count)
        self.argv = argv
    }

    @usableFromInline
    func argument(_ index: Int) -> OpaquePointer? {
        precondition(index >= 0 && index < count, "argument \(index) out of range 0..<\(count)")
        return argv?[index]
    }

    @inlinable
    public func type(at index: Int) -> SQLiteType {
        SQLiteType(code: sqlite3_value_type(argument(index)))
    }

    @inlinable
    public func int64(at index: Int) -> Int64 { sqlite3_value_int64(argument(index)) }

    @inlinable
    public func double(at index: Int) -> Double { sqlite3_value_double(argument(index)) }

    @inlinable
    public func withUnsafeUTF8<R>(
        at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
    ) rethrows -> R {
        let value = argument(index)
        // sqlite3_value_text must come before sqlite3_value_bytes (it may convert the value).
        let text = sqlite3_value_text(value)
        let count = Int(sqlite3_value_bytes(value))
        return try body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
    }

    @inlinable
    public func withUnsafeBytes<R>(
        at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        let value = argument(index)
        let blob = sqlite3_value_blob(value)
        let count = Int(sqlite3_value_bytes(value))
        return try body(UnsafeRawBufferPointer(start: blob, count: blob == nil ? 0 : count))
    }
}
