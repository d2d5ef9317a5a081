import Foundation

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, started by
/// `pg_ctl` on a free loopback port (as the unprivileged `postgres` or `nobody` user when the
/// tests run as root, which PostgreSQL refuses), and stopped by a watcher once the test process is gone.
///
/// One cluster per test process; each test takes a database of its own (``makeDatabase()``).
/// On a machine without the server binaries, ``shared()`` returns `nil` and prints one line
/// naming what is missing — unless `DBB_REQUIRE_POSTGRES` is set (CI), when it fails.
///
/// With `DBB_TEST_PGBOUNCER` set (CI's pass through a pooler), the shared server's
/// ``url(database:password:)`` leads through a PgBouncer in transaction pooling mode in front
/// of it (``pooledPort``); ``port`` stays the server's own.
public final class TestPostgresServer: @unchecked Sendable {
    // @unchecked Sendable: the stored properties never change after `start()`; database
    // numbering is under `lock`.
    public let port: Int
    /// The port of the PgBouncer in front of the server, when the tests run through one.
    public var pooledPort: Int? { Self.throughPooler ? try? poolerPort() : nil }
    /// PgBouncer's port, once started (under `lock`).
    private var startedPooler: Int?
    public let user = "dbb"
    public let password = "dbb-test-secret"
    let folder: URL
    let bin: URL
    let runAs: String?
    private let lock = NSLock()
    private var databases = 0

    /// The server of this test process, started on first use; `nil` (after printing why) when
    /// the PostgreSQL binaries are missing.
    public static func shared() throws -> TestPostgresServer? {
        try sharedServer.get()
    }

    private static let sharedServer: Result<TestPostgresServer?, any Error> = Result {
        let server = try start()
        if throughPooler { _ = try server?.poolerPort() }
        return server
    }

    /// Whether the tests run through PgBouncer (`DBB_TEST_PGBOUNCER`).
    public static var throughPooler: Bool { ProcessInfo.processInfo.environment["DBB_TEST_PGBOUNCER"] != nil }

    /// A cluster of its own, not the shared one, for a test that kills its server
    /// (``kill()``); `nil` as ``shared()`` is.
    public static func startPrivate() throws -> TestPostgresServer? { try start() }

    /// Kills the server as the death of its machine would: every process of the cluster
    /// SIGKILLed, no shutdown, no goodbye to its clients (their connections are reset).
    public func kill() throws {
        try Self.killCluster(data: folder.appendingPathComponent("data").path)
    }

