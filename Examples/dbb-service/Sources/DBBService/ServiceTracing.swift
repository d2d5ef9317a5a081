import Foundation
import Logging
import OTel
import ServiceLifecycle

/// The service's traces exported over OTLP/HTTP (protobuf) with swift-otel: DBBBuilder's spans
/// (see DBBBuilder's Metrics and Traces article) and any the process records, sent in batches
/// to an OpenTelemetry collector, with `service.name` = `dbb-service`.
///
/// ``bootstrap(endpoint:logger:environment:)`` makes swift-otel the process's tracer. Call it
/// once, before the manager opens (a manager opened before records no spans), and put the
/// result in ``ServiceSettings/tracing``: the application then runs ``service``, which sends
/// the spans in the background and, on a graceful shutdown, sends those still queued after
/// the HTTP server has stopped. Metrics and logs are not exported (metrics: ``ServiceMetrics``).
public struct ServiceTracing: Sendable {
    /// Where the spans go: the endpoint given to ``bootstrap(endpoint:logger:environment:)``
    /// followed by `/v1/traces`.
    public let tracesURL: String
    /// swift-otel's exporter and batch processor, to run alongside the HTTP server.
    public let service: any Service

    /// The OTLP/HTTP traces URL of a collector's base `endpoint` (`http://HOST:PORT`, optionally
    /// with a path): the endpoint followed by `/v1/traces`, as OpenTelemetry's
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` is read. Throws ``InvalidEndpoint`` for anything but an
    /// `http` or `https` URL with a host.
    public static func tracesURL(endpoint: String) throws -> String {
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil
        else { throw InvalidEndpoint(endpoint: endpoint) }
        return endpoint.hasSuffix("/") ? endpoint + "v1/traces" : endpoint + "/v1/traces"
    }

    /// An endpoint that is not an `http` or `https` URL with a host.
    public struct InvalidEndpoint: Error, CustomStringConvertible {
        /// The endpoint as given.
        public let endpoint: String
        /// What is wrong, with an example of a good endpoint.
        public var description: String {
            "'\(endpoint)' is not an http:// or https:// URL with a host (e.g. http://127.0.0.1:4318)"
        }
    }

    /// Bootstraps swift-otel's tracer (`InstrumentationSystem`), exporting to `endpoint`'s
    /// `/v1/traces` over OTLP/HTTP with protobuf bodies; swift-otel's metrics and logs stay off.
    /// Once a process: swift-distributed-tracing refuses a second bootstrap.
    ///
    /// - Parameters:
    ///   - endpoint: The collector's base URL, such as `http://127.0.0.1:4318`.
    ///   - logger: Where swift-otel reports its own trouble (a failed export, say).
    ///   - environment: OpenTelemetry's `OTEL_…` variables apply (`OTEL_SERVICE_NAME`,
    ///     `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_…`, headers and TLS
    ///     files), except those choosing the exporters, the endpoint or the protocol: this
    ///     function decides.
    public static func bootstrap(
        endpoint: String, logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> ServiceTracing {
        let tracesURL = try tracesURL(endpoint: endpoint)
        var configuration = OTel.Configuration.default
        configuration.serviceName = "dbb-service"
        configuration.diagnosticLogger = .custom(logger)
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.traces.otlpExporter.endpoint = tracesURL
        let overridden = [
            "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_TRACES_EXPORTER",
            "OTEL_METRICS_EXPORTER", "OTEL_LOGS_EXPORTER",
        ]
        let service = try OTel.bootstrap(
            configuration: configuration, environment: environment.filter { !overridden.contains($0.key) })
        return ServiceTracing(tracesURL: tracesURL, service: service)
    }
}
