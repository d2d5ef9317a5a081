import DBBSQLite

/// One permit that tasks take in turn, waiting suspended (no thread held) in the order they
/// asked. The `async` writes of a manager take it before they go to a blocking thread: writes
/// are serialized anyway, so a thousand waiting saves hold no thread, and one runs at a time.
final class AsyncPermit: Sendable {
    private struct State {
        var held = false
        var nextTicket: UInt64 = 0
        /// Tickets given out whose task has not yet queued its continuation.
        var arriving: Set<UInt64> = []
        /// Arriving tickets whose task was cancelled meanwhile.
        var cancelled: Set<UInt64> = []
        var waiting: [(ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state = Locked(State())

    /// The tasks waiting for the permit.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` holding the permit.
    /// - Throws: `CancellationError` when the task is cancelled while it waits (`body` does not run).
    func withPermit(_ body: () async throws -> Void) async throws {
        try await acquire()
        do {
            try await body()
        } catch {
            release()
            throw error
        }
        release()
    }

    private func acquire() async throws {
        try Task.checkCancellation()
        let ticket = state.withLock { state -> UInt64? in
            if !state.held {
                state.held = true
                return nil
            }
            state.nextTicket += 1
            state.arriving.insert(state.nextTicket)
            return state.nextTicket
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Bool, CancellationError> in
                    state.arriving.remove(ticket)
                    if state.cancelled.remove(ticket) != nil { return .failure(CancellationError()) }
                    if !state.held {  // released while this task was arriving
                        state.held = true
                        return .success(true)
                    }
                    state.waiting.append((ticket, continuation))
                    return .success(false)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let index = state.waiting.firstIndex(where: { $0.ticket == ticket }) {
                    return state.waiting.remove(at: index).continuation
                }
                if state.arriving.contains(ticket) { state.cancelled.insert(ticket) }
                return nil
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Hands the permit to the longest waiting task, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiting.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
