#if Postgres
@_spi(DBBBackend) import DBBSQLite
import NIOCore
import PostgresNIO
import Synchronization

/// Answers a query that postgres-nio never would. A query written to a connection whose
/// channel has already closed (the server ended the session between two statements: a
/// restart, `pg_terminate_backend`, `pg_ctl stop`) goes nowhere, and its future is never
/// completed; waiting on it blocked the writer forever. The watch sees the channel close and
/// fails the query in flight, after a short grace in which postgres-nio's own failure (with
/// the server's reason, when it sent one) wins.
///
/// It also gives up on a server that answers nothing at all (a stopped process, a network that
/// drops packets): with an `answerTimeout`, a query unanswered that long fails and its
/// connection is closed.
///
/// One watch per connection, registered once on its close future (not once per query, which
/// would pile up callbacks on a long-lived connection).
final class SessionWatch: Sendable {
    private struct State {
        var closed = false
        var pending: EventLoopPromise<PostgresQueryResult>?
    }

    private let state = Mutex(State())
    /// How long after the close postgres-nio's own failure may still arrive.
    static let grace: TimeAmount = .milliseconds(200)

    /// How long a query may wait for its answer (``DBBPostgresConfiguration/answerTimeout``).
    let answerTimeout: Duration?

    init(_ connection: PostgresConnection, answerTimeout: Duration? = nil) {
        self.answerTimeout = answerTimeout
        connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed(on: connection.eventLoop) }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    /// What became of a query.
    enum Outcome {
        case answered(PostgresQueryResult)
        /// The connection was closed before the query could be sent: the server never saw it.
        case notSent
        /// The connection closed after the query was handed to it, without an answer: the
        /// server may or may not have run it.
        case unanswered
        /// No answer came within ``answerTimeout``, and the watch closed the connection: the
        /// server may or may not have run the query.
        case timedOut
    }

    /// Runs `query` and waits for its answer, or for the connection to close without one, or
    /// for `timeout` to pass (then it closes the connection), blocking the calling thread.
    func answer(
        on connection: PostgresConnection, within timeout: Duration?,
        _ query: () -> EventLoopFuture<PostgresQueryResult>
    ) throws -> Outcome {
        guard let answer = send(on: connection, within: timeout, query) else { return .notSent }
        defer { state.withLock { $0.pending = nil } }
        do {
            return .answered(try answer.wait())
        } catch is Unanswered {
            return .unanswered
        } catch is TimedOut {
            return .timedOut
        }
    }

    /// Runs `query` and awaits its answer, or the connection's close without one, suspending
    /// the calling task (no thread waits).
    func answer(
        on connection: PostgresConnection, within timeout: Duration?,
        _ query: () -> EventLoopFuture<PostgresQueryResult>
    ) async throws -> Outcome {
        guard let answer = send(on: connection, within: timeout, query) else { return .notSent }
        defer { state.withLock { $0.pending = nil } }
        do {
            return .answered(try await answer.get())
        } catch is Unanswered {
            return .unanswered
        } catch is TimedOut {
            return .timedOut
        }
    }

    /// Sends `query` unless the connection has closed: its answer, which the watch fails if
    /// the connection closes before the server gives it.
    private func send(
        on connection: PostgresConnection, within timeout: Duration?,
        _ query: () -> EventLoopFuture<PostgresQueryResult>
    ) -> EventLoopFuture<PostgresQueryResult>? {
        let promise = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.pending = promise
            return true
        }
        guard open else {
            promise.fail(Unanswered())
            return nil
        }
        query().cascade(to: promise)
        if let timeout {
            // Both run on the connection's event loop: an answer cancels the timeout before it
            // can fire, and a timeout that fires finds the query unanswered.
            let timeout = connection.eventLoop.scheduleTask(
                in: .nanoseconds(Int64(clamping: timeout.nanosecondCount))
            ) {
                promise.fail(TimedOut())
                connection.closeKeepingAlive()
            }
            promise.futureResult.whenComplete { _ in timeout.cancel() }
        }
        return promise.futureResult
    }

    private func connectionClosed(on loop: any EventLoop) {
        let pending = state.withLock { state in
            state.closed = true
            return state.pending
        }
        guard let pending else { return }
        loop.scheduleTask(in: Self.grace) { pending.fail(Unanswered()) }
    }

    /// The marker failure of an unanswered query (a completed promise ignores it).
    private struct Unanswered: Error {}

    /// The marker failure of a query unanswered within ``answerTimeout``.
    private struct TimedOut: Error {}
}
#endif
