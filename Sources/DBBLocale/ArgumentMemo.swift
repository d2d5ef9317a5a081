import Foundation

/// Remembers the last text an argument had and what it resolved to, so a query that passes
/// the same locale or pattern on every row resolves it once, without building a `String`
/// or taking a lock per row.
///
/// `@unchecked Sendable`: each memo belongs to one registration of the functions on one
/// connection, and SQLite runs a connection's function calls one at a time (under the
/// connection's mutex, or by the one-thread-at-a-time rule of a no-mutex connection).
final class ArgumentMemo<Value>: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private var value: Value?

    /// The value for `text`, made by `make` when the text differs from the last one.
    func value<E: Error>(
        for text: UnsafeBufferPointer<UInt8>, make: (String) throws(E) -> Value
    ) throws(E) -> Value {
        if let value, bytes.count == text.count,
            bytes.withUnsafeBufferPointer({ stored in
                guard let storedBase = stored.baseAddress, let textBase = text.baseAddress else { return true }
                return memcmp(storedBase, textBase, text.count) == 0
            })
        {
            return value
        }
        let made = try make(String(decoding: text, as: UTF8.self))
        bytes = Array(text)
        value = made
        return made
    }
}
