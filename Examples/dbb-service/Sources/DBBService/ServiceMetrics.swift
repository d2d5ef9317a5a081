import Hummingbird
import Metrics
import Prometheus

/// The service's metrics in Prometheus' text format: DBBBuilder's `dbb_…` metrics (see
/// DBBBuilder's Metrics and Traces article), and any the process records, served at
/// `GET /metrics` for a Prometheus server to scrape.
///
/// ``bootstrap()`` makes swift-prometheus the process's metrics backend. Call it once, before
/// the manager opens (a manager opened before records nothing), and put the result in
/// ``ServiceSettings/metrics``.
public struct ServiceMetrics: Sendable {
    /// Where the metrics are kept until a scrape reads them.
    public let registry: PrometheusCollectorRegistry

    /// Bootstraps `MetricsSystem` with a swift-prometheus factory on a new registry. Once a
    /// process: swift-metrics refuses a second bootstrap.
    public static func bootstrap() -> ServiceMetrics {
        let metrics = ServiceMetrics(registry: PrometheusCollectorRegistry())
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
        return metrics
    }

    /// Adds `GET /metrics` to `router`.
    func add(to router: Router<BasicRequestContext>) {
        router.get("metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
