#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization

/// `dbb-crash-helper async-fetches URL COUNT [GATE-URL]`: how many threads COUNT concurrent `async` fetches
/// hold while they wait, on a pool of 8 connections, in a process of their own (no other test's
/// threads in the count).
///
/// 20 items (each with a company and two tags: three round trips a fetch) are saved; another
/// session locks the item table, so that every fetch waits — 7 on the server (the pool's read
/// connections), the others for a connection. Once all COUNT have started and 7 wait on the
/// server, the process's thread count (`Threads:` of /proc/self/status) is sampled; then the
/// lock goes and every fetch must return the 20 items whole. Prints one JSON line:
/// `{"baseline": threads before the fetches, "peak": most threads while they waited, "fetched": fetches
/// that returned every item whole, "waitingOnServer": fetches seen waiting on the server, "started": fetches
/// started before the lock went}`.
///
/// `dbb-crash-helper async-saves URL COUNT` does the same with COUNT concurrent `async` saves of
/// a new item each: one waits on the server (the writer), the others for their turn. It prints
/// `"saved"`, the saves that returned with an id, and `"stored"`, the rows they wrote, in place of
/// `"fetched"`.
struct AsyncFetches {
    let place: String
    let count: Int
    /// Where the session holding the gate connects: `place` on the server itself when the
    /// others go through a transaction pooler, which would hand its session lock to them.
    var gatePlace: String?
    /// Saves instead of fetches.
    var saves = false
    /// The advisory lock that the session locking the table waits on, so it keeps it.
    private static let gate = 7117

    func run() throws -> [String: Int] {
        var configuration = try DBBPostgresConfiguration(url: place)
        configuration.poolSize = 8
        configuration.poolTimeout = .seconds(600)
        let manager = try DBBManager(postgres: configuration)
        try manager.register([CrashCompany.self, CrashItem.self])
        try saveItems(manager)
        let observer = try DBBManager(postgres: place)

        // Warm: the event loops and the cooperative pool have their threads.
        guard try blocking({ try await CrashItem.all(manager: manager).count }) == 20 else {
            throw TestPostgresError(message: "the warm-up fetch did not return 20 items")
        }
        let baseline = Self.threads()

        let gate = try DBBManager(postgres: gatePlace ?? place)
        try gate.execute("SELECT pg_advisory_lock(\(Self.gate))")
        let locker = try DBBManager(postgres: place)
        let locked = DispatchSemaphore(value: 0)
        Thread {
            try? locker.execute(
                "BEGIN; LOCK TABLE \"CrashItem\" IN ACCESS EXCLUSIVE MODE; SELECT pg_advisory_lock(\(Self.gate));"
                    + " SELECT pg_advisory_unlock(\(Self.gate)); COMMIT")
            locked.signal()
        }.start()
        try waitFor(observer, "pg_advisory_lock(\(Self.gate))", count: 1)

        let started = Locked(0)
        let whole = Locked(0)
        let finished = DispatchSemaphore(value: 0)
        let count = count
        Task {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<count {
                    group.addTask { [saves] in
                        started.withLock { $0 += 1 }
                        if saves {
                            let item = CrashItem(dbManager: manager)
                            item.name = "saved"
                            guard (try? await item.save()) != nil else { return false }
                            return item.id > 0
                        }
                        guard let items = try? await CrashItem.all(manager: manager) else { return false }
                        return items.count == 20 && items.allSatisfy { $0.company != nil && $0.tags.count == 2 }
                    }
                }
                for await ok in group where ok { whole.withLock { $0 += 1 } }
            }
            finished.signal()
        }
        let waiting =
            saves
            ? try waitFor(observer, "INSERT INTO \"CrashItem\"", count: 1)
            : try waitFor(observer, "FROM \"CrashItem\"", count: 7)
        // Every fetch has started (each task suspends at once when nothing blocks a thread), or 60 s passed.
        let deadline = Date().addingTimeInterval(60)
        while started.withLock({ $0 }) < count && Date() < deadline { usleep(1000) }
        let startedBeforeRelease = started.withLock { $0 }
        var peak = 0
        for _ in 0..<50 {
            peak = max(peak, Self.threads())
            usleep(4000)
        }
        try gate.execute("SELECT pg_advisory_unlock(\(Self.gate))")
        guard finished.wait(timeout: .now() + 300) == .success, locked.wait(timeout: .now() + 60) == .success else {
            throw TestPostgresError(message: "the fetches did not finish within 300 s")
        }
        var tally = [
            "baseline": baseline, "peak": peak, "waitingOnServer": waiting, "started": startedBeforeRelease,
        ]
        if saves {
            let stored = try observer.query("SELECT count(*) FROM \"CrashItem\" WHERE name = 'saved'")[0]
            tally["saved"] = whole.withLock { $0 }
            tally["stored"] = try stored.decode(Int.self, at: 0)
        } else {
            tally["fetched"] = whole.withLock { $0 }
        }
        return tally
    }

    private func saveItems(_ manager: DBBManager) throws {
        let companies = (0..<4).map { n in
            let company = CrashCompany(dbManager: manager)
            company.name = "company \(n)"
            return company
        }
        let items = (0..<20).map { n in
            let item = CrashItem(dbManager: manager)
            item.name = "item \(n)"
            item.tags = ["a\(n)", "b\(n)"]
            item.company = companies[n % 4]
            return item
        }
        try CrashItem.save(items, manager: manager)
    }

    /// Waits until at least `count` sessions wait for a lock in a statement containing `text`
    /// (a hang guard of 120 s), and returns how many.
    @discardableResult
    private func waitFor(_ observer: DBBManager, _ text: String, count: Int) throws -> Int {
        let deadline = Date().addingTimeInterval(120)
        while true {
            let waiting = try observer.query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND wait_event_type = 'Lock' AND strpos(query, ?) > 0",
                arguments: [text])[0].decode(Int.self, at: 0)
            if waiting >= count { return waiting }
            guard Date() < deadline else {
                throw TestPostgresError(message: "only \(waiting) of \(count) sessions waited for \(text)")
            }
            usleep(20_000)
        }
    }

    /// The result of `work`, run as a task, waited for on this thread.
    private func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// The number of threads of this process now.
    static func threads() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
}

