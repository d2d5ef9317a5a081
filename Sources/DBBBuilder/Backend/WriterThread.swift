import Foundation
import Synchronization

/// Which thread is inside a manager's write, so that a read made on that thread (a save hook
/// that fetches) uses the writer and sees the write's own changes.
@_spi(DBBBackend)
public final class WriterThread: Sendable {
    /// The thread inside the write, 0 when none.
    private let thread = Atomic<UInt>(0)

    public init() {}

    /// Runs `body` as the writer thread (nested calls restore the outer mark).
    public func marking<T>(_ body: () throws -> T) rethrows -> T {
        let previous = thread.exchange(Self.current(), ordering: .sequentiallyConsistent)
        defer { thread.store(previous, ordering: .sequentiallyConsistent) }
        return try body()
    }

    /// Whether the calling thread is inside the write.
    public var isCurrent: Bool { thread.load(ordering: .sequentiallyConsistent) == Self.current() }

    /// An id of the calling thread, never 0.
    public static func current() -> UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
