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

    mutating func merge(_ other: WorkerStats) {
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
            | \(setup) | \(connections) | \(sorted.count) | \(rate) | \(percentile(0.5)) | \(percentile(0.99)) | \(stats.errors) | \(stats.conflicts) | \(stats.failovers) | \(check.acknowledged) | \(check.stored) | \(check.holds ? "holds" : "FAILS: \(check.missing) missing, \(check.duplicates) duplicated, \(check.unacknowledged) unacknowledged") |
            """
    }
}
