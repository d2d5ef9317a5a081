import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// A row whose pre-save hook tells when a save has begun, and holds it there until told to go on.
final class Paced: DBBTableObject {
    var n = 0
    /// Called from the hook of the object with `n == 0`: the save has the writer.
    nonisolated(unsafe) static var onStart: (@Sendable () -> Void)?
    /// Signalled by the test to let the save go on (waited for up to 120 s, a hang guard).
    nonisolated(unsafe) static var proceed = DispatchSemaphore(value: 0)

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["n": DBBPropertyPersistence(\Paced.n)], for: self)
    }

    override func willSave() throws {
        if n == 0, let start = Self.onStart {
            start()
            _ = Self.proceed.wait(timeout: .now() + 120)  // until the test has cancelled
        }
    }
}

/// Notes the thread its save runs on.
@DBBTable
final class ThreadNoted: DBBTableObject {
    var n = 0
    @Transient var savedOn: pthread_t = 0

    override func willSave() throws {
        savedOn = pthread_self()
    }
}

/// Opens when told to; tasks wait on it.
private actor Gate {
    private var open = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        if open { return }
        await withCheckedContinuation { waiting.append($0) }
    }
    func release() {
        open = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}

@Suite("async writes: off the cooperative pool, serialized, cancellable until they start", .serialized)
struct AsyncWriteTests {
    @Test(
        "an awaited save of a typed array ([ThreadNoted]) runs on another thread than the caller's (it picks the async form)"
    )
    func typedBatchOffThread() async throws {
        guard let database = try BackendDatabase(.sqlite, [ThreadNoted.self]) else { return }
        let objects = (0..<3).map { n -> ThreadNoted in
            let object = ThreadNoted(dbManager: database.manager)
            object.n = n
            return object
        }
        let caller = pthread_self()
        try await ThreadNoted.save(objects, manager: database.manager)
        #expect(objects.allSatisfy { $0.savedOn != 0 && $0.savedOn != caller })
        #expect(objects.allSatisfy { $0.id > 0 })
    }

    @Test("save, batch save, delete, delete by ids and delete all, awaited from tasks", arguments: Backend.allCases)
    func asyncWrites(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Project.self]) else { return }
        let m = database.manager
        let project = Project(dbManager: m)
        project.name = "one"
        try await project.save()
        #expect(project.id > 0)
        let batch = (0..<10_000).map { n -> Project in
            let p = Project(dbManager: m)
            p.name = "p\(n)"
            return p
        }
        try await Project.save(batch, manager: m)
        #expect(try m.count(of: "Project") == 10_001)
        // Eight tasks writing at once: serialized, none lost.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<25 {
                        let p = Project(dbManager: m)
                        p.name = "task \(task) #\(n)"
                        try await p.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try m.count(of: "Project") == 10_201)
        try await project.delete()
        #expect(project.isDeleted && project.id != 0)
        try await Project.delete(Array(batch.prefix(100)), manager: m)
        try await Project.delete(ids: batch[100..<200].map(\.id) + [999_999], manager: m)
        #expect(try m.count(of: "Project") == 10_000)
        try await Project.deleteAll(manager: m)
        #expect(try m.count(of: "Project") == 0)
    }

    @Test(
        "a task cancelled before its write starts writes nothing and throws CancellationError",
        arguments: Backend.allCases)
    func cancelledBeforeStart(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Paced.self]) else { return }
        let m = database.manager
        let gate = Gate()
        let task = Task {
            await gate.wait()
            let row = Paced(dbManager: m)
            row.n = 1
            try await row.save()
        }
        task.cancel()
        await gate.release()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try m.count(of: "Paced") == 0)
    }

    @Test("a task cancelled once its write has begun: the transaction completes whole", arguments: Backend.allCases)
    func cancelledAfterStart(_ backend: Backend) async throws {
        guard let database = try BackendDatabase(backend, [Paced.self]) else { return }
        let m = database.manager
        let started = Gate()
        Paced.onStart = { Task { await started.release() } }
        defer { Paced.onStart = nil }
        let rows = (0..<1_000).map { n -> Paced in
            let row = Paced(dbManager: m)
            row.n = n
            return row
        }
        Paced.proceed = DispatchSemaphore(value: 0)
        let task = Task { try await Paced.save(rows, manager: m) }
        await started.wait()
        task.cancel()
        Paced.proceed.signal()
        try await task.value
        #expect(try m.count(of: "Paced") == 1_000)
    }
}
