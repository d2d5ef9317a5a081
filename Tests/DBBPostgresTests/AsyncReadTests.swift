#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// The `async` fetches on PostgreSQL await the server without holding a thread.
@Suite("async fetches on PostgreSQL: waiting without a thread")
struct AsyncReadTests {
    /// Threads a process may add while 1,000 fetches wait, whatever the machine: timers of
    /// the waits for a connection and the cooperative pool's growth (the event loops and the
    /// pool's first threads exist before, from the warm-up fetch).
    static let threadAllowance = 16

    /// What `dbb-crash-helper KIND <new database> ARGUMENTS…` printed (one JSON object of
    /// counts) and its standard error, once it exited with 0; `nil` without a PostgreSQL server.
    static func helperTally(_ kind: String, _ arguments: String...) throws -> ([String: Int], String)? {
        let helper = try #require(ScriptFixture.product("dbb-crash-helper"))
        guard let server = try TestPostgresServer.shared() else { return nil }
        let process = Process()
        process.executableURL = helper
        let url = try server.makeDatabase()
        // The async-* helpers' gate: a session lock, on the server itself (see AsyncFetches).
        process.arguments = [kind, url] + arguments + (kind.hasPrefix("async-") ? [server.direct(url)] : [])
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (status, data) = ChildOutput.collect(process, [output, errors])
        let err = String(decoding: data[1], as: UTF8.self)
        try #require(status == 0, "\(err)")
        return (try JSONDecoder().decode([String: Int].self, from: data[0]), err)
    }

    @Test("1,000 concurrent async fetches on a pool of 8, all waiting, hold at most 16 threads more than before")
    func thousandFetches() throws {
        guard let tally = try Self.thousandWaiting("fetches", onServer: 7) else { return }
        #expect(tally["fetched"] == 1000, "every fetch returned its 20 items with their company and tags")
    }

    /// Writes are serialized, so the saves waiting their turn wait suspended: before they did on
    /// blocking threads, one each (up to 64 of them).
    @Test("1,000 concurrent async saves, all waiting behind one the server holds, hold at most 16 threads more")
    func thousandSaves() throws {
        guard let tally = try Self.thousandWaiting("saves", onServer: 1) else { return }
        #expect(tally["saved"] == 1000, "every save returned with an id")
        #expect(tally["stored"] == 1000, "every save's row was stored once")
    }

    /// The tally of `dbb-crash-helper async-KIND` with 1,000 calls, once checked that `onServer`
    /// of them waited on the server, that all started while those waited (none blocked a
    /// thread), and that the process gained at most ``threadAllowance`` threads.
    static func thousandWaiting(_ kind: String, onServer: Int) throws -> [String: Int]? {
        guard let (tally, _) = try helperTally("async-\(kind)", "1000") else { return nil }
        let (baseline, peak) = (try #require(tally["baseline"]), try #require(tally["peak"]))
        #expect(tally["waitingOnServer"] == onServer, "\(onServer) of the \(kind) waited on the server")
        #expect(tally["started"] == 1000, "every one of the \(kind) started while the others waited")
        #expect(
            peak - baseline <= threadAllowance,
            "1,000 waiting \(kind) took \(peak - baseline) threads (from \(baseline) to \(peak))")
        return tally
    }

    @Test(
        "async fetches and synchronous fetches from tasks, together on one read connection: none waits out poolTimeout")
    func mixedWithSynchronousCallsFromTasks() throws {
        guard let (tally, err) = try Self.helperTally("mixed-fetches") else { return }
        #expect(tally["failed"] == 0, "\(tally): \(err)")
    }

    @Test("an async fetch returns what the synchronous one does: objects, join values, related objects, identity")
    func sameObjects() async throws {
        guard let database = try BackendDatabase(.postgresql, [CrashCompany.self, CrashItem.self]) else { return }
        let manager = database.manager
        let companies = (0..<3).map { n in
            let company = CrashCompany(dbManager: manager)
            company.name = "c\(n)"
            return company
        }
        let items = (0..<30).map { n in
            let item = CrashItem(dbManager: manager)
            item.name = "item \(n)"
            item.value = n
            item.tags = n % 5 == 0 ? [] : ["t\(n)", "u\(n)", "v\(n)"]
            item.company = n % 4 == 0 ? nil : companies[n % 3]
            return item
        }
        try blocking { try CrashItem.save(items, manager: manager) }

        let reader = try database.reopen()
        let awaited = try await CrashItem.all(manager: reader)
        let blocked = try blocking { try CrashItem.all(manager: reader) }
        #expect(awaited.map(\.id) == blocked.map(\.id))
        #expect(awaited.map(\.name) == items.map(\.name) && awaited.map(\.tags) == items.map(\.tags))
        #expect(awaited.map { $0.company?.name } == items.map { $0.company?.name })
        let byCompany = Dictionary(grouping: awaited.compactMap(\.company), by: \.id)
        #expect(byCompany.values.allSatisfy { same in same.allSatisfy { $0 === same[0] } }, "one object a row")

        // Fetched objects track changes as the synchronous ones do: only the changed one is written.
        awaited[7].name = "changed"
        try blocking { try CrashItem.save(awaited, manager: reader) }
        #expect(try blocking { try CrashItem.instance(id: awaited[7].id, manager: manager)?.name } == "changed")
        #expect(
            try blocking { try CrashItem.instance(id: awaited[8].id, manager: manager)?.modifiedTime }
                == items[8].modifiedTime)

