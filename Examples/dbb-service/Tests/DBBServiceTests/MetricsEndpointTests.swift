import DBBService
import DBBTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

/// The process's Prometheus exporter: swift-metrics takes one bootstrap a process, before the
/// managers that record into it open.
enum PrometheusForTests {
    static let shared = ServiceMetrics.bootstrap()
}

@Suite("GET /metrics: DBBBuilder's metrics in Prometheus' text format")
struct MetricsEndpointTests {
    @Test("after a request, the scrape holds the statements it ran", arguments: Backend.allCases)
    func scrapeAfterARequest(_ backend: Backend) async throws {
        let metrics = PrometheusForTests.shared
        guard let harness = try ServiceHarness(backend) else { return }
        var logger = Logger(label: "dbb-service-tests")
        logger.logLevel = .warning
        let manager = try await harness.database.open(logger: logger, deadlines: .init())
        var settings = ServiceSettings()
        settings.requestLogLevel = nil
        settings.metrics = metrics
        let app = makeApplication(manager: manager, settings: settings, logger: logger)
        try await app.test(.router) { client in
            let body = ByteBuffer(string: #"{"firstName":"Ada","lastName":"Lovelace"}"#)
            try await client.execute(
                uri: "/people", method: .post, headers: [.contentType: "application/json"], body: body
            ) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                let text = String(buffer: response.body)
                let system = backend == .sqlite ? "sqlite" : "postgresql"
                let inserts = text.split(separator: "\n").filter {
                    $0.hasPrefix("dbb_statements_total{") && $0.contains(#"kind="insert""#)
                        && $0.contains(#"outcome="ok""#) && $0.contains(#"db_system="\#(system)""#)
                }
                #expect(!inserts.isEmpty, "\(text.prefix(2_000))")
                #expect(inserts.contains { !$0.hasSuffix(" 0") })
                #expect(text.contains("# TYPE dbb_statements_total counter"))
                #expect(text.contains("dbb_operation_duration_seconds"))
            }
        }
    }
}
