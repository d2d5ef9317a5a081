import ArgumentParser
import DBBSQLite
import Logging

/// `--verbose`, shared by the subcommands: statements logged to standard error.
struct LogOptions: ParsableArguments {
    @Flag(
        name: [.short, .long],
        help: """
            Log each statement to standard error once it ran, with its duration in milliseconds \
            (argument values are never shown), and failed statements with their SQL.
            """)
    var verbose = false

    /// The statement logging the flags ask for: `nil` without `--verbose`.
    var logging: StatementLogging? {
        guard verbose else { return nil }
        var logger = Logger(label: "dbb") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = .trace
        return StatementLogging(logger: logger)
    }
}
