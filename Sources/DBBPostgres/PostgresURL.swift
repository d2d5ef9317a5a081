#if Postgres
@_spi(DBBBackend) import DBBBuilder
import Foundation

/// A `postgres://` URL read the way libpq reads one, with errors that name the part that is
/// wrong and never show the password.
///
/// `postgres[ql]://[user[:password]@]host[:port][,host[:port]…]/database[?sslmode=…&connect_timeout=…
/// &target_session_attrs=…]`; a host may be an IPv6 address in brackets; user, password, hosts and
/// database are percent-decoded. As in libpq, a host that starts with `/` is the directory of a
/// Unix-domain socket (`postgres://app@%2Fvar%2Frun%2Fpostgresql/shop`), and the `host` and
/// `port` parameters replace the hosts and ports before the `/`
/// (`postgres://app@/shop?host=/var/run/postgresql&port=5433`).
struct PostgresURL {
    var servers: [DBBPostgresConfiguration.Server] = []
    var user: String?
    var password: String?
    var database = ""
    var sslmode: String?
    var connectTimeout: Int?
    var targetSessionAttributes: DBBPostgresConfiguration.TargetSessionAttributes?
    var keepalives: Bool?
    var keepalivesIdle: Int?
    var keepalivesInterval: Int?
    var keepalivesCount: Int?

    /// The parameters a URL may set.
    static let parameters = [
        "sslmode", "connect_timeout", "target_session_attrs", "keepalives", "keepalives_idle", "keepalives_interval",
        "keepalives_count", "user", "password", "host", "port",
    ]

