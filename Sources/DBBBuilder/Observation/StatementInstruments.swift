import Dispatch
import Metrics

/// The metrics of one manager, made once when it opens (only when a metrics backend is
/// bootstrapped): a counter for every statement kind and outcome, a timer for every operation
/// and transaction outcome, and the conflicts counter. Recording looks one up by index: no
/// metric object, label or dimension is made per call. The names are listed in the Metrics and
/// Traces article.
final class StatementInstruments: Sendable {
    /// `dbb_statements_total`, at `kind * outcomes + outcome`.
    private let statements: [Counter]
    /// `dbb_operation_duration_seconds`, by ``DatabaseOperation``.
    private let durations: [CoreMetrics.Timer]
    /// `dbb_transaction_duration_seconds`: committed, rolled back.
    private let committed: CoreMetrics.Timer
    private let rolledBack: CoreMetrics.Timer
    /// `dbb_conflicts_total`.
    private let conflicts: Counter

    init(system: String, namespace: String, factory: any MetricsFactory) {
        let base = [("db_system", system), ("db_namespace", namespace)]
        statements = StatementKind.allCases.flatMap { kind in
            StatementOutcome.allCases.map { outcome in
                Counter(
                    label: "dbb_statements_total",
                    dimensions: base + [("kind", kind.label), ("outcome", outcome.label)], factory: factory)
            }
        }
        durations = DatabaseOperation.allCases.map {
            CoreMetrics.Timer(
                label: "dbb_operation_duration_seconds", dimensions: base + [("operation", $0.label)],
                preferredDisplayUnit: .seconds, factory: factory)
        }
        committed = CoreMetrics.Timer(
            label: "dbb_transaction_duration_seconds", dimensions: base + [("outcome", "commit")],
            preferredDisplayUnit: .seconds, factory: factory)
        rolledBack = CoreMetrics.Timer(
            label: "dbb_transaction_duration_seconds", dimensions: base + [("outcome", "rollback")],
            preferredDisplayUnit: .seconds, factory: factory)
        conflicts = Counter(label: "dbb_conflicts_total", dimensions: base, factory: factory)
    }

    private static let outcomes = StatementOutcome.allCases.count

    /// The clock the durations are measured with, in nanoseconds.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Counts `count` statements of `kind` that ended with `outcome`.
    func count(_ kind: StatementKind, _ outcome: StatementOutcome, _ count: Int = 1) {
        guard count > 0 else { return }
        statements[kind.rawValue * Self.outcomes + outcome.rawValue].increment(by: count)
        if outcome == .conflict { conflicts.increment(by: count) }
    }

    /// Records the duration of `operation`, begun at `start` (``now``).
    func record(_ operation: DatabaseOperation, since start: UInt64) {
        durations[operation.rawValue].recordNanoseconds(Self.elapsed(since: start))
    }

    /// Records the duration of a transaction begun at `start` (``now``).
    func recordTransaction(committed: Bool, since start: UInt64) {
        (committed ? self.committed : rolledBack).recordNanoseconds(Self.elapsed(since: start))
    }

    private static func elapsed(since start: UInt64) -> Int64 {
        let end = now
        return end > start ? Int64(clamping: end - start) : 0
    }
}
