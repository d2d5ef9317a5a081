import DBBBuilder
import Foundation
import Logging

/// A manager on `url` for a DBBBuilder contender, with the statement logging that the
/// environment variable `DBB_BENCH_LOG` asks for, to measure what logging costs:
/// unset or `off`, none; `error`, a logger at `.error` (nothing timed); `warning`, a logger at
/// `.warning` with the default slow threshold (every statement timed, none logged); `trace`,
/// every statement timed and logged to a handler that drops it.
func benchManager(url: URL) throws -> DBBManager {
    let manager = try DBBManager(url: url)
    let level: Logger.Level? =
        switch ProcessInfo.processInfo.environment["DBB_BENCH_LOG"] {
        case "error": .error
        case "warning": .warning
        case "trace": .trace
        default: nil
        }
    if let level {
        var logger = Logger(label: "bench") { _ in DroppingHandler() }
        logger.logLevel = level
        manager.logging = StatementLogging(logger: logger)
    }
    return manager
}

/// Takes every message at its level and keeps none.
private struct DroppingHandler: LogHandler {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {}
}
