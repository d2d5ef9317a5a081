import DBBTestSupport
import Dispatch
import Foundation
import Testing

@_spi(DBBBackend) @testable import DBBBuilder

/// Work items that keep the global queue's threads busy until stopped, or until `seconds` have
/// passed since they were queued (then `timedOut`).
private final class Spinners: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private let end: Date

    init(seconds: Double) { end = Date(timeIntervalSinceNow: seconds) }

    func stop() { lock.withLock { stopped = true } }
    var timedOut: Bool { Date() >= end }

    /// Queues `n` work items on the global queue that each keep a core busy until `stop()` or
    /// the end.
    func start(_ n: Int) {
        for _ in 0..<n {
            DispatchQueue.global(qos: .userInitiated).async {
                var x = 0
                while !self.timedOut && !self.lock.withLock({ self.stopped }) {
                    for i in 0..<10_000 { x &+= i }
                }
                precondition(x != 1)  // keep the loop
            }
        }
    }
}

@Suite("async work runs on DBBBuilder's own threads", .serialized)
struct BlockingThreadsTests {
    /// The failure this guards against: with `DispatchQueue.global()`, whose few threads on Linux
    /// are added only when the ones there block, busy work queued there before an `async` fetch
    /// left the fetch waiting until that work ended. Here the fetch itself stops the busy work:
    /// queued behind it (the old code), it ran only once the spinners gave up after 30 s.
    /// Nothing is awaited between queueing the spinners and the fetch, so a test runner that
    /// is slow to resume this task cannot make the fetch late.
    @Test("an async fetch on SQLite runs while other work keeps the global queue's threads busy")
    func notStarvedByTheGlobalQueue() async throws {
        let database = try ManagerTestDatabase([Project.self])
        let m = database.manager
        let project = Project(dbManager: m)
        project.name = "one"
        try await project.save()

        let spinners = Spinners(seconds: 30)
        defer { spinners.stop() }
        spinners.start(64)
        let (late, names) = try await m.perform { manager in
            let late = spinners.timedOut
            spinners.stop()
            return (late, try Project.instances(matching: DBBQueryOptions(), manager: manager).map(\.name))
        }
        #expect(!late, "the fetch ran only after the busy work had given up")
        #expect(names == ["one"])
    }

    @Test("jobs past the limit wait their turn, run in order, and no more than the limit run at once")
    func limitAndOrder() async throws {
        let pool = BlockingThreads(limit: 3, idleSeconds: 0.2)
        let state = Locked((running: 0, most: 0, order: [Int]()))
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<40 {
                let (stream, done) = AsyncStream<Void>.makeStream()
                pool.run {
                    state.withLock {
                        $0.running += 1
                        $0.most = max($0.most, $0.running)
                        $0.order.append(n)
                    }
                    Thread.sleep(forTimeInterval: 0.002)
                    state.withLock { $0.running -= 1 }
                    done.finish()
                }
                group.addTask { for await _ in stream {} }
            }
        }
        let result = state.withLock { $0 }
        #expect(result.most <= 3 && result.most >= 2)
        #expect(Set(result.order) == Set(0..<40))
        // The queue is first in, first out: one thread runs the jobs in the order they came.
        // (With three, a thread descheduled between taking a job and recording it lets the other
        // two record later jobs first, so only one thread shows the order without timing.)
        let single = BlockingThreads(limit: 1, idleSeconds: 0.2)
        let order = Locked([Int]())
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<20 {
                let (stream, done) = AsyncStream<Void>.makeStream()
                single.run {
                    order.withLock { $0.append(n) }
                    done.finish()
                }
                group.addTask { for await _ in stream {} }
            }
        }
        #expect(order.withLock { $0 } == Array(0..<20))
        #expect(pool.threadCount <= 3)
        let idleUntil = Date(timeIntervalSinceNow: 20)
        while pool.threadCount > 0 && Date() < idleUntil { try? await Task.sleep(for: .milliseconds(20)) }
        #expect(pool.threadCount == 0, "idle threads did not end")
        // A pool whose threads have ended starts one again.
        let again = await withCheckedContinuation { continuation in pool.run { continuation.resume(returning: 7) } }
        #expect(again == 7)
    }

    @Test("the async writers' permit: taken in the order asked, a task cancelled while waiting leaves the queue")
    func permitOrderAndCancellation() async throws {
        let permit = FairSemaphore(1)
        let order = Locked([Int]())
        let (holding, held) = AsyncStream<Void>.makeStream()
        let (releasing, release) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await permit.withPlace {
                held.yield()
                for await _ in releasing {}
                order.withLock { $0.append(0) }
            }
        }
        for await _ in holding { break }
        var waiters: [Task<Void, any Error>] = []
        for n in 1...5 {
            waiters.append(Task { try await permit.withPlace { order.withLock { $0.append(n) } } })
            // Each waiter is queued before the next one asks.
            while permit.waitingCount < n { try await Task.sleep(for: .milliseconds(1)) }
        }
        waiters[2].cancel()
        await #expect(throws: CancellationError.self) { try await waiters[2].value }
        release.finish()
        try await first.value
        for (index, waiter) in waiters.enumerated() where index != 2 { try await waiter.value }
        #expect(order.withLock { $0 } == [0, 1, 2, 4, 5])
        // Free again: taken at once.
        try await permit.withPlace { order.withLock { $0.append(6) } }
        #expect(order.withLock { $0 }.last == 6)
    }
}
