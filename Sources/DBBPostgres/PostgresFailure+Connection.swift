#if Postgres
@_spi(DBBBackend) import DBBBuilder
import Foundation
import PostgresNIO

/// A failure to open a connection, in words that say what happened and, for a configuration
/// error, what to change — never the client library's type names.
extension PostgresFailure {
    /// The failure of opening a connection: postgres-nio's (`PSQLError`), the socket's (a
    /// connection refused, a name that does not resolve, a TLS handshake), or every server's
    /// reason (``ServerChoice/NoServer``).
    static func connecting(_ error: any Error, place: PostgresPlace) -> PostgresFailure {
        if let error = error as? PSQLError { return PostgresFailure(error, sql: nil, place: place) }
        let advice: String?
        if let none = error as? ServerChoice.NoServer {
            // A configuration error only when every server failed for one (the same advice).
            let each = none.failures.map { configurationAdvice($0.error) }
            advice = each.allSatisfy { $0 != nil && $0 == each.first } ? each.first ?? nil : nil
        } else {
            advice = configurationAdvice(error)
        }
        return PostgresFailure(
            server: nil, clientMessage: (error as? ServerChoice.NoServer)?.description ?? describe(connecting: error),
            sql: nil, place: place, advice: advice)
    }

    /// What to change in the URL or the configuration when `error`, a failure to connect,
    /// comes from them — the server demands what the configuration does not give, or the
    /// other way round — or `nil` when it may pass (a server down, a network cut).
    static func configurationAdvice(_ error: any Error) -> String? {
        guard let error = error as? PSQLError else {
            return isTLS(error)
                ? "check the server's certificate and the TLS settings (sslmode in the URL, or the configuration's tls)"
                : nil
        }
        if let sqlState = error.serverInfo?[.sqlState] {
            if sqlState.hasPrefix("28") {
                return "check the user name and password (postgres://user:password@…, or the configuration's "
                    + "username and password), and that the server's pg_hba.conf lets this user in from here"
            }
            if sqlState == "3D000" { return "check the database name (…/database in the URL), or create the database" }
            return nil
        }
        switch error.code {
        case .sslUnsupported:
            return "the configuration requires TLS (sslmode=require, verify-ca or verify-full; tls .require): turn "
                + "TLS on in the server (ssl = on), or connect with sslmode=prefer or sslmode=disable"
        case .failedToAddSSLHandler:
            return "the configuration's TLS settings (tls) cannot be used: check its certificates and keys"
        case .authMechanismRequiresPassword:
            return "give the password in the URL (postgres://user:password@…) or the configuration's password"
        case .unsupportedAuthMechanism:
            return "let the role log in with password, md5 or scram-sha-256 in the server's pg_hba.conf"
        case .saslError:
            return "check the password (the SCRAM authentication failed)"
        case .connectionError:
            return error.underlying.flatMap(configurationAdvice)
        default:
            return nil
        }
    }

    /// Whether `error` is a TLS failure (a handshake refused, a certificate not accepted).
    private static func isTLS(_ error: any Error) -> Bool {
        error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError
    }

    /// `error`, a socket's failure to connect, in words: `connection refused at 127.0.0.1:1`,
    /// `no answer within connectTimeout`, `the host name db.internal does not resolve`.
    static func describe(connecting error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil || error.connectionErrors.isEmpty {
                return "the host name \(error.host) does not resolve to an address"
            }
            return error.connectionErrors.map { "\(describe(connecting: $0.error)) at \(words($0.target))" }
                .joined(separator: ", ")
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        case ChannelError.connectTimeout:
            return "no answer within connectTimeout"
        case NIOSSLError.handshakeFailed(.sslError(let stack)):
            return "the TLS handshake failed (\(stack.map { "\($0)" }.joined(separator: "; ")))"
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return "the TLS handshake failed"
        case let error as PSQLError:
            return describe(error)
        default:
            return "\(error)"
        }
    }

    /// `127.0.0.1:5432`, `[::1]:5432`, or a Unix-domain socket's path.
    private static func words(_ address: SocketAddress) -> String {
        if let path = address.pathname { return path }
        guard let ip = address.ipAddress else { return "\(address)" }
        let host = ip.contains(":") ? "[\(ip)]" : ip
        return address.port.map { "\(host):\($0)" } ?? host
    }
}
#endif
