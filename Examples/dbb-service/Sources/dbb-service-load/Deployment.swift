import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation

/// The service instances of a run and the database under them.
final class Deployment: @unchecked Sendable {
    // @unchecked Sendable: `processes` changes only under `lock`.
    let ports: [Int]
    private let binary: String
    private let arguments: [String]
    /// Where the run's database is, for the check: a SQLite path or the primary's URL.
    private let database: ServiceLocation
    private let lock = NSLock()
    private var processes: [Process?]
    private let folder: TemporaryDirectory
    /// The pg_auto_failover formation of the failover setup.
    private var cluster: TestFailoverCluster?

    enum ServiceLocation {
        case sqlite(String)
        case postgres(String)
    }

    private init(
        binary: String, arguments: [String], database: ServiceLocation, ports: [Int], folder: TemporaryDirectory
    ) {
        (self.binary, self.arguments, self.database, self.ports, self.folder) = (
            binary, arguments, database, ports, folder
        )
        processes = Array(repeating: nil, count: ports.count)
    }

    /// Starts `setup`'s database and its instances (one only, with `single`) and waits until
    /// each answers `/health`.
    static func start(_ setup: LoadCommand.Setup, binary: String, single: Bool = false) async throws -> Deployment {
        let folder = try TemporaryDirectory("dbb-service-load")
        let deployment: Deployment
        switch setup {
        case .sqlite:
            let path = folder.path("service.sqlite")
            deployment = Deployment(
                binary: binary, arguments: ["--database", path], database: .sqlite(path),
                ports: [try TestPostgresServer.freePort()],
                folder: folder)
        case .failover:
            guard let cluster = try TestFailoverCluster.start() else {
                throw LoadError("pg_autoctl is missing (install postgresql-15-auto-failover)")
            }
            // Reads from the standby while there is one (prefer-standby), the primary else.
            let arguments = [
                "--postgres", cluster.url(), "--replica", cluster.url(targetSessionAttributes: "prefer-standby"),
            ]
            deployment = Deployment(
                binary: binary, arguments: arguments, database: .postgres(cluster.url()),
                ports: [try TestPostgresServer.freePort(), try TestPostgresServer.freePort()], folder: folder)
            deployment.cluster = cluster
        case .postgres, .replica:
            guard let server = try TestPostgresServer.shared() else {
                throw LoadError("PostgreSQL server binaries are missing (install postgresql)")
            }
            let primary = try server.makeDatabase()
            var arguments = ["--postgres", primary]
            if setup == .replica {
                let name = URL(string: primary)?.lastPathComponent ?? ""
                arguments += ["--replica", try server.startStandby().url(database: name)]
            }
            deployment = Deployment(
                binary: binary, arguments: arguments, database: .postgres(primary),
                ports: [try TestPostgresServer.freePort(), try TestPostgresServer.freePort()], folder: folder)
        }
        // One at a time: the first start creates the tables and the report's data.
        do {
            for index in deployment.ports.indices where !single || index == 0 { try await deployment.launch(index) }
        } catch {
            deployment.stopAll()  // none left running when the run ends before it began
            throw error
        }
        return deployment
    }

    /// Starts instance `index` and waits until it answers `/health`.
    func launch(_ index: Int) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--port", "\(ports[index])", "--log-level", "warning"]
        process.standardOutput = FileHandle.nullDevice
        // Its log (each failed request is a line) in the run's folder, not on this terminal.
        let log = folder.path("instance-\(index).log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        lock.withLock { processes[index] = process }
        try killWhenThisProcessEnds(process.processIdentifier)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if await Probe.healthy(port: ports[index]) { return }
            // One that has exited will never answer: say why at once, from its log.
            guard process.isRunning else {
                throw LoadError(
                    "instance \(index) exited (status \(process.terminationStatus)) before answering /health:\n"
                        + self.log(of: index).split(separator: "\n").suffix(20).joined(separator: "\n"))
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw LoadError(
            "instance \(index) on port \(ports[index]) did not answer /health within 30 s:\n"
                + self.log(of: index).split(separator: "\n").suffix(20).joined(separator: "\n"))
    }

    /// Leaves a watcher that SIGKILLs `pid` once this process is gone, however it ends (a
    /// `timeout` signals this process's group, and an instance runs in a session of its own).
    private func killWhenThisProcessEnds(_ pid: Int32) throws {
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: "/bin/sh")
        watcher.arguments = [
            "-c", "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; kill -KILL \(pid) 2>/dev/null; true",
        ]
        (watcher.standardOutput, watcher.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
        try watcher.run()
    }

    /// SIGKILLs instance `index`: no graceful shutdown, requests in flight are cut.
    func kill(_ index: Int) {
        lock.withLock {
            if let process = processes[index] {
                Foundation.kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            processes[index] = nil
        }
    }

    /// SIGKILLs every process of the primary's node (the failover setup): the monitor promotes
    /// the secondary.
    func killPrimary() throws {
        guard let cluster else { throw LoadError("no failover cluster in this setup") }
        try cluster.killNode(0)
    }

    func stopAll() {
        let running = lock.withLock { processes.compactMap { $0 } }
        for process in running {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// What instance `index` has logged so far (warnings and errors: each failed request).
    func log(of index: Int) -> String {
        (try? String(contentsOfFile: folder.path("instance-\(index).log"), encoding: .utf8)) ?? ""
    }

    /// Where the database is, as `dbb-service` takes it: a SQLite path or a PostgreSQL URL.
    var databaseLocation: String {
        switch database {
        case .sqlite(let path): path
        case .postgres(let url): url
        }
    }

    /// Compares the companies the run created in the database with the client's tally.
    func verify(_ prefix: String, acknowledged: Set<String>, unknown: Set<String>) async throws -> Check {
        let manager: DBBManager
        switch database {
        case .sqlite(let path): manager = try DBBManager(url: URL(fileURLWithPath: path))
        case .postgres(let url): manager = try DBBManager(postgres: url)
        }
        let rows = try await manager.perform { manager in
            try manager.query(#"SELECT "name" FROM "Company" WHERE "name" LIKE ?"#, arguments: [prefix + "%"])
        }
        let stored = rows.compactMap { $0["name", as: String.self] }
        return Check(acknowledged: acknowledged, unknown: unknown, stored: stored)
    }
}

/// The database against the client's tally: every acknowledged create stored, once, and
/// nothing else but creates whose outcome the service said was unknown — which looking resolves.
struct Check {
    let acknowledged: Int
    let stored: Int
    let missing: Int
    let duplicates: Int
    let unacknowledged: Int
    /// Creates whose outcome was unknown, and how many of them the database has.
    let unknown: Int
    let unknownStored: Int

    init(acknowledged: Set<String>, unknown: Set<String> = [], stored: [String]) {
        let storedSet = Set(stored)
        self.acknowledged = acknowledged.count
        self.stored = stored.count
        missing = acknowledged.subtracting(storedSet).count
        duplicates = stored.count - storedSet.count
        unacknowledged = storedSet.subtracting(acknowledged).subtracting(unknown).count
        self.unknown = unknown.count
        unknownStored = unknown.intersection(storedSet).count
    }

    var holds: Bool { missing == 0 && duplicates == 0 && unacknowledged == 0 }
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
