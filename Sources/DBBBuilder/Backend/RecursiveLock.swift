import Foundation

/// A lock the holding thread may take again: a save hook (`performPreSaveActions`) may call
/// back into the manager that is saving.
final class RecursiveLock: Sendable {
    private let lock = NSRecursiveLock()

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
