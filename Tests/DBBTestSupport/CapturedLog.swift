import DBBCore
import DBBSQLite
import Logging

/// The messages a test's `Logger` received, in order.
public final class CapturedLog: Sendable {
    /// One message.
    public struct Entry: Sendable {
        public let level: Logger.Level
        public let message: String
        public let metadata: [String: String]
    }

    private let storage = Locked<[Entry]>([])

    public init() {}

    /// A logger that records into this log, letting `level` and above through.
    public func logger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = level
        return logger
    }

    /// Everything recorded so far.
    public var entries: [Entry] { storage.withLock { $0 } }

    /// The recorded messages at `level`.
    public func entries(at level: Logger.Level) -> [Entry] { entries.filter { $0.level == level } }

    /// Forgets what was recorded.
    public func clear() { storage.withLock { $0.removeAll() } }

    fileprivate func record(_ entry: Entry) { storage.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            log.record(
                Entry(
                    level: event.level, message: "\(event.message)",
                    metadata: all.mapValues { "\($0)" }))
        }
    }
}
