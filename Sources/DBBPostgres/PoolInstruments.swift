import Dispatch
import Metrics

/// The metrics of one PostgreSQL pool (a primary's or a replica's), made once when it opens and
/// only when a metrics backend is bootstrapped: the time an operation waited for a place in the
/// pool, and how many connections are open, in use and idle. A pool without them holds `nil`
/// and records nothing (no clock read). The names are listed in DBBBuilder's Metrics and Traces
/// article.
final class PoolInstruments: Sendable {
    /// `dbb_pool_wait_duration_seconds`.
    private let wait: Metrics.Timer
    /// `dbb_pool_connections` by `state`.
    private let open: Gauge
    private let inUse: Gauge
    private let idle: Gauge

    /// The instruments of the pool of `database`, serving as `role` (`primary` or `replica`),
    /// or `nil` when no metrics backend is bootstrapped.
    static func resolve(database: String, role: String) -> PoolInstruments? {
        let factory = MetricsSystem.factory
        guard !(factory is NOOPMetricsHandler) else { return nil }
        return PoolInstruments(database: database, role: role, factory: factory)
    }

    private init(database: String, role: String, factory: any MetricsFactory) {
        let base = [("db_system", "postgresql"), ("db_namespace", database), ("pool", role)]
        wait = Metrics.Timer(
            label: "dbb_pool_wait_duration_seconds", dimensions: base, preferredDisplayUnit: .seconds,
            factory: factory)
        let gauge = { (state: String) in
            Gauge(label: "dbb_pool_connections", dimensions: base + [("state", state)], factory: factory)
        }
        (open, inUse, idle) = (gauge("open"), gauge("in_use"), gauge("idle"))
    }

    /// The clock waits are measured with, in nanoseconds.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Records a wait for a place in the pool begun at `start` (``now``).
    func waited(since start: UInt64) {
        let end = Self.now
        wait.recordNanoseconds(end > start ? Int64(clamping: end - start) : 0)
    }

    /// Records the pool's connections: `opened` open (or being opened), `idle` of them idle.
    func connections(opened: Int, idle idleCount: Int) {
        open.record(opened)
        idle.record(idleCount)
        inUse.record(max(0, opened - idleCount))
    }
}
