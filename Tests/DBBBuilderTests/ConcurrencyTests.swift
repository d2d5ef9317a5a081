import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Synchronization
import Testing

@Suite("Concurrency: one manager, many tasks", .serialized)
struct ConcurrencyTests {
    @Test(
        "8 tasks saving, updating, fetching and deleting at once end with exact counts", .timeLimit(.minutes(10)),
        arguments: Backend.allCases)
    func stress(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Member.self, Company.self]) else { return }
        let manager = database.manager
        let tasks = 8
        let rounds = 40
        let tallies = try await withThrowingTaskGroup(of: (kept: Int, nicknames: Int).self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var kept = 0
                    var nicknames = 0
                    for round in 0..<rounds {
                        let member = Member("T\(task)", "R\(round)", age: round, manager: manager)
                        member.nicknames = (0..<(round % 3)).map { "n\($0)" }
                        member.employer = Company("C\(task)-\(round)", manager: manager)
                        try await member.save()
                        member.age += 100
                        try await member.save()
                        var options = DBBQueryOptions.options(withConditions: ["firstName = ?"])
                        options.arguments = [.text("T\(task)")]
                        let mine = try await Member.instances(matching: options, manager: manager)
                        #expect(mine.count == kept + 1, "a task sees exactly its own committed rows")
                        #expect(mine.allSatisfy { $0.age >= 100 && $0.employer?.name.hasPrefix("C\(task)-") == true })
                        if round % 4 == 3 {
                            try await member.delete()
                        } else {
                            kept += 1
                            nicknames += round % 3
                        }
                    }
                    return (kept, nicknames)
                }
            }
            return try await group.reduce(into: (kept: 0, nicknames: 0)) {
                $0.kept += $1.kept
                $0.nicknames += $1.nicknames
            }
        }
        #expect(tallies.kept == tasks * rounds * 3 / 4)
        #expect(try manager.count(of: "Member") == tallies.kept)
        #expect(try manager.count(of: "Member_nicknames") == tallies.nicknames)
        #expect(try manager.count(of: "Company") == tasks * rounds, "companies are not deleted with members")
        #expect(try manager.count(of: "Member_company") == tallies.kept)
        if backend == .sqlite {
            #expect(try database.scalar("PRAGMA integrity_check", as: String.self) == "ok")
        }
    }

    @Test("reads are not blocked by a long write", arguments: Backend.allCases)
    func readsDuringWrite(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Member.self, SlowSave.self]) else { return }
        let manager = database.manager
        try await Member("Early", "Bird", age: 1, manager: manager).save()
        SlowSave.started = DispatchSemaphore(value: 0)
        SlowSave.release = DispatchSemaphore(value: 0)
        defer {
            SlowSave.started = nil
            SlowSave.release = nil
        }

        // The writer and the reader are threads, and this task waits by sleeping: none of them
        // holds a thread of the cooperative pool while it waits, which on a 2-core machine
        // has two, and other suites need them to finish what this test waits for.
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            let slow = SlowSave(dbManager: manager)
            slow.name = "slow"
            _ = try? slow.save()
            writerDone.signal()
        }
        writer.start()
        #expect(try await Self.signalled(SlowSave.started!, within: 120), "the write began")
        // The write transaction is open now; a read on another thread must not wait for it.
        let readFinished = Atomic<Bool>(false)
        let reader = Thread {
            if (try? Member.all(manager: manager).count) == 1 {
                readFinished.store(true, ordering: .sequentiallyConsistent)
            }
        }
        reader.start()
        let deadline = Date().addingTimeInterval(120)  // a hang guard: a blocked read never finishes
        while !readFinished.load(ordering: .sequentiallyConsistent) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let finished = readFinished.load(ordering: .sequentiallyConsistent)
        #expect(finished, "the read finished while the write was open")
        #expect(try manager.count(of: "SlowSave") == 0, "the write is not committed yet")
        SlowSave.release!.signal()
        #expect(try await Self.signalled(writerDone, within: 120), "the write finished")
        #expect(try manager.count(of: "SlowSave") == 1)
    }

    @Test("async forms return the same objects as the synchronous ones", arguments: Backend.allCases)
    func asyncForms(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Member.self, Company.self]) else { return }
        let manager = database.manager
        let daddy = Member("John", "Doe", age: 35, manager: manager)
        daddy.nicknames = ["J"]
        daddy.employer = Company("Acme", manager: manager)
        try await Member.save([daddy, Member("Ann", "Doe", age: 3, manager: manager)], manager: manager)

        let options = DBBQueryOptions.options(sortColumns: ["firstName"])
        let async = try await Member.instances(matching: options, manager: manager)
        let sync: [Member] = try { try Member.instances(matching: options, manager: manager) }()
        #expect(async.map(\.id) == sync.map(\.id) && async.map(\.firstName) == ["Ann", "John"])
        #expect(async.last?.employer?.name == "Acme" && async.last?.nicknames == ["J"])
        #expect(try await Member.all(manager: manager).count == 2)
        #expect(try await Member.instance(id: daddy.id, manager: manager)?.firstName == "John")
        #expect(try await Member.instances(ids: [2, 1], manager: manager).map(\.firstName) == ["Ann", "John"])
        #expect(try await Member.allIDs(manager: manager) == [1, 2])
    }

    @Test("DBBBuilder's queue forms call back with results or errors", arguments: Backend.allCases)
    func queueForms(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Member.self]) else { return }
        let manager = database.manager
        try await Member.save(
            [Member("A", "X", age: 1, manager: manager), Member("B", "Y", age: 2, manager: manager)], manager: manager)

        let fetched: ([String], DBBError?) = await withCheckedContinuation { continuation in
            Member.getInstancesFromQueue(withOptions: .options(sortColumns: ["firstName"]), manager: manager) {
                objects, error in
                continuation.resume(returning: (objects.compactMap { ($0 as? Member)?.firstName }, error))
            }
        }
        #expect(fetched.0 == ["A", "B"] && fetched.1 == nil)
        let failed: (Int, DBBError?) = await withCheckedContinuation { continuation in
            Member.getInstancesFromQueue(withOptions: .options(properties: ["nope"]), manager: manager) {
                objects, error in
                continuation.resume(returning: (objects.count, error))
            }
        }
        #expect(failed.0 == 0 && failed.1?.property == "nope")
        let all: Int = await withCheckedContinuation { continuation in
            Member.getAllInstancesFromQueue(manager: manager) { continuation.resume(returning: $0.count) }
        }
        #expect(all == 2)
        let ids: [Int64] = await withCheckedContinuation { continuation in
            Member.fetchAllInstanceIDsFromQueue(manager: manager) { continuation.resume(returning: $0) }
        }
        #expect(ids == [1, 2])
        let some: Int = await withCheckedContinuation { continuation in
            Member.getInstancesWithIDNumbersFromQueue(ids: [2], manager: manager) {
                continuation.resume(returning: $0.count)
            }
        }
        #expect(some == 1)
        let victims = try await Member.all(manager: manager)
        let deleted: Bool = await withCheckedContinuation { continuation in
            Member.deleteMultipleInstancesOnQueue(victims, manager: manager) { continuation.resume(returning: $0) }
        }
        #expect(deleted)
        #expect(try manager.count(of: "Member") == 0)
    }

    @Test(
        "fetches during re-saves see one committed state: purpose and participants of the same version",
        .timeLimit(.minutes(10)), arguments: Backend.allCases)
    func noTornReads(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Meeting.self]) else { return }
        let manager = database.manager
        let meeting = Meeting("v0", [Member("v0", "a", age: 0, manager: manager)], project: nil, manager: manager)
        try await meeting.save()
        let id = meeting.id
        // Counts, not a time window: each reader reads until it has made 50 fetches and seen 3
        // versions (so its reads overlapped the saves), the writer saves until the readers are
        // done and it made 10 versions. Threads, not tasks: none holds a cooperative thread
        // while the others need one. The deadline only turns a hang into a failure.
        let readersLeft = Atomic<Int>(3)
        let failure = Mutex<String?>(nil)
        let deadline = Date().addingTimeInterval(300)
        let done = DispatchSemaphore(value: 0)
        let versions = Atomic<Int>(0)
        let torn = Mutex<[String]>([])
        let fetches = Atomic<Int>(0)
        nonisolated(unsafe) let written = meeting  // the writer thread alone uses it from here on
        Thread {
            var version = 0
            while (readersLeft.load(ordering: .relaxed) > 0 || version < 10) && Date() < deadline {
                version += 1
                written.purpose = "v\(version)"
                written.participants = (0..<(1 + version % 3)).map {
                    Member("v\(version)", "p\($0)", age: version, manager: manager)
                }
                do { try written.save() } catch { failure.withLock { $0 = "save: \(error)" } }
                versions.store(version, ordering: .relaxed)
            }
            done.signal()
        }.start()
        for _ in 0..<3 {
            Thread {
                var seen: Set<String> = []
                var count = 0
                while (count < 50 || seen.count < 3) && Date() < deadline {
                    do {
                        guard let fetched = try Meeting.instance(id: id, manager: manager) else {
                            failure.withLock { $0 = "meeting \(id) not found" }
                            break
                        }
                        let names = Set(fetched.participants.map(\.firstName))
                        if names != [fetched.purpose] {
                            torn.withLock { $0.append("\(fetched.purpose): \(names.sorted())") }
                        }
                        seen.insert(fetched.purpose)
                        count += 1
                    } catch {
                        failure.withLock { $0 = "fetch: \(error)" }
                        break
                    }
                }
                fetches.add(count, ordering: .relaxed)
                readersLeft.subtract(1, ordering: .relaxed)
                done.signal()
            }.start()
        }
        for _ in 0..<4 { #expect(try await Self.signalled(done, within: 600), "a thread never finished") }
        #expect(failure.withLock { $0 } == nil, "\(failure.withLock { $0 } ?? "")")
        let tornReads = torn.withLock { $0 }
        #expect(tornReads.isEmpty, "torn reads, e.g. \(tornReads.prefix(3))")
        let (fetched, saved) = (fetches.load(ordering: .relaxed), versions.load(ordering: .relaxed))
        #expect(fetched >= 150 && saved >= 10, "\(fetched) fetches during \(saved) saves (the deadline passed)")
    }

    /// Whether `semaphore` is signalled within `seconds`, polled from a task that sleeps
    /// between looks instead of blocking its thread.
    static func signalled(_ semaphore: DispatchSemaphore, within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while semaphore.wait(timeout: .now()) != .success {
            guard Date() < deadline else { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
