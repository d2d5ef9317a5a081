#if Postgres
@_spi(DBBBackend) import DBBBuilder
@_spi(DBBBackend) import DBBSQLite
import PostgresNIO

/// Where a PostgreSQL database is, for messages: `host:port`, the database's name, and the
/// role the manager logs in as.
struct PostgresPlace: Sendable {
    let host: String
    let database: String
    var role: String?
}

/// A PostgreSQL error as the ORM sees it: a server's refusal becomes `DBBError.Kind.server`
/// (a refusal to connect, `DBBError.Kind.unavailable`), with SQLSTATE, the server's message,
/// the SQL, host and database.
struct PostgresFailure: DatabaseFailure {
    /// What the server said; `nil` when it said nothing (the connection failed or closed).
    struct ServerSaid: Sendable {
        let sqlState: String?
        let severity: String?
        let message: String?
        let detail: String?
        let column: String?
        let constraint: String?
    }

    let server: ServerSaid?
    /// Words for a failure the server did not explain.
    let clientMessage: String
    let sql: String?
    let place: PostgresPlace
    /// Whether the failure ended the session while a `COMMIT` was in flight: sent, and not
    /// answered (``DBBError/Kind/commitOutcomeUnknown``).
    private(set) var isCommitInFlight = false
    /// Whether the client gave up waiting for the answer (``unansweredWithin(_:sql:place:)``).
    private var isUnansweredInTime = false
    /// What to change in the URL or the configuration, when the failure comes from them (TLS
    /// required and not offered, a login refused, no such database: see
    /// ``configurationAdvice(_:)``): then it is not a lost connection, and not retryable.
    private let advice: String?
    /// What the failure leaves stored, in words — statements before this one in the same text
    /// that committed on their own, an invalid index, what a procedure committed — or `nil`:
    /// then the call is not safe to repeat as it is, whatever this failure was.
    private var leftBehind: String?

    init(_ error: PSQLError, sql: String?, place: PostgresPlace) {
        let info = error.serverInfo
        server = info.map {
            ServerSaid(
                sqlState: $0[.sqlState], severity: $0[.severity], message: $0[.message], detail: $0[.detail],
                column: $0[.columnName], constraint: $0[.constraintName])
        }
        clientMessage = Self.describe(error)
        self.sql = sql
        self.place = place
        advice = Self.configurationAdvice(error)
    }

    init(server: ServerSaid?, clientMessage: String, sql: String?, place: PostgresPlace, advice: String? = nil) {
        self.server = server
        self.clientMessage = clientMessage
        self.sql = sql
        self.place = place
        self.advice = advice
    }

    /// The connection closed before the server answered `sql` (postgres-nio leaves such a
    /// query unanswered; see ``SessionWatch``).
    static func closedUnanswered(sql: String?, place: PostgresPlace) -> PostgresFailure {
        PostgresFailure(
            server: nil, clientMessage: "the connection closed before the server answered", sql: sql, place: place)
    }

    /// The server did not answer `sql` within `limit` (`answerTimeout (5.0 seconds)`), and the
    /// connection was closed (see ``SessionWatch``).
    static func unansweredWithin(_ limit: String, sql: String?, place: PostgresPlace) -> PostgresFailure {
        var failure = PostgresFailure(
            server: nil, clientMessage: "the server did not answer within \(limit), so the connection was closed",
            sql: sql, place: place)
        failure.isUnansweredInTime = true
        return failure
    }

    /// The same failure, of a statement that followed others of its text that committed.
    func afterEarlierCommit() -> PostgresFailure {
        leaving("statements before it in the same SQL text had committed, and stay: repeating the text repeats them")
    }

    /// The same failure, which leaves behind what `note` says (see ``leftBehind``).
    func leaving(_ note: String) -> PostgresFailure {
        var failure = self
        failure.leftBehind = note
        return failure
    }

    /// Whether a deadline passed — the server cancelled the statement for its
    /// `statement_timeout` or `lock_timeout`, or did not answer within `answerTimeout` — and
    /// nothing of the call was stored (not when the failure leaves something behind).
    var isTimeout: Bool {
        if leftBehind != nil { return false }
        if isUnansweredInTime { return true }
        guard let server, let message = server.message else { return false }
        return (server.sqlState == "57014" && message.contains("statement timeout"))
            || (server.sqlState == "55P03" && message.contains("lock timeout"))
    }

