import Foundation

/// A highly available PostgreSQL on loopback, run by pg_auto_failover (Debian's
/// `postgresql-15-auto-failover`): a monitor and two nodes, a primary and a secondary with
/// synchronous replication (`synchronous_commit = on`, the secondary in
/// `synchronous_standby_names`), each node under its `pg_autoctl` keeper. When the primary's
/// node dies, the monitor promotes the secondary; what the primary acknowledged, the secondary
/// had.
///
/// The monitor is quicker than by default: it checks each node's health every second (every
/// 5 s by default), takes a node that failed its checks for 5 s as down (20 s), and then gives
/// an unreachable primary 10 s to demote itself (30 s) before the promoted node takes writes
/// alone — so writes resume about 15 s after the primary's death, where the defaults take 50. Authentication is `trust` on loopback, as the
/// OS user that runs the servers (`postgres` when the tests run as root).
///
/// Everything lives in a temporary folder, and every process is killed and the folder deleted
/// once the test process is gone. Without `pg_autoctl`, ``start()`` returns `nil` after printing
/// why — unless `DBB_REQUIRE_FAILOVER` is set (CI), when it fails.
public final class TestFailoverCluster: Sendable {
    /// The monitor's port.
    public let monitorPort: Int
    /// The nodes' ports; node 0 starts as the primary.
    public let nodePorts: [Int]
    /// The database the nodes were made with.
    public let database = "app"
    /// The user the URLs connect as (trusted on loopback).
    public let user: String
    private let folder: String
    private let bin: String
    private let runAs: String?

    /// `postgres://USER@127.0.0.1:P0,127.0.0.1:P1/app?sslmode=disable&target_session_attrs=…`
    public func url(targetSessionAttributes: String = "read-write") -> String {
        let hosts = nodePorts.map { "127.0.0.1:\($0)" }.joined(separator: ",")
        return "postgres://\(user)@\(hosts)/\(database)?sslmode=disable&target_session_attrs=\(targetSessionAttributes)"
    }

    /// The URL of one node alone.
    public func url(node: Int) -> String {
        "postgres://\(user)@127.0.0.1:\(nodePorts[node])/\(database)?sslmode=disable"
    }

