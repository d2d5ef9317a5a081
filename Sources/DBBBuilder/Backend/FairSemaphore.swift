import DBBCore
import DBBSQLite
import Dispatch

/// A counted number of places taken in turn: a thread waits for one by blocking, a task by
/// suspending (holding no thread), both in one queue, first come first served. A wait ends when
/// a place comes free, or after its timeout (when it has one), or — for a task — when it is
/// cancelled. A PostgreSQL pool counts its connections with one; a manager's `async` writes take
/// their turn with one of a single place.
@_spi(DBBBackend) public final class FairSemaphore: Sendable {
    private enum Waiter {
        case thread(DispatchSemaphore)
        case task(CheckedContinuation<Bool, any Error>)
    }

    private struct State {
        var free: Int
        var waiters: [(id: UInt64, waiter: Waiter)] = []
        var lastID: UInt64 = 0

        /// Takes a free place, or queues `waiter` (made for its id) and returns that id.
        mutating func take(orQueue waiter: (UInt64) -> Waiter) -> UInt64? {
            if free > 0 {
                free -= 1
                return nil
            }
            lastID += 1
            waiters.append((lastID, waiter(lastID)))
            return lastID
        }

        /// Takes waiter `id` out of the queue: `nil` when it is no longer there (a place was given to it).
        mutating func withdraw(_ id: UInt64) -> Waiter? {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index).waiter
        }
    }

    // A `Locked`, not a `Mutex`: ThreadSanitizer sees its lock.
    private let state: Locked<State>

    /// A semaphore with `count` free places.
    public init(_ count: Int) { state = Locked(State(free: count)) }

    /// The threads and tasks waiting for a place.
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Takes a place if one is free now: `false` otherwise.
    public func take() -> Bool {
        state.withLock { state in
            guard state.free > 0 else { return false }
            state.free -= 1
            return true
        }
    }

    /// Blocks the calling thread until a place is free (`true`) or `timeout`, when given, has
    /// passed (`false`).
    public func wait(timeout: Duration?) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        guard let id = state.withLock({ $0.take { _ in .thread(semaphore) } }) else { return true }
        guard let timeout else {
            semaphore.wait()
            return true
        }
        if semaphore.wait(timeout: .now() + Self.seconds(timeout)) == .success { return true }
        if state.withLock({ $0.withdraw(id) }) != nil { return false }
        // A place was given to it just as the time ran out: its signal is on the way.
        semaphore.wait()
        return true
    }

    /// Suspends the calling task until a place is free (`true`) or `timeout`, when given, has
    /// passed (`false`), holding no thread meanwhile.
    /// - Throws: `CancellationError` when the task is cancelled while it waits (it takes no place).
    public func wait(timeout: Duration?) async throws -> Bool {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.lastID += 1
            return state.lastID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let queued = state.withLock { state -> Bool in
                    if state.free > 0 {
                        state.free -= 1
                        return false
                    }
                    state.waiters.append((id, .task(continuation)))
                    return true
                }
                guard queued else { return continuation.resume(returning: true) }
                if let timeout {
                    DispatchQueue.global().asyncAfter(deadline: .now() + Self.seconds(timeout)) {
                        self.end(id, with: .success(false))
                    }
                }
                // Cancelled before it was queued: the handler found nothing to end.
                if Task.isCancelled { end(id, with: .failure(CancellationError())) }
            }
        } onCancel: {
            end(id, with: .failure(CancellationError()))
        }
    }

    /// Runs `body` holding a place, waited for suspended and without a time limit.
    /// - Throws: `CancellationError` when the task is cancelled while it waits (`body` does not
    ///   run), or what `body` throws.
    public func withPlace<T>(_ body: () async throws -> sending T) async throws -> sending T {
        _ = try await wait(timeout: nil)
        defer { signal() }
        return try await body()
    }

    /// Frees a place: the longest waiter takes it, or it waits for the next.
    public func signal() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst().waiter
        }
        switch next {
        case .thread(let semaphore): semaphore.signal()
        case .task(let continuation): continuation.resume(returning: true)
        case nil: break
        }
    }

    /// Ends task waiter `id`'s wait with `outcome`, unless it has a place already.
    private func end(_ id: UInt64, with outcome: Result<Bool, any Error>) {
        guard case .task(let continuation) = state.withLock({ $0.withdraw(id) }) else { return }
        continuation.resume(with: outcome)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