    init(_ url: String) throws(DBBError) {
        let shown = Self.redacted(url)
        func refuse(_ problem: String) -> DBBError {
            DBBError(
                backend: .invalidOption,
                "\(problem) in the PostgreSQL URL '\(shown)': "
                    + "write postgres://user:password@host:port/database")
        }
        guard let schemeEnd = url.range(of: "://") else { throw refuse("no scheme (postgres://)") }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw refuse("the scheme '\(scheme)' is not postgres or postgresql")
        }
        var rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        if !rest[..<authorityEnd].contains("@") && rest[authorityEnd...].contains("@") {
            // Most likely a password holding one of them: say so without showing any of it.
            throw refuse(
                "a '/', '?' or '#' before the '@' (percent-encode it in a user name or password: %2F, %3F, %23)")
        }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        let path = slash < rest.endIndex ? rest[rest.index(after: slash)...] : ""

        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            user = try Self.decoded(userInfo[..<(colon ?? userInfo.endIndex)], "the user name", refuse)
            if let colon {
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...], "the password", refuse)
            }
            if user?.isEmpty == true { user = nil }
        }
        let written = try authority.split(separator: ",", omittingEmptySubsequences: false).map {
            part throws(DBBError) in try Self.server(part, refuse)
        }
        var hostParameter: String?
        var portParameter: String?
        guard let database = try Self.decoded(path, "the database name", refuse), !database.isEmpty else {
            throw refuse("no database (…/database)")
        }
        guard !database.contains("/") else { throw refuse("the database name '\(database)' with a '/'") }
        self.database = database

        var seen: Set<String> = []
        for item in query.split(separator: "&") where !item.isEmpty {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0])
            let value = pair.count == 2 ? try Self.decoded(pair[1], "the value of \(name)", refuse) ?? "" : ""
            guard Self.parameters.contains(name) else {
                throw refuse("the parameter '\(name)', which is not one of \(Self.parameters.joined(separator: ", ")),")
            }
            guard seen.insert(name).inserted else { throw refuse("\(name) given twice") }
            switch name {
            case "sslmode":
                sslmode = value
            case "target_session_attrs":
                guard let target = DBBPostgresConfiguration.TargetSessionAttributes(rawValue: value) else {
                    let known = DBBPostgresConfiguration.TargetSessionAttributes.allCases.map(\.rawValue)
                    throw refuse("target_session_attrs=\(value), which is not one of \(known.joined(separator: ", ")),")
                }
                targetSessionAttributes = target
            case "host":
                hostParameter = value
            case "port":
                portParameter = value
            case "user":
                user = value.isEmpty ? nil : value
            case "password":
                password = value
            case "keepalives":
                guard value == "0" || value == "1" else { throw refuse("keepalives=\(value), which is not 0 or 1,") }
                keepalives = value == "1"
            default:
                // As DBBPostgresConfiguration.Keepalive checks them.
                let most = ["keepalives_idle": 32767, "keepalives_interval": 32767, "keepalives_count": 127][name]
                guard let number = Int(value), number > 0, number <= most ?? .max else {
                    // libpq's connect_timeout=0 waits for ever; a connection attempt here is always bounded.
                    let forever =
                        name == "connect_timeout" && value == "0" ? " (libpq's 0, no limit, is not offered)" : ""
                    throw refuse(
                        "\(name)=\(value), which is not a whole number \(most.map { "from 1 to \($0)" } ?? "above 0")\(forever),"
                    )
                }
                switch name {
                case "keepalives_idle": keepalivesIdle = number
                case "keepalives_interval": keepalivesInterval = number
                case "keepalives_count": keepalivesCount = number
                default: connectTimeout = number
                }
            }
        }
        servers = try Self.servers(written, host: hostParameter, port: portParameter, refuse)
    }

    /// The servers: the hosts written before the `/` (`written`) or the `host` parameter's, each
    /// with its port — written, the `port` parameter's (one for all, or one per host), or 5432.
    private static func servers(
        _ written: [(host: String, port: Int?)], host: String?, port: String?, _ refuse: (String) -> DBBError
    ) throws(DBBError) -> [DBBPostgresConfiguration.Server] {
        let hosts = host.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        var ports = written.map(\.port)
        if let port {
            ports = try port.split(separator: ",", omittingEmptySubsequences: false).map {
                text throws(DBBError) in try Self.port(text, refuse)
            }
        }
        let names = hosts ?? written.map(\.host)
        if ports.count == 1 { ports = Array(repeating: ports[0], count: names.count) }
        guard ports.count == names.count else {
            throw refuse("\(ports.count) ports for \(names.count) hosts (give one port for all, or one for each host)")
        }
        return try zip(names, ports).map { name, port throws(DBBError) in
            guard !name.isEmpty else {
                throw refuse(
                    "no host (write one before the /database, or host=/directory for the directory of a Unix-domain "
                        + "socket, where the server's socket file .s.PGSQL.<port> is)")
            }
            return DBBPostgresConfiguration.Server(host: name, port: port ?? 5432)
        }
    }

    /// One `host[:port]` of the URL's comma-separated list, the host percent-decoded (empty
    /// when none is written).
    private static func server(
        _ authority: Substring, _ refuse: (String) -> DBBError
    ) throws(DBBError) -> (host: String, port: Int?) {
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw refuse("an IPv6 address without its closing ]")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw refuse("'\(after)' after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw refuse("a host with ':' (write an IPv6 address in brackets: [::1])") }
            host = parts[0]
            if parts.count == 2 { portText = parts[1] }
        }
        let name = try decoded(host, "the host", refuse) ?? ""
        return (name, try portText.map { text throws(DBBError) in try port(text, refuse) })
    }

    /// The port `text` names.
    private static func port(_ text: Substring, _ refuse: (String) -> DBBError) throws(DBBError) -> Int {
        guard let port = Int(text), (1...65535).contains(port), text.allSatisfy(\.isASCII) else {
            throw refuse("the port '\(text)', which is not a number from 1 to 65535,")
        }
        return port
    }

    private static func decoded(
        _ text: Substring, _ what: String,
        _ refuse: (String) -> DBBError
    ) throws(DBBError) -> String? {
        guard let value = String(text).removingPercentEncoding else { throw refuse("a malformed %-escape in \(what)") }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw refuse("a control character (NUL, a line break…) in \(what)")
        }
        return value
    }

    /// `url` with its password, if any, replaced by `***`: for every message that shows a URL,
    /// whether or not it parses. Everything between the first `:` after the scheme and the
    /// last `@` goes, so a password holding `/`, `?` or `@` is hidden too.
    /// A `password=` parameter's value goes too — first, so that an `@` in it is not taken for
    /// the end of the user information (an `@` elsewhere in the query may hide more than the
    /// password, never less).
    static func redacted(_ url: String) -> String {
        var shown = url
        if let mark = url.firstIndex(of: "?") {
            let query = url[url.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map {
                $0.hasPrefix("password=") ? "password=***" : String($0)
            }
            shown = url[...mark] + query.joined(separator: "&")
        }
        let start = shown.range(of: "://")?.upperBound ?? shown.startIndex
        guard let at = shown[start...].lastIndex(of: "@"), let colon = shown[start..<at].firstIndex(of: ":") else {
            return shown
        }
        return String(shown[...colon]) + "***" + String(shown[at...])
    }
}
#endif