    /// Starts the monitor and both nodes and returns once node 0 is the primary and node 1
    /// its synchronous secondary (about half a minute).
    public static func start() throws -> TestFailoverCluster? {
        let autoctl = "/usr/bin/pg_autoctl"
        guard FileManager.default.isExecutableFile(atPath: autoctl), let bin = TestPostgresServer.findBinaries() else {
            let missing = "pg_autoctl (apt-get install postgresql-15-auto-failover) or the PostgreSQL server binaries"
            if ProcessInfo.processInfo.environment["DBB_REQUIRE_FAILOVER"] != nil {
                throw TestPostgresError(message: "\(missing) not found, and DBB_REQUIRE_FAILOVER is set")
            }
            print("Skipping the failover tests: \(missing) not found")
            return nil
        }
        let runAs: String? = geteuid() == 0 ? (TestPostgresServer.userExists("postgres") ? "postgres" : "nobody") : nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbb-ha-\(UUID().uuidString)").path
        for sub in ["config", "data", "run"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        if let runAs { try TestPostgresServer.run(URL(fileURLWithPath: "/bin/chown"), ["-R", runAs, folder]) }
        let cluster = TestFailoverCluster(
            monitorPort: try TestPostgresServer.freePort(),
            nodePorts: [try TestPostgresServer.freePort(), try TestPostgresServer.freePort()],
            user: runAs ?? NSUserName(), folder: folder, bin: bin.path, runAs: runAs)
        try cluster.cleanUpWhenProcessEnds()
        try cluster.startAll()
        return cluster
    }

    private init(monitorPort: Int, nodePorts: [Int], user: String, folder: String, bin: String, runAs: String?) {
        self.monitorPort = monitorPort
        self.nodePorts = nodePorts
        self.user = user
        self.folder = folder
        self.bin = bin
        self.runAs = runAs
    }

    private func startAll() throws {
        try keep(
            "monitor",
            "create monitor --pgdata '\(folder)/monitor' --pgport \(monitorPort) --auth trust --no-ssl --hostname 127.0.0.1"
        )
        try waitUntil("the monitor is ready", seconds: 120) {
            ((try? String(contentsOfFile: "\(folder)/monitor.log", encoding: .utf8)) ?? "")
                .contains("Contacting the monitor to LISTEN")
        }
        try sql(
            port: monitorPort, database: "pg_auto_failover",
            "ALTER SYSTEM SET pgautofailover.health_check_period = 1000",
            "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 5000",
            "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 10000", "SELECT pg_reload_conf()")
        for (index, port) in nodePorts.enumerated() {
            try keep(
                "node\(index)",
                "create postgres --pgdata '\(folder)/node\(index)' --pgport \(port) --monitor "
                    + "'postgres://autoctl_node@127.0.0.1:\(monitorPort)/pg_auto_failover?sslmode=disable' "
                    + "--auth trust --no-ssl --hostname 127.0.0.1 --dbname \(database)")
            try waitUntil("node \(index) has joined", seconds: 240) {
                // The new node's base backup waits for a checkpoint of the primary: ask for one.
                if index > 0 { _ = try? sql(port: nodePorts[0], database: database, "CHECKPOINT") }
                let states = (try? self.states()) ?? []
                return index == 0 ? states == ["single"] : states == ["primary", "secondary"]
            }
        }
    }

    /// The state each node reported to the monitor, in node order: `primary`, `secondary`,
    /// `wait_primary`, `demoted`, `stop_replication`…
    public func states() throws -> [String] {
        try sql(
            port: monitorPort, database: "pg_auto_failover",
            "SELECT reportedstate FROM pgautofailover.node ORDER BY nodeid"
        ).split(separator: "\n").map(String.init)
    }

    /// The monitor's events, oldest first: when each node reported or was assigned which state,
    /// and why. For a report when a test fails.
    public func events() -> String {
        (try? sql(
            port: monitorPort, database: "pg_auto_failover",
            "SELECT to_char(eventtime, 'HH24:MI:SS.MS') || ' ' || nodename || ' ' || reportedstate || ' -> ' || goalstate "
                + "|| ' lsn ' || reportedlsn || ': ' || description FROM pgautofailover.event ORDER BY eventid")) ?? ""
    }

    /// Kills node `index` as the death of its machine would: its keeper and every process of
    /// its server SIGKILLed, nothing shut down.
    public func killNode(_ index: Int) throws {
        let data = "\(folder)/node\(index)"
        let group = try String(contentsOfFile: "\(folder)/node\(index).group", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let postmaster =
            (try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8))?
            .split(separator: "\n").first.map(String.init) ?? ""
        // Stopped first, so that none restarts another; the server's processes by their postmaster,
        // in case they left the keeper's group.
        try TestPostgresServer.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "/bin/kill -STOP -- -\(group); [ -n '\(postmaster)' ] && kill -STOP \(postmaster); "
                    + "/bin/kill -KILL -- -\(group); [ -n '\(postmaster)' ] && pkill -KILL -P \(postmaster); "
                    + "[ -n '\(postmaster)' ] && kill -KILL \(postmaster); true",
            ])
    }

    /// Runs `statements` with psql as the servers' user, returning the unaligned rows.
    @discardableResult
    public func sql(port: Int, database: String, _ statements: String...) throws -> String {
        let commands = statements.flatMap { ["-c", $0] }
        return try serverUser(
            bin + "/psql", ["-X", "-A", "-t", "-q", "-h", "127.0.0.1", "-p", "\(port)", "-d", database] + commands
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Helpers

    /// Starts `pg_autoctl ARGUMENTS --run` (ARGUMENTS holding `--pgdata FOLDER/NAME`), which
    /// keeps running, its output in NAME.log, in a process group of its own whose id goes to
    /// NAME.group: pg_autoctl renames the processes it starts, so only their group finds them all.
    private func keep(_ name: String, _ arguments: String) throws {
        let command =
            "exec setsid \(prefix) /usr/bin/pg_autoctl \(arguments) --run > '\(folder)/\(name).log' 2>&1 < /dev/null"
        try TestPostgresServer.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", command], wait: false)
        // The group is the one of the process that keeps its command line (setsid may have forked).
        let marker = "--pgdata \(folder)/\(name) "
        var group: String?
        try waitUntil("pg_autoctl for \(name) runs", seconds: 30) {
            let processes = try TestPostgresServer.run(URL(fileURLWithPath: "/bin/ps"), ["-eo", "pgid=,args="])
            group = processes.split(separator: "\n").first {
                $0.contains("/usr/bin/pg_autoctl create") && $0.contains(marker)
            }?.split(separator: " ").first.map(String.init)
            return group != nil
        }
        try group!.write(toFile: "\(folder)/\(name).group", atomically: true, encoding: .utf8)
    }

    /// Runs `executable` as the servers' user, with pg_auto_failover's environment.
    private func serverUser(_ executable: String, _ arguments: [String]) throws -> String {
        let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try TestPostgresServer.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "cd / && \(prefix) " + quoted.joined(separator: " ")])
    }

    /// The command prefix: the servers' user, a PATH with the server binaries and pg_autoctl's
    /// folders in the temporary folder.
    private var prefix: String {
        let environment =
            "env PATH='\(bin):/usr/bin:/bin' XDG_CONFIG_HOME='\(folder)/config' XDG_DATA_HOME='\(folder)/data' "
            + "XDG_RUNTIME_DIR='\(folder)/run'"
        return (runAs.map { "/usr/sbin/runuser -u \($0) -- " } ?? "") + environment
    }

    private func waitUntil(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else {
                let log = (try? String(contentsOfFile: "\(folder)/monitor.log", encoding: .utf8)) ?? ""
                throw TestPostgresError(message: "never: \(what) (monitor log: \(log.suffix(2000)))")
            }
            Thread.sleep(forTimeInterval: 0.5)
        }
    }

    /// Leaves a watcher that kills every process of the cluster and deletes its folder once
    /// this process is gone.
    ///
    /// The keepers are stopped first, so that they restart nothing. Then each server's processes
    /// are killed, found as children of their postmaster, which is stopped so that it starts none
    /// and kept alive so that they stay its children (each is a process group of its own; once
    /// orphaned, the monitor's logger and health-check worker lived on). Then the keepers' groups
    /// go, then any server process left (its data folder is in its command line). The folder is
    /// passed in the environment: in the watcher's own command line, `pkill -f` would find the
    /// watcher too.
    private func cleanUpWhenProcessEnds() throws {
        let script =
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; "
            + #"for g in "$DBB_HA"/*.group; do /bin/kill -STOP -- -"$(cat "$g")"; done; "#
            + #"for p in "$DBB_HA"/*/postmaster.pid; do m=$(head -1 "$p" 2>/dev/null); [ -n "$m" ] || continue; "#
            + #"kill -STOP "$m"; pkill -KILL -P "$m"; kill -KILL "$m"; done; "#
            + #"for g in "$DBB_HA"/*.group; do /bin/kill -KILL -- -"$(cat "$g")"; done; "#
            + #"pkill -KILL -f -- "$DBB_HA"; sleep 1; pkill -KILL -f -- "$DBB_HA"; rm -rf "$DBB_HA""#
        try TestPostgresServer.spawn(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: ["DBB_HA": folder], wait: false)
    }
}
