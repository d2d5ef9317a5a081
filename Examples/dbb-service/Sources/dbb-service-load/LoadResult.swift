import Foundation

/// What one worker saw.
struct WorkerStats: Sendable {
    /// Milliseconds of each answered request.
    var latencies: [Double] = []
    /// The same, by kind of request (`GET /people/ID`, `POST /companies`…).
    var latenciesByKind: [String: [Double]] = [:]
    var errors = 0
    var conflicts = 0
    var failovers = 0
    /// The names of the companies whose create was acknowledged.
    var acknowledged: Set<String> = []
    /// The creates the service answered "may or may not be stored" (a commit whose outcome is unknown).
    var unknown: Set<String> = []
    /// The failed requests, by status (`no answer` when no instance answered).
    var failures: [String: Int] = [:]
    /// When each create was answered, and whether it was acknowledged.
    var creates: [(at: ContinuousClock.Instant, acknowledged: Bool)] = []

    mutating func merge(_ other: WorkerStats) {
        unknown.formUnion(other.unknown)
        failures.merge(other.failures, uniquingKeysWith: +)
        creates += other.creates
        latencies += other.latencies
        latenciesByKind.merge(other.latenciesByKind, uniquingKeysWith: +)
        (errors, conflicts, failovers) = (
            errors + other.errors, conflicts + other.conflicts, failovers + other.failovers
        )
        acknowledged.formUnion(other.acknowledged)
    }
}

/// A run's numbers.
struct LoadResult: Sendable {
    let stats: WorkerStats
    let seconds: Double

    var acknowledged: Set<String> { stats.acknowledged }

    /// The seconds from the first failed create to the first acknowledged one after it: how long
    /// writes were down; `nil` when no create failed, or none succeeded after.
    var writesDown: Double? {
        let sorted = stats.creates.sorted { $0.at < $1.at }
        guard let failed = sorted.first(where: { !$0.acknowledged })?.at,
            let back = sorted.first(where: { $0.acknowledged && $0.at > failed })?.at
        else { return nil }
        return (back - failed) / .seconds(1)
    }

    /// The failed requests by status, and how long writes were down.
    func failuresReport() -> String {
        let failures = stats.failures.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
        let down = writesDown.map { String(format: "%.1f s", $0) } ?? "never"
        return "Failed requests: \(failures.isEmpty ? "none" : failures.joined(separator: ", ")); "
            + "writes were down \(down) (the first failed create to the first acknowledged one after it)"
    }

    /// The `p` percentile of `sorted` milliseconds, as text.
    private static func percentile(_ p: Double, of sorted: [Double]) -> String {
        sorted.isEmpty ? "-" : String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
    }

    /// Each kind of request: how many were answered, their median and 99th percentile.
    func kindsReport() -> String {
        let rows = stats.latenciesByKind.sorted { $0.key < $1.key }.map { kind, latencies in
            let sorted = latencies.sorted()
            return
                "| \(kind) | \(sorted.count) | \(Self.percentile(0.5, of: sorted)) | \(Self.percentile(0.99, of: sorted)) |"
        }
        return (["| request | answered | p50 ms | p99 ms |", "|---|---|---|---|"] + rows).joined(separator: "\n")
    }

    func report(setup: String, connections: Int, check: Check) -> String {
        let sorted = stats.latencies.sorted()
        func percentile(_ p: Double) -> String { Self.percentile(p, of: sorted) }
        let rate = String(format: "%.0f", Double(sorted.count) / seconds)
        return """
            | setup | connections | requests | req/s | p50 ms | p99 ms | errors | 412 | failovers | acked creates | rows | check |
            |---|---|---|---|---|---|---|---|---|---|---|---|
            | \(setup) | \(connections) | \(sorted.count) | \(rate) | \(percentile(0.5)) | \(percentile(0.99)) | \(stats.errors) | \(stats.conflicts) | \(stats.failovers) | \(check.acknowledged) | \(check.stored) | \(check.holds ? "holds" : "FAILS: \(check.missing) missing, \(check.duplicates) duplicated, \(check.unacknowledged) unacknowledged")\(check.unknown > 0 ? " (\(check.unknown) outcomes unknown, \(check.unknownStored) found stored)" : "") |
            """
    }
}
