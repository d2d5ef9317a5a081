import Foundation

/// A value guarded by a lock, for state shared between threads (caches, pools).
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: ThreadSanitizer
/// understands pthread mutexes, while `Mutex`'s futex inside the uninstrumented standard
/// library hides its ordering from it and makes every guarded access look like a race.
///
/// `@unchecked Sendable`: `value` is only reached inside `withLock`, under `lock`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, exclusively.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
