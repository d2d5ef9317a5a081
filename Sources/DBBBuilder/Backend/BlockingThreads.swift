import Foundation

/// The threads that blocking database work of the `async` forms runs on.
///
/// Not `DispatchQueue.global()`: on Linux its threads are a few per core and are added only when
/// the ones there block, so work that keeps them busy (a CPU-bound loop, a build, other
/// libraries' jobs) left a fetch queued behind it for minutes. These threads belong to
/// DBBBuilder alone. One is started when a job finds none idle, up to ``limit``; past it jobs
/// wait in order for a thread to finish. A thread idle for ``idleSeconds`` ends.
final class BlockingThreads: @unchecked Sendable {
    /// The pool the `async` forms use.
    static let shared = BlockingThreads(limit: 64, idleSeconds: 10)

    /// The most threads running at once.
    let limit: Int
    /// How long a thread with nothing to do waits for a job before it ends.
    let idleSeconds: Double

    private let condition = NSCondition()
    /// Jobs not yet taken, oldest at `head`.
    private var jobs: [() -> Void] = []
    private var head = 0
    private var threads = 0
    /// Threads waiting for a job, and how many of them have been signalled and not yet woken.
    private var idle = 0
    private var wakeups = 0

    init(limit: Int, idleSeconds: Double) {
        self.limit = limit
        self.idleSeconds = idleSeconds
    }

    /// The threads started and not yet ended.
    var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    /// Runs `job` on one of the pool's threads.
    func run(_ job: @escaping () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if idle > wakeups {
            wakeups += 1
            condition.signal()
        } else if threads < limit {
            threads += 1
            let thread = Thread { [self] in work() }
            thread.name = "DBBBuilder blocking"
            thread.start()
        }
    }

    /// A thread's life: take jobs while there are some, wait for more, end after `idleSeconds`
    /// without one.
    private func work() {
        condition.lock()
        while true {
            if let job = take() {
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            idle += 1
            let signalled = condition.wait(until: Date(timeIntervalSinceNow: idleSeconds))
            idle -= 1
            if wakeups > 0 { wakeups -= 1 }
            if !signalled && head == jobs.count {
                threads -= 1
                condition.unlock()
                return
            }
        }
    }

    /// The oldest job, removed; called with the lock held.
    private func take() -> (() -> Void)? {
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
