import ArgumentParser
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation

/// `dbb-service-load`: starts dbb-service instances on a fresh database, drives a mixed
/// workload at them for a fixed time, optionally SIGKILLs one instance midway and restarts it,
/// then checks the database against the client's tally of acknowledged creates.
@main
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbb-service-load",
        abstract: "Measure dbb-service under a mixed load, with an instance killed midway.",
        discussion: """
            Setups: sqlite (one instance on a SQLite file), postgres (two instances on one \
            PostgreSQL primary; one is SIGKILLed at 40% of the run and restarted 2 s later), \
            replica (the same, reads served by a streaming replica), failover (two instances on \
            a pg_auto_failover primary and synchronous secondary, given both; every process of \
            the primary's node is SIGKILLed at 25% of the run, and the monitor promotes the \
            secondary). PostgreSQL is a throwaway \
            cluster in a temporary folder on a loopback port (DBBTestSupport). The workload: 40% \
            GET /people/ID, 15% list pages, 20% creates (companies, each with a unique name, \
            tallied when acknowledged), 15% read-then-PUT with If-Match, 10% weekly reports.

            With a command after `--`, there is no load: the setup's database and one instance \
            are started, the command runs with DBB_SERVICE_URL (the instance's base URL), \
            DBB_SERVICE_DATABASE (the SQLite path or PostgreSQL URL) and DBB_SERVICE_SETUP in its \
            environment, the instance is stopped, and the exit status is the command's (on a \
            failure, the end of the instance's log is printed). .ci/service-fuzz runs schemathesis so.

            Examples:
              swift build -c release
              .build/release/dbb-service-load --setup sqlite --duration 20
              .build/release/dbb-service-load --setup postgres --connections 16
              .build/release/dbb-service-load --setup failover --duration 60
              .build/release/dbb-service-load --setup postgres -- sh -c 'curl -s $DBB_SERVICE_URL/health'
            """)

    enum Setup: String, ExpressibleByArgument, CaseIterable {
        case sqlite, postgres, replica, failover
    }

    @Option(help: "sqlite, postgres, replica or failover.")
    var setup: Setup = .sqlite

    @Option(help: "Seconds of load.")
    var duration = 20.0

    @Option(help: "Concurrent client connections.")
    var connections = 16

    @Option(help: ArgumentHelp("The dbb-service binary (default: next to this one).", valueName: "path"))
    var service: String?

    @Flag(help: "Do not kill an instance or the primary (postgres, replica and failover setups).")
    var noKill = false

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp("A command to run against one instance instead of the load.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard duration >= 2, duration <= 600 else { throw ValidationError("--duration must be from 2 to 600 seconds") }
        guard (1...256).contains(connections) else { throw ValidationError("--connections must be from 1 to 256") }
    }

    func run() async throws {
        let binary =
            service
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("dbb-service").path
        if !command.isEmpty {
            try await runCommand(binary: binary)
            return
        }
        let deployment = try await Deployment.start(setup, binary: binary)
        defer { deployment.stopAll() }
        let workload = try await Workload(deployment: deployment, connections: connections)
        let disruption: Workload.Disruption? =
            switch setup {
            case _ where noKill: nil
            case .sqlite: nil
            case .postgres, .replica: .killSecondInstance(at: duration * 0.4)
            case .failover: .killPrimary(at: duration * 0.25)
            }
        let result = try await workload.run(seconds: duration, connections: connections, disruption: disruption)
        let check = try await deployment.verify(
            workload.prefix, acknowledged: result.acknowledged, unknown: result.stats.unknown)
        print(result.report(setup: setup.rawValue, connections: connections, check: check))
        print()
        print(result.failuresReport())
        print()
        print(result.kindsReport())
        if !check.holds { throw ExitCode(1) }
    }

    /// Runs ``command`` against one instance of the setup; its exit status is this command's.
    private func runCommand(binary: String) async throws {
        let deployment = try await Deployment.start(setup, binary: binary, single: true)
        defer { deployment.stopAll() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        var environment = ProcessInfo.processInfo.environment
        environment["DBB_SERVICE_URL"] = "http://127.0.0.1:\(deployment.ports[0])"
        environment["DBB_SERVICE_DATABASE"] = deployment.databaseLocation
        environment["DBB_SERVICE_SETUP"] = setup.rawValue
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let log = deployment.log(of: 0).split(separator: "\n").suffix(40)
            if !log.isEmpty {
                let text = "dbb-service-load: the end of the instance's log:\n\(log.joined(separator: "\n"))\n"
                FileHandle.standardError.write(Data(text.utf8))
            }
            throw ExitCode(process.terminationReason == .exit ? process.terminationStatus : 1)
        }
    }
}
