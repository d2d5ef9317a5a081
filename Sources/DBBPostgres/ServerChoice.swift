@_spi(DBBBackend) import DBBBuilder
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Opens each new connection of a pool on one of the configuration's servers, as libpq does
/// with a URL's hosts and `target_session_attrs`: the servers in turn, each connected and,
/// unless any server will do, asked what it is (one query per new connection); the first of
/// the kind wanted takes the connection. So after a failover, the first connection opened
/// finds the promoted standby, and writes go there.
///
/// The server that last took a connection is tried first (libpq always starts at the first
/// host): a primary that is gone would otherwise cost every new connection a failed attempt,
/// the whole `connectTimeout` when its host no longer answers at all.
final class ServerChoice: Sendable {
    private let servers: [(name: String, configuration: PostgresConnection.Configuration)]
    private let target: DBBPostgresConfiguration.TargetSessionAttributes
    private let preferred = Atomic<Int>(0)

    init(_ configuration: DBBPostgresConfiguration) throws {
        servers = zip(configuration.servers.map(\.description), try configuration.connectionConfigurations())
            .map { ($0, $1) }
        target = configuration.targetSessionAttributes
    }

    /// How many servers there are.
    var count: Int { servers.count }

    /// A connection to the first server, starting with the preferred one, that answers and is
    /// of the kind wanted, and that server's `host:port`; the server named `avoiding` (whose
    /// connection was just lost) is tried last.
    /// - Throws: the failure of the one server (as postgres-nio gives it), or
    ///   ``NoServer`` with each server's reason.
    func connect(on loop: any EventLoop, id: Int, logger: Logger, avoiding: String? = nil) -> EventLoopFuture<Connected>
    {
        let start = preferred.load(ordering: .relaxed)
        var order = servers.indices.map { (start + $0) % servers.count }
        if let lost = order.firstIndex(where: { servers[$0].name == avoiding }) { order.append(order.remove(at: lost)) }
        // prefer-standby takes a standby if one answers, and the first other server if none does.
        let passes: [[Int]] = target == .preferStandby ? [order, order] : [order]
        let attempts = passes.enumerated().flatMap { pass, indices in indices.map { (index: $0, pass: pass) } }
        return attempt(attempts[...], on: loop, id: id, logger: logger, failures: [])
    }

    /// A connection and the `host:port` of its server.
    struct Connected {
        let connection: PostgresConnection
        let server: String
    }

    private func attempt(
        _ attempts: ArraySlice<(index: Int, pass: Int)>, on loop: any EventLoop, id: Int, logger: Logger,
        failures: [(server: String, error: any Error)]
    ) -> EventLoopFuture<Connected> {
        guard let (index, pass) = attempts.first else {
            if servers.count == 1, let only = failures.first, only.error is PSQLError {
                return loop.makeFailedFuture(only.error)
            }
            return loop.makeFailedFuture(NoServer(target: target, failures: failures))
        }
        let server = servers[index]
        let wanted = pass == 0 && target == .preferStandby ? .standby : target
        return PostgresConnection.connect(on: loop, configuration: server.configuration, id: id, logger: logger)
            .flatMap { connection in
                Self.check(connection, is: wanted, logger: logger).map { Connected(connection: connection, server: server.name) }
            }
            .map { connected in
                self.preferred.store(index, ordering: .relaxed)
                return connected
            }
            .flatMapError { error in
                // A server that answered but is not a standby is tried again in prefer-standby's
                // second pass; one that did not answer is not.
                let rest = attempts.dropFirst().filter { error is NotOfKind || $0.index != index }
                let failed = failures.contains { $0.server == server.name } ? failures : failures + [(server.name, error)]
                return self.attempt(ArraySlice(rest), on: loop, id: id, logger: logger, failures: failed)
            }
    }

    /// Succeeds when `connection`'s server is of the kind `wanted`; else closes it and fails
    /// with ``NotOfKind``.
    private static func check(
        _ connection: PostgresConnection, is wanted: DBBPostgresConfiguration.TargetSessionAttributes, logger: Logger
    ) -> EventLoopFuture<Void> {
        guard wanted != .any && wanted != .preferStandby else { return connection.eventLoop.makeSucceededVoidFuture() }
        let query: PostgresQuery =
            "SELECT pg_is_in_recovery(), current_setting('default_transaction_read_only') = 'on'"
        return connection.query(query, logger: logger).flatMapThrowing { result in
            guard let row = result.rows.first else { throw NotOfKind(what: "gave no answer") }
            let (standby, readOnlyDefault) = try row.decode((Bool, Bool).self)
            let readOnly = standby || readOnlyDefault
            let fits =
                switch wanted {
                case .readWrite: !readOnly
                case .readOnly: readOnly
                case .primary: !standby
                default: standby
                }
            guard fits else {
                throw NotOfKind(
                    what: standby ? "is a standby" : readOnly ? "is read-only (default_transaction_read_only)" : "is a primary")
            }
        }.flatMapErrorWithEventLoop { error, loop in
            connection.closeKeepingAlive()
            return loop.makeFailedFuture(error)
        }
    }

    /// A server that answered but is not of the kind wanted.
    struct NotOfKind: Error, CustomStringConvertible {
        let what: String
        var description: String { what }
    }

    /// No server took the connection: each one's reason.
    struct NoServer: Error, CustomStringConvertible {
        let target: DBBPostgresConfiguration.TargetSessionAttributes
        let failures: [(server: String, error: any Error)]

        /// `127.0.0.1:5432: the connection failed (…); 127.0.0.1:5433: is a standby`, and the
        /// kind wanted.
        var description: String {
            let reasons = failures.map { failure in
                let reason =
                    (failure.error as? PSQLError).map { error in
                        error.serverInfo?[.message] ?? PostgresFailure.describe(error)
                    } ?? "\(failure.error)"
                return "\(failure.server): \(reason)"
            }
            let kind = target == .any ? "" : " (target_session_attrs=\(target.rawValue))"
            return "no server took the connection\(kind): " + reasons.joined(separator: "; ")
        }
    }
}
