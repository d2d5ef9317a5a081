import Metrics

/// `dbb_replica_fallbacks_total`: reads meant for a replica that went to the primary, because
/// the replica had not replayed this manager's last write (`reason` `lagging`) or could not
/// serve (`unavailable`: unreachable, or it cancelled the read to replay WAL). Made once when
/// the manager opens, only when a metrics backend is bootstrapped.
final class ReplicaInstruments: Sendable {
    private let lagging: Counter
    private let unavailable: Counter

    /// The counters of the replicas of `database`, or `nil` when no metrics backend is bootstrapped.
    static func resolve(database: String) -> ReplicaInstruments? {
        let factory = MetricsSystem.factory
        guard !(factory is NOOPMetricsHandler) else { return nil }
        return ReplicaInstruments(database: database, factory: factory)
    }

    private init(database: String, factory: any MetricsFactory) {
        let counter = { (reason: String) in
            Counter(
                label: "dbb_replica_fallbacks_total",
                dimensions: [("db_system", "postgresql"), ("db_namespace", database), ("reason", reason)],
                factory: factory)
        }
        (lagging, unavailable) = (counter("lagging"), counter("unavailable"))
    }

    /// Counts a read that went to the primary.
    func fellBack(lagging: Bool) {
        (lagging ? self.lagging : unavailable).increment()
    }
}
