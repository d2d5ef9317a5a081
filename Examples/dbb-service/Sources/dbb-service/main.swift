import ArgumentParser
import DBBBuilder
import DBBService
import Hummingbird
import Logging

/// `dbb-service`: the example service, on SQLite or PostgreSQL.
@main
struct ServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbb-service",
        abstract: "Serve the demo's people, companies, projects and meetings as a JSON API.",
        discussion: """
            Endpoints: POST/GET /people, GET/PUT/DELETE /people/ID (likewise /companies, \
            /projects, /meetings); GET /reports/weekly?locale=de_DE&from=2010-12-13&to=2011-01-16; \
            GET /reports/weekly.html?locales=en_US,ru_RU,de_DE (a page: a chart and a table; \
            from and to as above, every parameter optional); GET /health; GET /metrics with \
            --metrics. With --otel-endpoint, the database's spans go to an OpenTelemetry \
            collector over OTLP/HTTP (ENDPOINT/v1/traces, service.name dbb-service). A PUT or \
            DELETE with If-Match (the ETag of a GET) lands only if the record is unchanged since. \
            Bodies are JSON (Content-Type: application/json). SIGTERM or SIGINT stops it \
            gracefully.

            Examples:
              dbb-service                                  # SQLite in ~/.config/dbb-service/
              dbb-service --database /tmp/s.sqlite --port 9000
              dbb-service --postgres postgres://app:secret@db/app \\
                --replica postgres://app:secret@db-replica/app
              dbb-service --postgres \\
                "postgres://app:secret@db1,db2/app?target_session_attrs=read-write" \\
                --replica "postgres://app:secret@db1,db2/app?target_session_attrs=prefer-standby" \\
                --answer-timeout 5 --statement-timeout 2
              curl -s localhost:8080/people -H 'Content-Type: application/json' \\
                -d '{"firstName":"Ada","lastName":"Lovelace"}'
              curl -s 'localhost:8080/people?lastName=Lovelace&sort=-age&limit=20'
              dbb-service --metrics --otel-endpoint http://127.0.0.1:4318
            """,
        version: DBBBuilderVersion.current)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: ArgumentHelp("The SQLite file (default: service.sqlite in the per-user folder).", valueName: "path"))
    var database: String?

    @Option(help: ArgumentHelp("Use this PostgreSQL database instead of SQLite.", valueName: "url"))
    var postgres: String?

    @Option(help: ArgumentHelp("A streaming replica of --postgres to read from (repeatable).", valueName: "url"))
    var replica: [String] = []

    @Option(
        help: ArgumentHelp(
            "With --postgres: close a connection whose server answers a statement nothing for this long "
                + "(a frozen server); the request gets 503.", valueName: "seconds"))
    var answerTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "With --postgres: the server cancels a statement that runs longer (statement_timeout); "
                + "the request gets 503, nothing stored.", valueName: "seconds"))
    var statementTimeout: Double?

    @Option(help: ArgumentHelp("The largest request body, in bytes.", valueName: "bytes"))
    var bodyLimit = 64 * 1024

    @Option(help: ArgumentHelp("Close a connection that sends nothing for this long.", valueName: "seconds"))
    var idleTimeout = 30

    @Option(help: ArgumentHelp("trace, debug, info (each request), notice, warning, error.", valueName: "level"))
    var logLevel = "info"

    @Flag(help: "Serve the database's metrics (and the process's) in Prometheus' text format at GET /metrics.")
    var metrics = false

    @Option(
        help: ArgumentHelp(
            "Export the database's spans over OTLP/HTTP to this OpenTelemetry collector, at URL/v1/traces "
                + "(e.g. http://127.0.0.1:4318); off by default.", valueName: "url"))
    var otelEndpoint: String?

    func validate() throws {
        if postgres != nil && database != nil { throw ValidationError("--database and --postgres exclude each other") }
        if postgres == nil && !replica.isEmpty { throw ValidationError("--replica needs --postgres") }
        if !(1...65_535).contains(port) { throw ValidationError("--port must be from 1 to 65535") }
        for (name, seconds) in [("--answer-timeout", answerTimeout), ("--statement-timeout", statementTimeout)] {
            guard let seconds else { continue }
            if postgres == nil { throw ValidationError("\(name) needs --postgres") }
            if !(seconds >= 0.001 && seconds <= 86_400) {
                throw ValidationError("\(name) must be from 0.001 to 86400 seconds")
            }
        }
        if let answerTimeout, let statementTimeout, answerTimeout <= statementTimeout {
            // Else the client closes the connection before the server's cancel, which keeps it, can come.
            throw ValidationError("--answer-timeout must be above --statement-timeout")
        }
        if bodyLimit < 1 { throw ValidationError("--body-limit must be at least 1") }
        if !(1...86_400).contains(idleTimeout) {
            throw ValidationError("--idle-timeout must be from 1 to 86400 seconds")
        }
        if let otelEndpoint {
            do { _ = try ServiceTracing.tracesURL(endpoint: otelEndpoint) } catch {
                throw ValidationError("--otel-endpoint: \(error)")
            }
        }
        if Logger.Level(rawValue: logLevel) == nil { throw ValidationError("--log-level: unknown level '\(logLevel)'") }
    }

    func run() async throws {
        var logger = Logger(label: "dbb-service")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let location: ServiceDatabase =
            postgres.map { .postgres(primary: $0, replicas: replica) } ?? .sqlite(path: database)
        // Before the manager opens: it takes the metrics backend and the tracer it finds then.
        let exporter = metrics ? ServiceMetrics.bootstrap() : nil
        let tracing = try otelEndpoint.map { try ServiceTracing.bootstrap(endpoint: $0, logger: logger) }
        if let tracing { logger.info("exporting traces", metadata: ["url": "\(tracing.tracesURL)"]) }
        logger.info("opening the database", metadata: ["database": "\(location.label)"])
        let deadlines = ServiceDatabase.Deadlines(
            answerTimeout: answerTimeout.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            statementTimeout: statementTimeout.map { .milliseconds(Int64(($0 * 1000).rounded())) })
        let manager = try await location.open(logger: logger, deadlines: deadlines)
        var settings = ServiceSettings()
        (settings.host, settings.port, settings.bodyLimit) = (host, port, bodyLimit)
        settings.idleTimeout = .seconds(idleTimeout)
        settings.metrics = exporter
        settings.tracing = tracing
        // Requests under way finish on SIGTERM/SIGINT before runService returns.
        try await makeApplication(manager: manager, settings: settings, logger: logger).runService()
        logger.info("stopped")
    }
}