    /// SQLSTATE classes that mean the database cannot be used at all: connection exceptions
    /// (08), invalid authorization (28), invalid catalog name (3D: no such database), and the
    /// server shutting down or starting (57P01–57P03). Not a cancelled statement (57014), after
    /// which the session goes on.
    private static let unavailableClasses: Set<Substring> = ["08", "28", "3D", "57P"]

    /// Whether the connection failed rather than the server refusing it: no answer at all
    /// (closed, reset, unreachable), a connection exception (SQLSTATE class 08), or the server
    /// shutting down or starting (57P01–57P03). Not a refused login (28) or a missing database
    /// (3D), nor what the configuration asks and the server does not give (TLS), which do not
    /// pass by themselves.
    var isConnectionFailure: Bool {
        guard advice == nil else { return false }
        guard let sqlState = server?.sqlState else { return true }
        return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
    }

    /// Whether the session is over: no answer from the server (the connection closed or
    /// failed) or a FATAL/PANIC error, after which the server closes the connection.
    var endsSession: Bool {
        guard let severity = server?.severity else { return true }
        return severity == "FATAL" || severity == "PANIC"
    }

    /// The same failure, of a `COMMIT` that was sent: whether it committed is unknown.
    func commitInFlight() -> PostgresFailure {
        var failure = self
        failure.isCommitInFlight = true
        return failure
    }

    /// The same failure reported for `sql`, a statement not sent because the session had ended.
    func later(sql: String) -> PostgresFailure {
        PostgresFailure(server: server, clientMessage: clientMessage, sql: sql, place: place, advice: advice)
    }

    func dbbError(table: String?, columns: [(property: String, column: String)]) -> DBBError {
        let sqlState = server?.sqlState
        var message = server?.message ?? clientMessage
        if let detail = server?.detail { message += " (\(detail))" }
        if let leftBehind { message += " — \(leftBehind)" }
        let serverError = DBBServerError(
            sqlState: sqlState, message: message, sql: sql, host: place.host, database: place.database)
        if isCommitInFlight {
            return DBBError(
                backend: .commitOutcomeUnknown, table: table,
                "the connection to \(serverError.location) was lost before the server confirmed a commit "
                    + "(\(message)): the write may or may not have been committed. Look for it before repeating it, "
                    + "or repeat it in a form that cannot apply twice (save(ifModifiedTimeIs:), a UNIQUE key)",
                serverError: serverError, conditions: .connectionLost)
        }
        if isTimeout {
            return DBBError(
                backend: .timedOut, table: table, "timed out on \(serverError.location): \(message)",
                serverError: serverError, conditions: sqlState == "55P03" ? [.timeout, .lockNotGranted] : .timeout)
        }
        // A protocol violation answered with ERROR, not FATAL (arguments that do not match the
        // statement's placeholders), refuses that statement; the session goes on.
        let refusedStatement = sqlState == "08P01" && server?.severity == "ERROR"
        // (Not when something stays: `.unavailable` says nothing was stored.)
        let unavailable =
            leftBehind == nil
            && (server == nil
                || (!refusedStatement
                    && sqlState.map {
                        Self.unavailableClasses.contains($0.prefix(2)) || Self.unavailableClasses.contains($0.prefix(3))
                    } == true))
        if unavailable {
            if let advice { message += " — " + advice }
            if message.contains("unsupported startup parameter") {
                message +=
                    " — a pooler in front of the server (PgBouncer) refuses startup parameters: leave statementTimeout "
                    + "unset and set it on the role (ALTER ROLE … SET statement_timeout = …), and set transactionPooling"
            }
            return DBBError(
                backend: .unavailable, table: table,
                "cannot use \(serverError.location): \(message)", serverError: serverError,
                conditions: isConnectionFailure ? .connectionLost : [])
        }
        if sqlState == "42883", let function = Self.missingLocaleFunction(message) {
            let forms = PostgresLocaleSQL.signatures.filter { $0.lowercased().hasPrefix(function + "(") }
            message +=
                " — \(function) is one of DBBBuilder's locale functions (\(forms.joined(separator: ", "))): check the "
                + "arguments; or it is not installed in \(serverError.location), where a manager that may write "
                + "installs the functions when it opens (DBBManager(postgres:) without readOnly), or call "
                + "installLocaleFunctions() on one"
        }
        if sqlState == "22023", let identifier = Self.keywordLocale(message) {
            message +=
                " — an identifier with keywords is in \(serverError.location)'s table of week rules only once added: "
                + "call addLocaleRules(for: [\"\(identifier)\"]) on a manager that may write (SQLite reads it as it is)"
        }
        if sqlState == "42501", let role = place.role {
            message +=
                " — the role \(role) lacks the privilege: grant it (GRANT SELECT ON … TO \(role) for reading), "
                + "or connect as a role that has it (for a role that may only read, set DBBPostgresConfiguration.readOnly)"
        }
        // The column a constraint names: NOT NULL names it; a unique violation's detail names
        // the key (`Key (email)=(…) already exists.`), and UNIQUE's index is Table_column_key.
        let constraint = server?.constraint ?? ""
        let key = Self.keyColumn(inDetail: server?.detail)
        // A column the server or the key names exactly wins over one the constraint's name
        // only contains (`name` is inside `Person_nick_name_key`).
        let property =
            (columns.first { $0.column == server?.column || $0.column == key }
            ?? columns.first { constraint.contains("_\($0.column)_") })?.property
        return DBBError(
            backend: .server, table: table, property: property, message, serverError: serverError,
            conditions: leftBehind == nil ? [] : .leftSomethingStored)
    }

