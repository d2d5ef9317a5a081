import ArgumentParser
import Foundation
import InMemoryTracing
import Metrics
import Tracing

@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract:
            "Measures DBBBuilder against the raw SQLite C API, GRDB and Fluent (and raw postgres-nio); prints Markdown tables.",
        discussion: """
            Each workload checks its contenders' results (row counts, sums) before it reports a time,
            and prints the median of several runs with the ratio to the first contender.

            Examples:
              swift run -c release --package-path Benchmarks bench
              swift run -c release --package-path Benchmarks bench --quick --filter week
              bash Benchmarks/postgres/bench.sh --quick      # the PostgreSQL workloads, on a throwaway server
            """)

    @Flag(help: "Smaller data and fewer iterations, for a quick look.")
    var quick = false

    @Option(help: "Run only the workloads whose name contains this text (case-insensitive).")
    var filter: String?

    @Option(
        help: """
            Run only the contenders whose name contains this text (or one of several, separated by |), \
            e.g. to count their instructions with perf stat, or --contender 'raw|DBB' to leave Fluent out.
            """)
    var contender: String?

    @Flag(
        help: """
            Prepare and run each contender once, untimed, to count its instructions: \
            valgrind --tool=callgrind --toggle-collect='*timedRegion*' bench --once --filter fetch --contender raw
            """)
    var once = false

    @Flag(
        help: """
            Run each contender once and print how much it raised the process's peak resident memory; \
            one contender a process gives figures that do not share a heap: \
            bench --memory --filter fetch --contender raw
            """)
    var memory = false

    @Flag(
        help: """
            Bootstrap a metrics backend (one that counts in memory, see BenchMetrics.swift) before \
            anything opens, to measure what DBBBuilder's metrics cost when they are recorded.
            """)
    var metrics = false

    @Flag(
        help: """
            Bootstrap a tracer (swift-distributed-tracing's InMemoryTracer, which keeps every span) \
            before anything opens, to measure what DBBBuilder's spans cost when they are recorded.
            """)
    var tracing = false

    @Option(
        help: """
            Instead of the workloads, a rolling deploy on a live PostgreSQL table of this many rows \
            (DBB_BENCH_POSTGRES): the longest wait of the old version's saves while the new version \
            registers behind a long report, with the registration's lock bound and without \
            (see Benchmarks/postgres/stall.sh).
            """)
    var deployStall: Int?

    @Option(
        help: """
            Instead of the workloads, the same upgrade on a SQLite file of this many rows: how long the \
            registration that rebuilds the table holds the database's writer.
            """)
    var sqliteRebuild: Int?

    /// The PostgreSQL workloads, when `DBB_BENCH_POSTGRES` names a server.
    private func postgresWorkloads(_ directory: URL) -> [(String, () throws -> Workload)] {
        guard let url = benchPostgresURL else { return [] }
        return [
            ("postgres insert", { try postgresInsertWorkload(rows: quick ? 5_000 : 50_000, url: url) }),
            ("postgres update", { try postgresUpdateWorkload(rows: quick ? 1_000 : 5_000, url: url) }),
            ("postgres fetch", { try postgresFetchWorkload(rows: quick ? 20_000 : 200_000, url: url) }),
            ("postgres weekly", { try postgresWeeklyWorkload(rows: quick ? 100_000 : 1_000_000, url: url) }),
            (
                "postgres references",
                { try referenceWorkload(objects: quick ? 2_000 : 20_000, url: url, directory: directory) }
            ),
        ]
    }

    func run() throws {
        if let rows = deployStall {
            guard let url = benchPostgresURL else { throw ValidationError("--deploy-stall needs DBB_BENCH_POSTGRES") }
            return try deployStallReport(url: url, rows: rows)
        }
        if let rows = sqliteRebuild {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dbb-rebuild-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            return try sqliteRebuildReport(rows: rows, directory: directory)
        }
        if metrics { MetricsSystem.bootstrap(CountingMetrics()) }
        if tracing { InstrumentationSystem.bootstrap(InMemoryTracer()) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dbb-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let iterations = quick ? 3 : 7
        let workloads: [(String, () throws -> Workload)] =
            [
                ("insert", { try insertWorkload(rows: quick ? 5_000 : 50_000, directory: directory) }),
                ("update", { try updateWorkload(rows: quick ? 5_000 : 50_000, directory: directory) }),
                ("single save", { try singleSaveWorkload(saves: quick ? 200 : 2_000, directory: directory) }),
                ("fetch", { try fetchWorkload(rows: quick ? 20_000 : 200_000, directory: directory) }),
                ("arrays", { try arrayWorkload(objects: quick ? 1_000 : 10_000, directory: directory) }),
                (
                    "weekly report",
                    { try weeklyReportWorkload(rows: quick ? 100_000 : 1_000_000, directory: directory) }
                ),
                ("typed report", { try typedReportWorkload(rows: quick ? 20_000 : 200_000, directory: directory) }),
                (
                    "typed point report",
                    { try typedPointReportWorkload(runs: quick ? 500 : 5_000, directory: directory) }
                ),
                ("typed fetch", { try typedFetchWorkload(runs: quick ? 500 : 5_000, directory: directory) }),
                ("per call", { try perCallWorkload(calls: quick ? 20_000 : 200_000, directory: directory) }),
                ("build import", { try importWorkload(rows: quick ? 20_000 : 200_000, directory: directory) }),
                ("build statements", { try statementsWorkload(rows: quick ? 1_000 : 5_000, directory: directory) }),
            ] + postgresWorkloads(directory)
        if benchPostgresURL == nil, filter.map({ "postgres".localizedCaseInsensitiveContains($0) }) ?? false {
            print("The PostgreSQL workloads need a server: set DBB_BENCH_POSTGRES, or run Benchmarks/postgres/bench.sh")
        }
        print("## DBBBuilder benchmarks (\(quick ? "quick" : "full"), median of \(iterations) runs)")
        for (name, make) in workloads where filter.map({ name.localizedCaseInsensitiveContains($0) }) ?? true {
            var workload = try make()
            if let contender {
                workload = Workload(
                    name: workload.name, summary: workload.summary, goals: workload.goals,
                    contenders: workload.contenders.filter { candidate in
                        contender.split(separator: "|").contains { candidate.name.localizedCaseInsensitiveContains($0) }
                    },
                    expectedChecksum: workload.expectedChecksum)
            }
            if memory {
                try reportMemory(workload)
            } else if once {
                try runOnce(workload)
            } else {
                try report(workload, iterations: iterations)
            }
        }
    }
}
