import Hummingbird
import Logging

/// Logs each request once it is answered: method, path, status and duration in milliseconds,
/// with the request id Hummingbird gives its logger (`hb.request.id`).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, since: start)
            return response
        } catch {
            log(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let milliseconds = (ContinuousClock.now - start) / .milliseconds(1)
        context.logger.log(
            level: level, "\(request.method.rawValue) \(request.uri.path) \(status)",
            metadata: ["duration_ms": "\((milliseconds * 1000).rounded() / 1000)", "status": "\(status)"])
    }
}
