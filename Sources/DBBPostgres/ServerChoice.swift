#if Postgres
@_spi(DBBBackend) import DBBBuilder
@_spi(DBBBackend) import DBBSQLite
import Foundation
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
    private let servers:
        [(name: String, server: DBBPostgresConfiguration.Server, configuration: PostgresConnection.Configuration)]
    private let target: DBBPostgresConfiguration.TargetSessionAttributes
    /// TCP keepalive: idle and interval seconds, probes; `nil` for the system's setting.
    private let keepalive: (idle: Int, interval: Int, count: Int)?
    private let connectTimeout: TimeAmount
    private let preferred = Atomic<Int>(0)

    init(_ configuration: DBBPostgresConfiguration) throws {
        servers = zip(configuration.servers, try configuration.connectionConfigurations())
            .map { ($0.description, $0, $1) }
        target = configuration.targetSessionAttributes
        keepalive = try configuration.keepalive?.seconds(for: configuration.place.host)
        connectTimeout = .nanoseconds(Int64(clamping: configuration.connectTimeout.nanosecondCount))
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
            // One server that could not be reached or refused: its own failure (not what it is).
            if servers.count == 1, let only = failures.first, !(only.error is NotOfKind || only.error is Silent) {
                return loop.makeFailedFuture(only.error)
            }
            return loop.makeFailedFuture(NoServer(target: target, failures: failures))
        }
        let server = servers[index]
        let wanted = pass == 0 && target == .preferStandby ? .standby : target
        return open(server.server, server.configuration, on: loop, id: id, logger: logger)
            .flatMap { connection in
                self.check(connection, is: wanted, logger: logger).map {
                    Connected(connection: connection, server: server.name)
                }
            }
            .map { connected in
                self.preferred.store(index, ordering: .relaxed)
                return connected
            }
            .flatMapError { error in
                // A server that answered but is not a standby is tried again in prefer-standby's
                // second pass; one that did not answer is not.
                let rest = attempts.dropFirst().filter { error is NotOfKind || $0.index != index }
                let failed =
                    failures.contains { $0.server == server.name } ? failures : failures + [(server.name, error)]
                return self.attempt(ArraySlice(rest), on: loop, id: id, logger: logger, failures: failed)
            }
    }

    /// A connection to `server`, over a TCP connection with keepalive on when it is configured
    /// (postgres-nio sets no socket options of its own), or its Unix-domain socket.
    private func open(
        _ server: DBBPostgresConfiguration.Server, _ configuration: PostgresConnection.Configuration,
        on loop: any EventLoop, id: Int, logger: Logger
    ) -> EventLoopFuture<PostgresConnection> {
        guard let keepalive, !server.isUnixSocket else {
            return PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger)
        }
        let tcp = NIOBSDSocket.OptionLevel(rawValue: CInt(IPPROTO_TCP))
        func option(_ name: CInt) -> ChannelOptions.Types.SocketOption {
            ChannelOptions.Types.SocketOption(level: tcp, name: NIOBSDSocket.Option(rawValue: name))
        }
        return ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .channelOption(option(CInt(TCP_KEEPIDLE)), value: keepalive.idle)
            .channelOption(option(CInt(TCP_KEEPINTVL)), value: keepalive.interval)
            .channelOption(option(CInt(TCP_KEEPCNT)), value: keepalive.count)
            .connect(host: server.host, port: server.port)
            .flatMap { channel in
                var established = PostgresConnection.Configuration(
                    establishedChannel: channel, tls: configuration.tls, username: configuration.username,
                    password: configuration.password, database: configuration.database)
                established.options = configuration.options
                // The name TLS checks the certificate against: the host, unless it is an address.
                if (try? SocketAddress(ipAddress: server.host, port: 0)) == nil {
                    established.options.tlsServerName = server.host
                }
                return PostgresConnection.connect(on: loop, configuration: established, id: id, logger: logger)
                    .flatMapErrorWithEventLoop { error, loop in
                        channel.close(promise: nil)
                        return loop.makeFailedFuture(error)
                    }
            }
    }

    /// Succeeds when `connection`'s server is of the kind `wanted`; else closes it and fails
    /// with ``NotOfKind``, or ``Silent`` when it does not say.
    ///
    /// The question is bounded by `connectTimeout`, as opening the connection is: a server that
    /// let the client in and then says nothing is passed over for the next.
    private func check(
        _ connection: PostgresConnection, is wanted: DBBPostgresConfiguration.TargetSessionAttributes, logger: Logger
    ) -> EventLoopFuture<Void> {
        guard wanted != .any && wanted != .preferStandby else { return connection.eventLoop.makeSucceededVoidFuture() }
        let query: PostgresQuery =
            "SELECT pg_is_in_recovery(), current_setting('default_transaction_read_only') = 'on'"
        let answer = connection.eventLoop.makePromise(of: PostgresQueryResult.self)
        connection.query(query, logger: logger).cascade(to: answer)
        let timeout = connection.eventLoop.scheduleTask(in: connectTimeout) {
            answer.fail(Silent())
        }
        return answer.futureResult.flatMapThrowing { result in
            timeout.cancel()
            guard let row = result.rows.first else { throw NotOfKind(what: "gave no answer") }
            let (standby, readOnlyDefault) = try row.decode((Bool, Bool).self)
            try Self.refuseUnless(wanted, standby: standby, readOnly: standby || readOnlyDefault)
        }.flatMapErrorWithEventLoop { error, loop in
            connection.closeKeepingAlive()
            return loop.makeFailedFuture(error)
        }
    }

    /// Throws ``NotOfKind`` naming why a server — a standby or not, read-only or not — is not
    /// the kind `wanted`.
    private static func refuseUnless(
        _ wanted: DBBPostgresConfiguration.TargetSessionAttributes, standby: Bool, readOnly: Bool
    ) throws {
        let reason: String? =
            switch wanted {
            case .readWrite where standby, .primary where standby: "is a standby"
            case .readWrite where readOnly: "is read-only (default_transaction_read_only)"
            case .readOnly where !readOnly: "accepts writes (a primary, default_transaction_read_only off)"
            case .standby where !standby, .preferStandby where !standby: "is a primary (not in recovery)"
            default: nil
            }
        if let reason { throw NotOfKind(what: reason) }
    }

    /// A server that answered but is not of the kind wanted.
    struct NotOfKind: Error, CustomStringConvertible {
        let what: String
        var description: String { what }
    }

    /// A server that let the client in and then did not answer within `connectTimeout`: not
    /// tried again in prefer-standby's second pass, as a server that did not answer at all.
    struct Silent: Error, CustomStringConvertible {
        var description: String { "let the client in, then did not say what it is within connectTimeout" }
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
                    } ?? PostgresFailure.describe(connecting: failure.error)
                return "\(failure.server): \(reason)"
            }
            let kind = target == .any ? "" : " (target_session_attrs=\(target.rawValue))"
            return "no server took the connection\(kind): " + reasons.joined(separator: "; ")
        }
    }
}
#endif