/// `dbb-crash-helper mixed-fetches URL`: async fetches and synchronous fetches called from
/// tasks, together, on a pool with one read connection: 20 async fetches and as many
/// synchronous ones as the machine has cores (so that they could block every thread of the
/// cooperative pool), each fetch taking about 0.1 s on the server. Prints one JSON line:
/// `{"failed": fetches that threw, "errors": how many distinct messages}` and the first error
/// on standard error.
struct MixedFetches {
    let place: String

    func run() throws -> [String: Int] {
        var configuration = try DBBPostgresConfiguration(url: place)
        configuration.poolSize = 2
        configuration.poolTimeout = .seconds(10)
        let manager = try DBBManager(postgres: configuration)
        try manager.register([CrashCompany.self, CrashItem.self])
        let items = (0..<2).map { n in
            let item = CrashItem(dbManager: manager)
            item.name = "item \(n)"
            return item
        }
        try CrashItem.save(items, manager: manager)
        var options = DBBQueryOptions.options(withConditions: ["value + length(pg_sleep(?)::text) >= 0"])
        options.arguments = [0.05]
        let synchronous = ProcessInfo.processInfo.activeProcessorCount
        let errors = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        Task { [options] in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<(20 + synchronous) {
                    group.addTask {
                        do {
                            let count =
                                index < 20
                                ? try await CrashItem.instances(matching: options, manager: manager).count
                                : try Self.fetchBlocking(options, manager)
                            if count != 2 { errors.withLock { $0.append("fetched \(count) items") } }
                        } catch {
                            errors.withLock { $0.append("\(error)") }
                        }
                    }
                }
            }
            finished.signal()
        }
        guard finished.wait(timeout: .now() + 300) == .success else {
            throw TestPostgresError(message: "the fetches did not finish within 300 s")
        }
        let failures = errors.withLock { $0 }
        if let first = failures.first { FileHandle.standardError.write(Data("\(first)\n".utf8)) }
        return ["failed": failures.count, "errors": Set(failures).count]
    }

    /// The synchronous fetch (a function that is not `async`, so the call is not the `async` form).
    private static func fetchBlocking(_ options: DBBQueryOptions, _ manager: DBBManager) throws -> Int {
        try CrashItem.instances(matching: options, manager: manager).count
    }
}
#endif