    /// SIGKILLs the postmaster of the cluster in `data` and its children: the postmaster
    /// stopped first, so that it starts no new one and its children are still its own.
    static func killCluster(data: String) throws {
        let pidFile = try String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8)
        guard let pid = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else {
            throw TestPostgresError(message: "no postmaster pid in \(data)/postmaster.pid")
        }
        try run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "kill -STOP \(pid); pkill -KILL -P \(pid); kill -KILL \(pid); true"])
    }

    /// `postgres://dbb:…@127.0.0.1:PORT/NAME?sslmode=disable`, through PgBouncer when the tests
    /// run through it.
    public func url(database: String, password: String? = nil) -> String {
        "postgres://\(user):\(password ?? self.password)@127.0.0.1:\(pooledPort ?? port)/\(database)?sslmode=disable"
    }

    /// The folder of the server's Unix-domain socket (`.s.PGSQL.<port>`, `unix_socket_directories`),
    /// where a client of the same machine logs in without a password (`--auth-local=trust`).
    public var socketDirectory: String { folder.path }

    /// The port clients connect to: PgBouncer's when the tests run through it, else the server's.
    public var clientPort: Int { pooledPort ?? port }

    /// `url`, one of ``url(database:password:)``'s, leading to the server itself, never through
    /// PgBouncer: for a test's own machinery that needs a session of its own (a session
    /// advisory lock that holds other sessions back), not for what the test checks.
    public func direct(_ url: String) -> String {
        url.replacingOccurrences(of: "@127.0.0.1:\(clientPort)/", with: "@127.0.0.1:\(port)/")
    }

    /// `url` (one of ``makeDatabase()``'s) through the PgBouncer in front of the server, started
    /// now if it is not running (see ``poolerPort()``).
    public func pooled(_ url: String) throws -> String {
        let port = try poolerPort()
        return url.replacingOccurrences(of: "@127.0.0.1:\(clientPort)/", with: "@127.0.0.1:\(port)/")
    }

    /// The port of PgBouncer 1.18 (`pgbouncer`, Debian's package) in front of the server in
    /// transaction pooling mode, every database passed on, the test user's password checked
    /// with SCRAM; started on first use, stopped when the test process ends.
    public func poolerPort() throws -> Int {
        try lock.withLock {
            if let startedPooler { return startedPooler }
            let port = try startPooler()
            startedPooler = port
            return port
        }
    }

    /// PgBouncer's executable (Debian's package installs `/usr/sbin/pgbouncer`), or `nil`.
    public static var pgbouncer: String? {
        ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the tests that need PgBouncer run: when it is installed. Without it they skip,
    /// printing one line — unless `DBB_REQUIRE_PGBOUNCER` (CI) or `DBB_TEST_PGBOUNCER` is set,
    /// when this throws: a machine with PostgreSQL but no PgBouncer passes the README's
    /// `DBB_REQUIRE_POSTGRES=1 swift test --traits Postgres`.
    public static func poolerAvailable() throws -> Bool { try poolerCheck.get() }

    /// ``poolerAvailable()``, found out (and printed) once per test process.
    private static let poolerCheck = Result<Bool, any Error> {
        guard pgbouncer == nil else { return true }
        let environment = ProcessInfo.processInfo.environment
        if let variable = ["DBB_REQUIRE_PGBOUNCER", "DBB_TEST_PGBOUNCER"].first(where: { environment[$0] != nil }) {
            throw TestPostgresError(
                message: "\(variable) is set, but pgbouncer is not installed (apt-get install pgbouncer)")
        }
        print("Skipping the tests behind PgBouncer: pgbouncer is not installed (apt-get install pgbouncer)")
        return false
    }

    private func startPooler() throws -> Int {
        guard try Self.poolerAvailable(), let executable = Self.pgbouncer else {
            throw TestPostgresError(message: "pgbouncer is not installed (apt-get install pgbouncer)")
        }
        let pooledPort = try Self.freePort()
        let directory = folder.path
        // Each test has a database of its own, and PgBouncer keeps up to default_pool_size server
        // connections open to each for server_idle_timeout (600 s unless set): closed after 2 s
        // idle, the suite's hundreds of databases stay within the server's max_connections.
        let settings = """
            [databases]
            * = host=127.0.0.1 port=\(port)
            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(pooledPort)
            unix_socket_dir =
            auth_type = scram-sha-256
            auth_file = \(directory)/pgbouncer-users.txt
            pool_mode = transaction
            max_client_conn = 2000
            default_pool_size = 20
            server_idle_timeout = 2
            logfile = \(directory)/pgbouncer.log
            pidfile = \(directory)/pgbouncer.pid

            """
        try settings.write(toFile: directory + "/pgbouncer.ini", atomically: true, encoding: .utf8)
        try "\"\(user)\" \"\(password)\"\n".write(
            toFile: directory + "/pgbouncer-users.txt", atomically: true, encoding: .utf8)
        if let runAs {
            try Self.run(
                URL(fileURLWithPath: "/bin/chown"),
                [runAs, directory + "/pgbouncer.ini", directory + "/pgbouncer-users.txt"])
            try Self.run(
                URL(fileURLWithPath: "/usr/sbin/runuser"),
                ["-u", runAs, "--", executable, "-d", directory + "/pgbouncer.ini"])
        } else {
            try Self.run(URL(fileURLWithPath: executable), ["-d", directory + "/pgbouncer.ini"])
        }
        // `-d` returns once PgBouncer has forked, maybe before it listens: wait until it does.
        let deadline = Date().addingTimeInterval(30)
        while !Self.accepts(port: pooledPort) {
            guard Date() < deadline else {
                let log = (try? String(contentsOfFile: directory + "/pgbouncer.log", encoding: .utf8)) ?? ""
                throw TestPostgresError(message: "PgBouncer never listened on \(pooledPort): \(log.suffix(2000))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let script =
            // SIGKILL: a PgBouncer a test stopped (SIGSTOP) would never act on SIGTERM.
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; kill -KILL $(cat '\(directory)/pgbouncer.pid') 2>/dev/null"
        try Self.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", script], wait: false)
        return pooledPort
    }

    /// Creates an empty database and returns its URL (through PgBouncer when the tests run
    /// through it).
    public func makeDatabase() throws -> String {
        let name = lock.withLock {
            databases += 1
            return "t\(getpid())_\(databases)"
        }
        try Self.run(
            bin.appendingPathComponent("createdb"), ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, name],
            environment: ["PGPASSWORD": password])
        return url(database: name)
    }

    // MARK: - Start and stop

    private init(port: Int, folder: URL, bin: URL, runAs: String?) {
        self.port = port
        self.folder = folder
        self.bin = bin
        self.runAs = runAs
    }

    private static func start() throws -> TestPostgresServer? {
        guard let bin = findBinaries() else {
            let missing =
                "PostgreSQL server binaries (initdb, pg_ctl) not found in /usr/lib/postgresql/*/bin, DBB_PG_BIN or PATH"
            if ProcessInfo.processInfo.environment["DBB_REQUIRE_POSTGRES"] != nil {
                throw TestPostgresError(message: "\(missing), and DBB_REQUIRE_POSTGRES is set")
            }
            print("Skipping the PostgreSQL suites: \(missing) (apt-get install postgresql)")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbb-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let runAs: String? = geteuid() == 0 ? (userExists("postgres") ? "postgres" : "nobody") : nil
        if let runAs { try run(URL(fileURLWithPath: "/bin/chown"), ["-R", runAs, folder.path]) }
        let server = TestPostgresServer(port: try freePort(), folder: folder, bin: bin, runAs: runAs)
        try server.initialize()
        try server.stopWhenProcessEnds()
        return server
    }

    private func initialize() throws {
        let passwordFile = folder.appendingPathComponent("password")
        try password.write(to: passwordFile, atomically: true, encoding: .utf8)
        if let runAs { try Self.run(URL(fileURLWithPath: "/bin/chown"), [runAs, passwordFile.path]) }
        let data = folder.appendingPathComponent("data").path
        try runAsServerUser(
            "initdb",
            [
                "-D", data, "-U", user, "--pwfile=\(passwordFile.path)", "-E", "UTF8", "--no-sync",
                "--auth-local=trust", "--auth-host=scram-sha-256",
            ])
        try runAsServerUser(
            "pg_ctl",
            [
                "-D", data, "-l", folder.appendingPathComponent("log").path, "-w", "-t", "60", "-o",
                "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off "
                    + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300",
                "start",
            ])
    }

    /// Leaves a watcher that stops the server and deletes its folder once this process is
    /// gone, however it ends (a crash or a kill included, which no exit handler sees) — first
    /// stopping what runs from inside that folder (PgBouncer, the standbys), whose own
    /// watchers might otherwise find their pid files deleted and leave them running.
    private func stopWhenProcessEnds() throws {
        let inside =
            "kill -KILL $(cat '\(folder.path)/pgbouncer.pid' 2>/dev/null) 2>/dev/null; "
            + "for standby in '\(folder.path)'/standby-*; do "
            + "[ -f \"$standby/postmaster.pid\" ] && \(stopCommand(data: "$standby", quoted: false)) >/dev/null 2>&1; done; "
        try stopWhenProcessEnds(
            data: folder.appendingPathComponent("data").path, thenDelete: folder.path, after: inside)
    }

    private func stopWhenProcessEnds(data: String, thenDelete path: String, after first: String = "") throws {
        let script =
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(first)"
            + "\(stopCommand(data: data)) >/dev/null 2>&1; rm -rf '\(path)'"
        try Self.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", script], wait: false)
    }

    /// The shell command that stops the server of `data` at once (`data` a shell word as it is
    /// when not `quoted`).
    private func stopCommand(data: String, quoted: Bool = true) -> String {
        (runAs.map { "/usr/sbin/runuser -u \($0) -- " } ?? "") + "\(bin.appendingPathComponent("pg_ctl").path)"
            + " -D \(quoted ? "'\(data)'" : "\"\(data)\"") -m immediate -w stop"
    }

    // MARK: - A standby

    /// A streaming standby of this server (`pg_basebackup -R`) on a port of its own, read-only,
    /// replaying every database's changes; stopped by ``TestPostgresStandby/stop()`` or when the
    /// test process ends.
    public func startStandby() throws -> TestPostgresStandby {
        let name = lock.withLock {
            databases += 1
            return "standby-\(databases)"
        }
        let data = folder.appendingPathComponent(name).path
        let port = try Self.freePort()
        let environment = ["PGPASSWORD": password]
        let backup = [
            "-h", "127.0.0.1", "-p", "\(self.port)", "-U", user, "-D", data, "-R", "-X", "stream", "--no-sync",
            "--checkpoint=fast",
        ]
        if let runAs {
            try Self.run(
                URL(fileURLWithPath: "/usr/sbin/runuser"),
                [
                    "-u", runAs, "--", "/usr/bin/env", "PGPASSWORD=\(password)",
                    bin.appendingPathComponent("pg_basebackup").path,
                ]
                    + backup)
        } else {
            try Self.run(bin.appendingPathComponent("pg_basebackup"), backup, environment: environment)
        }
        // The standby's own connection to the primary, password included.
        let settings = "primary_conninfo = 'host=127.0.0.1 port=\(self.port) user=\(user) password=\(password)'\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/postgresql.auto.conf"))
        handle.seekToEndOfFile()
        handle.write(Data(settings.utf8))
        try handle.close()
        try stopWhenProcessEnds(data: data, thenDelete: data)
        try runAsServerUser(
            "pg_ctl",
            [
                "-D", data, "-l", data + ".log", "-w", "-t", "60", "-o",
                // A standby needs at least the primary's max_connections.
                "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c hot_standby=on -c fsync=off"
                    + " -c max_connections=300", "start",
            ])
        return TestPostgresStandby(
            server: self, port: port, data: data, stop: stopCommand(data: data),
            promote: (runAs.map { "/usr/sbin/runuser -u \($0) -- " } ?? "")
                + "\(bin.appendingPathComponent("pg_ctl").path) -D '\(data)' -w -t 60 promote")
    }

    private func runAsServerUser(_ tool: String, _ arguments: [String]) throws {
        let executable = bin.appendingPathComponent(tool)
        if let runAs {
            try Self.run(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", runAs, "--", executable.path] + arguments)
        } else {
            try Self.run(executable, arguments)
        }
    }

    // MARK: - Helpers

    static func findBinaries() -> URL? {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["DBB_PG_BIN"] {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            candidates.append(root.appendingPathComponent(version).appendingPathComponent("bin"))
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(directory)))
        }
        return candidates.first { directory in
            ["initdb", "pg_ctl", "createdb"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent($0).path)
            }
        }
    }

    static func userExists(_ name: String) -> Bool { getpwnam(name) != nil }

    /// Whether something accepts TCP connections on loopback port `port` now.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A loopback port no one listens on now.
    /// A loopback port nobody listens on now (bound to port 0, then released): for the test
    /// server, its standbys, and the examples' service instances.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestPostgresError(message: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw TestPostgresError(message: "cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Runs `executable` and waits for it, its output in a temporary file (read for the error
    /// message). `posix_spawn` and `waitpid` rather than Foundation's `Process`, whose exit
    /// monitoring hung here once `pg_ctl` had started the server.
    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        try spawn(executable, arguments, environment: environment, wait: true)
    }

    /// Runs `executable`; with `wait`, as ``run(_:_:environment:)``. Without, it is left running
    /// in a session of its own: a `timeout` that ends this process signals this process's whole
    /// group, and the watchers that clean up after this process must outlive it.
    @discardableResult
    static func spawn(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        wait: Bool
    ) throws -> String {
        if !wait, executable.path != "/usr/bin/setsid" {
            return try spawn(
                URL(fileURLWithPath: "/usr/bin/setsid"), [executable.path] + arguments, environment: environment,
                wait: false)
        }
        let outputPath =
            wait
            ? FileManager.default.temporaryDirectory.appendingPathComponent("dbb-pg-run-\(UUID().uuidString)").path
            : "/dev/null"
        defer { if wait { unlink(outputPath) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables =
            ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") } + [
                nil
            ]
        defer { for pointer in variables { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, variables)
        guard spawned == 0 else {
            throw TestPostgresError(message: "cannot run \(executable.path): \(String(cString: strerror(spawned)))")
        }
        guard wait else { return "" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitCode == 0 else {
            throw TestPostgresError(
                message: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) failed "
                    + "(\(exitCode)): \(text)")
        }
        return text
    }
}

/// A standby of the test server (``TestPostgresServer/startStandby()``).
public final class TestPostgresStandby: Sendable {
    public let port: Int
    private let server: TestPostgresServer
    private let data: String
    private let stopCommand: String
    private let promoteCommand: String

    init(server: TestPostgresServer, port: Int, data: String, stop: String, promote: String) {
        self.server = server
        self.port = port
        self.data = data
        stopCommand = stop
        promoteCommand = promote
    }

    /// Makes the standby a primary (`pg_ctl promote`), once it has replayed what it received;
    /// returns when it accepts writes.
    public func promote() throws {
        try TestPostgresServer.run(URL(fileURLWithPath: "/bin/sh"), ["-c", promoteCommand])
    }

    /// Kills the standby as ``TestPostgresServer/kill()`` kills a server.
    public func kill() throws { try TestPostgresServer.killCluster(data: data) }

    /// The URL of database `name` on the standby.
    public func url(database name: String) -> String {
        "postgres://\(server.user):\(server.password)@127.0.0.1:\(port)/\(name)?sslmode=disable"
    }

    /// Stops the standby now (`pg_ctl stop -m immediate`).
    public func stop() throws {
        try TestPostgresServer.run(URL(fileURLWithPath: "/bin/sh"), ["-c", stopCommand])
    }
}

/// Why the test server could not start.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}