    /// The locale function an "undefined function" message names (`function dbb_week(double
    /// precision, unknown) does not exist`), or `nil` when it names another.
    static func missingLocaleFunction(_ message: String) -> String? {
        guard let start = message.range(of: "function ")?.upperBound else { return nil }
        let name = message[start...].prefix { $0 != "(" && $0 != " " }.lowercased()
        return PostgresLocaleSQL.routineNames.contains(name) ? name : nil
    }

    /// The locale identifier with `@keywords` (`de_DE@fw=sun`) a locale function's "not an
    /// available locale identifier" names, or `nil` for another message or identifier.
    static func keywordLocale(_ message: String) -> String? {
        guard let start = message.range(of: "(locale) '")?.upperBound,
            let end = message.range(of: "' is not an available locale identifier", range: start..<message.endIndex)
        else { return nil }
        let identifier = message[start..<end.lowerBound].replacingOccurrences(of: "''", with: "'")
        return identifier.contains("@") ? identifier : nil
    }

    /// The one column of the key a unique violation's detail names — `email` in
    /// `Key (email)=(a@example.com) already exists.`, `Email` in `Key ("Email")=…` — or `nil`.
    static func keyColumn(inDetail detail: String?) -> String? {
        guard let detail, detail.hasPrefix("Key ("), let end = detail.range(of: ")=(") else { return nil }
        let name = detail[detail.index(detail.startIndex, offsetBy: 5)..<end.lowerBound]
        guard !name.contains(",") else { return nil }
        guard name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 else { return String(name) }
        return name.dropFirst().dropLast().replacingOccurrences(of: "\"\"", with: "\"")
    }

    /// The failure as a log line: SQLSTATE, the server's message and its detail. Without
    /// values the detail goes, which spells out rows and keys (`Key (email)=(…) already
    /// exists.`), and so does what a data exception's message quotes (SQLSTATE class 22:
    /// `invalid input syntax for type integer: "…"`); other messages quote names, which stay.
    func logText(includingValues: Bool) -> String {
        guard let server else { return "\(clientMessage) (\(place.host), database \(place.database))" }
        var message = server.message ?? clientMessage
        if includingValues {
            if let detail = server.detail { message += " (\(detail))" }
        } else if server.sqlState?.hasPrefix("22") == true {
            message = StatementLogging.redactingQuotedText(message, quote: "\"")
        }
        return (server.sqlState.map { "SQLSTATE \($0): " } ?? "") + message
    }

    /// Words for a client-side failure (no server message): refused, closed, timed out.
    static func describe(_ error: PSQLError) -> String {
        switch error.code {
        case .connectionError: error.underlying.map(describe(connecting:)) ?? "the connection failed"
        case .serverClosedConnection: "the server closed the connection"
        case .clientClosedConnection: "the connection was closed"
        case .authMechanismRequiresPassword: "the server asks for a password, and none was given"
        case .unsupportedAuthMechanism: "the server asks for an authentication method this client does not support"
        case .poolClosed: "the manager's connection pool is closed"
        case .sslUnsupported: "the server offers no TLS"
        case .failedToAddSSLHandler: "TLS could not be set up"
        case .receivedUnencryptedDataAfterSSLRequest: "the server answered the TLS request with unencrypted data"
        case .saslError: "the SCRAM authentication failed"
        case .uncleanShutdown: "the connection ended without a proper shutdown"
        case .messageDecodingFailure, .unexpectedBackendMessage, .invalidCommandTag:
            "the server's answer could not be read (a protocol error)"
        default: "the client failed (\(error.code))"
        }
    }
}
#endif
