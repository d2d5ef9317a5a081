import DBBBuilder
import DBBPostgres
import DBBWeeklyReport
import Dispatch
import Foundation
import Logging

/// Where the service keeps its data, and opening it.
public enum ServiceDatabase: Sendable, Equatable {
    /// A SQLite file; `nil`: `service.sqlite` in the per-user folder
    /// (`~/.config/dbb-service/` on Linux, Application Support on macOS).
    case sqlite(path: String?)
    /// A PostgreSQL primary and its streaming replicas, which serve the reads.
    case postgres(primary: String, replicas: [String])

    /// The table-object classes the service stores.
    public static let classes: [DBBTableObject.Type] = [
        Company.self, Person.self, Project.self, Meeting.self, Usage.self,
    ]

    /// Opens the database, creates or migrates its tables and, when it has none, saves the
    /// seed's `Usage` objects that the weekly report reads (a database whose `Usage` table an
    /// older service made is refused: ``UsageData/OlderTable``). Start a second instance on a
    /// new PostgreSQL database once the first has answered `/health`: two first starts at once
    /// would both fill `Usage`.
    ///
    /// On PostgreSQL, `deadlines` are the managers' `answerTimeout` and `statementTimeout`
    /// (see `DBBPostgresConfiguration`), for the primary and each replica.
    public func open(logger: Logger, deadlines: Deadlines = Deadlines()) async throws -> DBBManager {
        // Opening and migrating block: on a thread of their own, not the cooperative pool's.
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try openBlocking(logger: logger, deadlines: deadlines) })
            }
        }
    }

    /// The deadlines of a PostgreSQL database's connections; `nil` for none of the kind.
    public struct Deadlines: Sendable {
        /// How long a statement may wait for any answer before its connection is closed.
        public var answerTimeout: Duration?
        /// The server's `statement_timeout`.
        public var statementTimeout: Duration?

        public init(answerTimeout: Duration? = nil, statementTimeout: Duration? = nil) {
            (self.answerTimeout, self.statementTimeout) = (answerTimeout, statementTimeout)
        }

        /// The configuration of `url` with these deadlines.
        func configuration(_ url: String) throws -> DBBPostgresConfiguration {
            var configuration = try DBBPostgresConfiguration(url: url)
            (configuration.answerTimeout, configuration.statementTimeout) = (answerTimeout, statementTimeout)
            return configuration
        }
    }

    private func openBlocking(logger: Logger, deadlines: Deadlines) throws -> DBBManager {
        let manager: DBBManager
        switch self {
        case .sqlite(let path?):
            manager = try DBBManager(url: URL(fileURLWithPath: path), logger: logger)
        case .sqlite(nil):
            manager = try DBBManager.inAppSupportFolder(
                named: "service.sqlite", subFolders: "dbb-service", tableClasses: [])
            manager.logging = StatementLogging(logger: logger)
        case .postgres(let primary, let replicas):
            manager = try DBBManager(
                postgres: deadlines.configuration(primary), replicas: replicas.map(deadlines.configuration))
            manager.logging = StatementLogging(logger: logger)
        }
        try UsageData.refuseOlderTable(in: manager, named: label)
        try manager.register(Self.classes)
        try UsageData.fillIfEmpty(manager)
        return manager
    }

    /// Where it is, for the log (a PostgreSQL URL without its password).
    public var label: String {
        switch self {
        case .sqlite(let path): path ?? "service.sqlite in the per-user folder"
        case .postgres(let primary, let replicas):
            ([primary] + replicas).map { url in
                url.replacingOccurrences(of: #":[^:@/]*@"#, with: ":…@", options: .regularExpression)
            }.joined(separator: ", ")
        }
    }
}
