import DBBCore
import DBBSQLite
import Dispatch
import Tracing

/// Values handed to a blocking thread by an `async` form whose caller waits for the result, so
/// that nothing else touches them meanwhile: `@unchecked Sendable`.
struct Handed<Value>: @unchecked Sendable {
    let value: Value
}

extension DBBManager {
    /// Runs blocking database work on one of ``BlockingThreads``, not on the cooperative thread
    /// pool.
    static func offThread<T>(_ work: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        // The task's statement timeout and trace context (the parent of the work's spans) go
        // with its work (task-local values stay with the task).
        let deadline = StatementDeadline.current
        let context = ServiceContext.current
        return try await withCheckedThrowingContinuation { continuation in
            BlockingThreads.shared.run {
                do {
                    continuation.resume(
                        returning: try ServiceContext.$current.withValue(context) {
                            try StatementDeadline.$current.withValue(deadline, operation: work)
                        })
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs a write on a blocking thread once the writer connection is free. The `async` writes
    /// of the manager wait for one another suspended (a ``FairSemaphore`` of one place: no thread held), then the
    /// one whose turn it is waits on its thread for the writer, which a synchronous write may
    /// hold. A task cancelled before its write has the writer gets `CancellationError` and
    /// nothing is written; once the write has the writer it runs to its end, so its
    /// transaction commits or rolls back whole.
    func offThreadWrite(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await asyncWriters.withPlace {
            let cancelled = Locked(false)
            try await withTaskCancellationHandler {
                try await Self.offThread {
                    try self.write(nil) { _ in
                        if cancelled.withLock({ $0 }) { throw CancellationError() }
                        try work()
                    }
                }
            } onCancel: {
                cancelled.withLock { $0 = true }
            }
        }
    }
}
