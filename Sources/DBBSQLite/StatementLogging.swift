import Logging

/// How a connection (or a `DBBManager`'s connections) log their statements through
/// [swift-log](https://github.com/apple/swift-log).
///
/// | level | what |
/// | --- | --- |
/// | `.trace` | every statement as it finishes, with its SQL and `duration_ms` |
/// | `.warning` | a statement that ran for ``slowStatementThreshold`` or longer |
/// | `.error` | a statement that failed, with its SQL and the error |
///
/// The SQL is the text as prepared, with its `?` placeholders. Argument values may be
/// personal data, so they are logged only when ``includesArgumentValues`` is set: SQLite adds
/// `expanded_sql` (the statement with its bound values in place), PostgreSQL `arguments`.
/// Without it, what an error message quotes (`'…'`: SQLite and the locale functions quote the
/// value they refuse) is left out of the logged `error`.
///
/// A statement's duration runs from its first step to its end (its last row, or its reset):
/// it includes what the caller does between rows. A slow statement is logged once, at
/// `.warning`. A statement already running when the logging is set is not logged.
///
/// Statements are timed only when the logger's level lets `.trace` through, or `.warning`
/// with a threshold set: at `.error`, `.critical` or with no logging, a statement runs exactly
/// as it would without. The level is read when the logging is installed; install it again
/// after changing the level.
///
/// ```swift
/// var logger = Logger(label: "app.db")
/// logger.logLevel = .warning
/// connection.logging = StatementLogging(logger: logger, slowStatementThreshold: .milliseconds(50))
/// ```
public struct StatementLogging: Sendable {
    /// Where the messages go.
    public var logger: Logger

    /// The duration from which a statement is logged at `.warning`; `nil` logs none as slow.
    public var slowStatementThreshold: Duration?

    /// Whether messages carry the statements' argument values (off by default: they may be
    /// personal data).
    public var includesArgumentValues: Bool

    /// Logging through `logger`.
    ///
    /// - Parameters:
    ///   - logger: where the messages go; its level decides what is timed and logged.
    ///   - slowStatementThreshold: statements running this long or longer are logged at
    ///     `.warning`; `nil` for none.
    ///   - includesArgumentValues: whether messages carry argument values.
    public init(
        logger: Logger, slowStatementThreshold: Duration? = .milliseconds(500), includesArgumentValues: Bool = false
    ) {
        self.logger = logger
        self.slowStatementThreshold = slowStatementThreshold
        self.includesArgumentValues = includesArgumentValues
    }

    /// Which finished statements the logger's level and the threshold let through, read once
    /// when a backend installs the logging, so that a statement costs a compare.
    @_spi(DBBBackend)
    public struct Plan: Sendable {
        /// Every statement is logged: the logger takes `.trace`.
        public let logsEvery: Bool
        /// The duration, in nanoseconds, from which a statement is logged as slow (`.max`: never).
        public let slowFrom: UInt64

        /// Whether statements must be timed at all.
        public var timesStatements: Bool { logsEvery || slowFrom != .max }

        /// Whether a statement that ran for `nanoseconds` is logged.
        public func logs(_ nanoseconds: UInt64) -> Bool { logsEvery || nanoseconds >= slowFrom }
    }

    /// The plan for the logger's level now.
    @_spi(DBBBackend)
    public var plan: Plan {
        let level = logger.logLevel
        return Plan(
            logsEvery: level <= .trace,
            slowFrom: level <= .warning ? slowStatementThreshold?.nanosecondCount ?? .max : .max)
    }

    /// Logs a statement that ran for `nanoseconds`: at `.trace`, or at `.warning` when slow.
    /// `arguments` is asked for (and added under `key`) only when the values are to be logged.
    @_spi(DBBBackend)
    public func finished(
        _ sql: String, nanoseconds: UInt64, arguments key: String, _ arguments: () -> String?
    ) {
        let slow = slowStatementThreshold.map { nanoseconds >= $0.nanosecondCount } ?? false
        let level: Logger.Level = slow ? .warning : .trace
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "sql": .string(sql), "duration_ms": .string(Self.milliseconds(nanoseconds)),
        ]
        if includesArgumentValues, let values = arguments() { metadata[key] = .string(values) }
        logger.log(level: level, slow ? "slow statement" : "statement", metadata: metadata)
    }

    /// Logs a statement that failed with the error `description`, at `.error`.
    @_spi(DBBBackend)
    public func failed(_ sql: String?, error description: String, arguments key: String, _ arguments: () -> String?) {
        guard logger.logLevel <= .error else { return }
        // Messages quote the value they object to ("… 'x@example.com' is not …"), in SQLite's
        // and this package's errors alike: unless values are to be logged, quoted text goes.
        let text = includesArgumentValues ? description : Self.redactingQuotedText(description)
        var metadata: Logger.Metadata = ["error": .string(text)]
        if let sql { metadata["sql"] = .string(sql) }
        if includesArgumentValues, let values = arguments() { metadata[key] = .string(values) }
        logger.error("statement failed", metadata: metadata)
    }

    /// `text` with what stands between `quote` characters replaced by `…` (a doubled quote
    /// inside is one quote character; an unclosed quote runs to the end).
    @_spi(DBBBackend)
    public static func redactingQuotedText(_ text: String, quote: Character = "'") -> String {
        var result = ""
        var inside = false
        var characters = text[...]
        while let character = characters.popFirst() {
            guard character == quote else {
                if !inside { result.append(character) }
                continue
            }
            if inside, characters.first == quote {
                characters.removeFirst()  // a doubled quote: still inside
                continue
            }
            result += inside ? String(quote) : "\(quote)…"
            inside.toggle()
        }
        return inside ? result + String(quote) : result
    }

    /// `nanoseconds` as milliseconds with three decimals: `"12.345"`.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let micro = (nanoseconds + 500) / 1000
        let fraction = String(micro % 1000)
        return "\(micro / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

extension Duration {
    /// The duration in whole nanoseconds (negative durations count as 0).
    @_spi(DBBBackend)
    public var nanosecondCount: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