        let some = try await CrashItem.instances(ids: [items[9].id, 999_999, items[2].id], manager: reader)
        #expect(some.map(\.name) == ["item 9", "item 2"], "in the order of the ids, unknown ids skipped")
        #expect(try await CrashItem.instance(id: items[3].id, manager: reader)?.tags == ["t3", "u3", "v3"])
        #expect(try await CrashItem.instance(id: 999_999, manager: reader) == nil)
        #expect(try await CrashItem.allIDs(manager: reader) == items.map(\.id))
        var options = DBBQueryOptions.options(withConditions: ["value >= ?"], sortColumns: ["value DESC"])
        options.arguments = [25]
        #expect(try await CrashItem.instances(matching: options, manager: reader).map(\.value) == [29, 28, 27, 26, 25])
    }

    @Test("a failing async fetch throws the error the synchronous one throws, and the connection serves the next")
    func failures() async throws {
        guard let database = try BackendDatabase(.postgresql, [CrashCompany.self, CrashItem.self]) else { return }
        var configuration = try DBBPostgresConfiguration(url: database.place)
        configuration.poolSize = 2  // one read connection: the next fetch reuses the failed one's
        let manager = try DBBManager(postgres: configuration)
        try manager.register([CrashCompany.self, CrashItem.self])
        var options = DBBQueryOptions.options(withConditions: ["value / ? > 1"])
        options.arguments = [0]
        let item = CrashItem(dbManager: manager)
        item.value = 4
        try blocking { try item.save() }
        let blocked = #expect(throws: DBBError.self) {
            try blocking { try CrashItem.instances(matching: options, manager: manager) }
        }
        let awaited = await #expect(throws: DBBError.self) {
            try await CrashItem.instances(matching: options, manager: manager)
        }
        #expect(awaited?.kind == blocked?.kind && awaited?.table == "CrashItem", "\(String(describing: awaited))")
        #expect(awaited?.message.contains("division by zero") == true, "\(String(describing: awaited))")
        #expect(try await CrashItem.all(manager: manager).map(\.value) == [4], "the next fetch on the pool works")

        var unknown = DBBQueryOptions.options(withConditions: ["nosuchproperty = 1"])
        unknown.arguments = []
        let named = await #expect(throws: DBBError.self) {
            try await CrashItem.instances(matching: unknown, manager: manager)
        }
        #expect(named?.message.contains("nosuchproperty") == true, "\(String(describing: named))")
    }

    @Test(
        "an async fetch waiting for a connection ends when its task is cancelled, or after poolTimeout, naming the pool"
    )
    func waitingForAConnection() async throws {
        guard let database = try BackendDatabase(.postgresql, [CrashCompany.self, CrashItem.self]) else { return }
        var configuration = try DBBPostgresConfiguration(url: database.place)
        configuration.poolSize = 2
        configuration.poolTimeout = .milliseconds(300)
        let manager = try DBBManager(postgres: configuration)
        try manager.register([CrashCompany.self, CrashItem.self])
        // The one read connection is held by a raw read inside forEachRow's closure.
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? manager.forEachRow("SELECT 1") { _ in
                holding.signal()
                release.wait()
            }
        }
        holder.start()
        holding.wait()
        defer { release.signal() }

        let timedOut = await #expect(throws: DBBError.self) { try await CrashItem.all(manager: manager) }
        #expect(
            timedOut?.kind == .unavailable && timedOut?.message.contains("poolTimeout") == true,
            "\(String(describing: timedOut))")

        configuration.poolTimeout = .seconds(600)
        let patient = try DBBManager(postgres: configuration)
        try patient.register([CrashCompany.self, CrashItem.self])
        let blockedHolder = DispatchSemaphore(value: 0)
        let releasePatient = DispatchSemaphore(value: 0)
        Thread {
            try? patient.forEachRow("SELECT 1") { _ in
                blockedHolder.signal()
                releasePatient.wait()
            }
        }.start()
        blockedHolder.wait()
        let waiting = Task { try await CrashItem.all(manager: patient).count }
        try await Task.sleep(for: .milliseconds(200))
        waiting.cancel()
        let cancelled = await waiting.result
        #expect(throws: CancellationError.self) { try cancelled.get() }
        releasePatient.signal()
        #expect(try await CrashItem.all(manager: patient).isEmpty, "the pool lends again once the holder is done")
    }
}

/// `body`'s result: the synchronous forms, called from an async test (where a call without
/// this would pick the `async` overload).
private func blocking<T>(_ body: () throws -> T) rethrows -> T { try body() }
#endif
