#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// Reads that block until the test lets them go: each waits for a shared advisory lock that
/// `holder`'s one connection holds exclusively.
private final class BlockedReads: Sendable {
    static let key = 4242
    let holder: DBBManager
    let count: Int
    let finished = Atomic<Int>(0)
    let failures = Mutex<[String]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ count: Int, on manager: DBBManager, holder: DBBManager) throws {
        self.holder = holder
        self.count = count
        try holder.execute("SELECT pg_advisory_lock(\(Self.key))")
        for _ in 0..<count {
            Thread { [self] in
                do {
                    _ = try manager.query("SELECT pg_advisory_xact_lock_shared(\(Self.key))")
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                finished.add(1, ordering: .sequentiallyConsistent)
                done.signal()
            }.start()
        }
    }

    /// Waits until `count` reads wait for the lock on the server (a hang guard of 120 s).
    func waitUntilWaiting(_ count: Int, observer: DBBManager) throws {
        let deadline = Date().addingTimeInterval(120)
        while true {
            let waiting =
                try observer.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock_shared%'")[0]
                .decode(Int.self, at: 0)
            if waiting >= count { return }
            guard Date() < deadline else {
                throw TestPostgresError(message: "only \(waiting) of \(count) reads reached the server")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Lets the reads go and waits for every one (a hang guard of 120 s each).
    func release() throws {
        try holder.execute("SELECT pg_advisory_unlock(\(Self.key))")
        for _ in 0..<count {
            guard done.wait(timeout: .now() + 120) == .success else {
                throw TestPostgresError(message: "a read never finished")
            }
        }
    }
}

@Suite("The PostgreSQL pool: writes never wait behind reads")
struct ConnectionPoolTests {
    /// `url` on the server itself: the session lock that holds the reads back is the test's
    /// machinery, and a transaction pooler would hand its session to the reads.
    static func direct(_ url: String) throws -> String {
        try #require(try TestPostgresServer.shared()).direct(url)
    }

    @Test("eight reads that hold every read connection, and one more waiting: a save goes through at once")
    func writesPassReads() throws {
        guard let database = try BackendDatabase(.postgresql, [Ticket.self]) else { return }
        var configuration = try DBBPostgresConfiguration(url: database.place)
        configuration.poolTimeout = .seconds(600)  // the eighth read waits for the others, however long
        #expect(configuration.poolSize == 8)
        let manager = try DBBManager(postgres: configuration)
        let reads = try BlockedReads(8, on: manager, holder: try DBBManager(postgres: Self.direct(database.place)))
        try reads.waitUntilWaiting(7, observer: database.manager)  // 7 read connections: the eighth waits for one

        let ticket = Ticket(dbManager: manager)
        ticket.code = "while reading"
        let saved = finishing(within: 120) { Result { try ticket.save() } }
        try #require(saved != nil, "the save waited for the reads")
        try saved?.get()
        let finished = reads.finished.load(ordering: .sequentiallyConsistent)
        #expect(finished == 0, "the save did not wait for a read to end")
        #expect(try database.manager.count(of: "Ticket") == 1)

        try reads.release()
        #expect(reads.failures.withLock { $0 }.isEmpty, "\(reads.failures.withLock { $0 })")
    }

    @Test("a read that finds every read connection busy fails after poolTimeout, naming the pool; writes go on")
    func poolTimeout() throws {
        guard let database = try BackendDatabase(.postgresql, [Ticket.self]) else { return }
        var configuration = try DBBPostgresConfiguration(url: database.place)
        configuration.poolSize = 2
        configuration.poolTimeout = .milliseconds(300)
        let manager = try DBBManager(postgres: configuration)
        let reads = try BlockedReads(1, on: manager, holder: try DBBManager(postgres: Self.direct(database.place)))
        try reads.waitUntilWaiting(1, observer: database.manager)

        // From a thread, not a task: a synchronous call from a task takes a connection above
        // poolSize rather than wait (see mixedWithSynchronousCallsFromTasks).
        let outcome = try #require(finishing(within: 120) { Result { try manager.query("SELECT 1") } })
        let error = try #require(throws: DBBError.self) { _ = try outcome.get() }
        #expect(error.kind == .unavailable)
        #expect(error.isTimeout && error.isRetryable && !error.isConnectionLost, "\(error)")
        #expect(
            error.message.contains("poolTimeout") && error.message.contains("poolSize 2")
                && error.message.contains("1 serve reads, 1 is kept for writes"), "\(error)")
        let ticket = Ticket(dbManager: manager)
        ticket.code = "still writing"
        try ticket.save()
        try reads.release()
        #expect(try Ticket.all(manager: manager).map(\.code) == ["still writing"])

        configuration.poolTimeout = .zero
        #expect(throws: DBBError.self) { _ = try DBBManager(postgres: configuration) }
    }

    @Test(
        "a thread that holds a connection does not wait for another: a fetch in forEachRow, a save in it on a pool of one",
        arguments: [1, 2])
    func nestedOnOneThread(poolSize: Int) throws {
        guard let database = try BackendDatabase(.postgresql, [Ticket.self]) else { return }
        var configuration = try DBBPostgresConfiguration(url: database.place)
        (configuration.poolSize, configuration.poolTimeout) = (poolSize, .seconds(600))
        let manager = try DBBManager(postgres: configuration)
        let ticket = Ticket(dbManager: manager)
        ticket.code = "outer"
        try ticket.save()
        let done = finishing(within: 120) {
            Result {
                var seen: [String] = []
                try manager.forEachRow(#"SELECT "id" FROM "Ticket""#) { row in
                    seen.append(try Ticket.instance(id: row.int64(at: 0), manager: manager)?.code ?? "")
                    let inner = Ticket(dbManager: manager)
                    inner.code = "inner"
                    try inner.save()
                }
                return seen
            }
        }
        let seen = try #require(done, "it waited for itself").get()
        #expect(seen == ["outer"])
        #expect(try Ticket.all(manager: manager).map(\.code).sorted() == ["inner", "outer"])
    }

    @Test(
        "a pool of one: a write waiting on another thread does not hold the writer while the connection's thread writes"
    )
    func oneConnectionTwoThreads() throws {
        guard let database = try BackendDatabase(.postgresql, [Ticket.self]) else { return }
        var configuration = try DBBPostgresConfiguration(url: database.place)
        (configuration.poolSize, configuration.poolTimeout) = (1, .seconds(600))
        let manager = try DBBManager(postgres: configuration)
        let first = Ticket(dbManager: manager)
        first.code = "first"
        try first.save()
        let inside = DispatchSemaphore(value: 0)
        let results = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        // Thread A holds the one connection (in forEachRow's closure) and then saves; thread B
        // saves meanwhile, and waits for the connection — not with the writer in hand.
        Thread {
            let outcome = Result {
                try manager.forEachRow(#"SELECT "id" FROM "Ticket""#) { _ in
                    inside.signal()
                    Thread.sleep(forTimeInterval: 0.3)  // B reaches its wait (if not, nothing is proven, nothing fails)
                    let nested = Ticket(dbManager: manager)
                    nested.code = "from A"
                    try nested.save()
                }
            }
            results.withLock { $0.append("A \(outcome)") }
            done.signal()
        }.start()
        #expect(inside.wait(timeout: .now() + 120) == .success)
        Thread {
            let other = Ticket(dbManager: manager)
            other.code = "from B"
            let outcome = Result { try other.save() }
            results.withLock { $0.append("B \(outcome)") }
            done.signal()
        }.start()
        for _ in 0..<2 { #expect(done.wait(timeout: .now() + 120) == .success, "a thread waited for the other") }
        #expect(results.withLock { $0 }.sorted() == ["A success()", "B success()"])
        #expect(try Ticket.all(manager: manager).map(\.code).sorted() == ["first", "from A", "from B"])
    }
}
#endif
