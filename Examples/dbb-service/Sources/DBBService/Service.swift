import DBBBuilder
import Hummingbird
import Logging

/// The service's settings besides its database.
public struct ServiceSettings: Sendable {
    /// Where to listen: 127.0.0.1:8080 by default.
    public var host = "127.0.0.1"
    public var port = 8080
    /// The largest request body accepted; a larger one is answered 413.
    public var bodyLimit = 64 * 1024
    /// Each request's method, path, status and duration at this level (`nil`: not logged).
    public var requestLogLevel: Logger.Level? = .info
    /// A connection that sends nothing for this long is closed: a client stalled in the middle
    /// of a request neither holds a connection for ever nor delays a graceful shutdown.
    public var idleTimeout: Duration = .seconds(30)
    /// Serves `GET /metrics` from this exporter (`nil`: no such route). See ``ServiceMetrics``.
    public var metrics: ServiceMetrics?
    /// Runs this exporter's background service with the application, stopped after the HTTP
    /// server so that the last requests' spans are sent (`nil`: nothing exported). See
    /// ``ServiceTracing``.
    public var tracing: ServiceTracing?

    public init() {}
}

/// The service's router: every endpoint, JSON errors, request logging.
public func makeRouter(manager: DBBManager, settings: ServiceSettings = ServiceSettings())
    -> Router<BasicRequestContext>
{
    let router = Router()
    if let level = settings.requestLogLevel { router.add(middleware: RequestLogMiddleware(level: level)) }
    router.add(middleware: JSONErrorMiddleware())
    router.get("health") { _, _ in try await health(manager) }
    ResourceRoutes<Companies>(manager: manager, bodyLimit: settings.bodyLimit).add(to: router)
    ResourceRoutes<People>(manager: manager, bodyLimit: settings.bodyLimit).add(to: router)
    ResourceRoutes<Projects>(manager: manager, bodyLimit: settings.bodyLimit).add(to: router)
    ResourceRoutes<Meetings>(manager: manager, bodyLimit: settings.bodyLimit).add(to: router)
    WeeklyReportRoute(manager: manager).add(to: router)
    WeeklyReportPageRoute(manager: manager).add(to: router)
    settings.metrics?.add(to: router)
    return router
}

/// The service as a Hummingbird application: run it with `runService()` (graceful shutdown on
/// SIGTERM and SIGINT: requests under way finish, new connections are refused), or test it.
public func makeApplication(manager: DBBManager, settings: ServiceSettings = ServiceSettings(), logger: Logger)
    -> some ApplicationProtocol
{
    let (seconds, attoseconds) = settings.idleTimeout.components
    var application = Application(
        router: makeRouter(manager: manager, settings: settings),
        server: .http1(
            configuration: .init(idleTimeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "dbb-service"),
        logger: logger)
    // Before the server in the application's service group, which stops its services in
    // reverse order: the exporter sends what the server's last requests recorded, then stops.
    if let tracing = settings.tracing { application.addServices(tracing.service) }
    return application
}

/// `GET /health`: 200 `{"status": "ok"}` when the database answers, 503 otherwise.
private func health(_ manager: DBBManager) async throws -> Response {
    struct Health: Encodable, Sendable {
        let status: String
    }
    do {
        _ = try await manager.perform { try $0.query("SELECT 1") }
        return try JSONResponse.make(.ok, Health(status: "ok"))
    } catch {
        // The details (host, database, the driver's words) go to the log, not to the client.
        Logger(label: "dbb-service").error("health check failed", metadata: ["error": "\(error)"])
        throw APIError(.serviceUnavailable, "the database does not answer")
    }
}

/// Answers every failure in JSON: the service's own ``APIError``s, Hummingbird's (an unknown
/// path, a wrong method), and — as 500, or 503 when the database is unreachable, logged with
/// the request — what is not the client's doing, without its details (503 also when it did
/// not answer in time: nothing was stored, and the client may try again). A 503's body says
/// which it is in `outcome`: `not-stored` (with `Retry-After`) or `unknown` (look first).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as HTTPError {
            throw APIError(error.status, error.body ?? error.status.reasonPhrase)
        } catch let error as DBBError where error.kind == .commitOutcomeUnknown {
            // The connection went while the write's commit was on its way: only the database knows.
            context.logger.error("commit outcome unknown", metadata: ["error": "\(error)"])
            throw APIError(
                .serviceUnavailable,
                "the database did not confirm the write: it may or may not be stored; look for it before repeating it",
                outcome: .unknown)
        } catch let error as DBBError where error.kind == .unavailable || error.kind == .timedOut {
            context.logger.error("database unavailable", metadata: ["error": "\(error)"])
            throw APIError(.serviceUnavailable, "the database is unavailable; try again", outcome: .notStored)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            throw APIError(.internalServerError, "internal error (logged by the service)")
        }
    }
}
