import DBBBuilder
import DBBService
import DBBTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// The service on a fresh database of `backend` (a SQLite file in a temporary folder, or a
/// database of the test PostgreSQL server), driven through Hummingbird's test client.
/// `nil` when PostgreSQL is missing (with `DBB_REQUIRE_POSTGRES` set, that throws instead).
struct ServiceHarness {
    let database: ServiceDatabase
    let directory: TemporaryDirectory

    init?(_ backend: Backend) throws {
        directory = try TemporaryDirectory("dbb-service-tests")
        switch backend {
        case .sqlite:
            database = .sqlite(path: directory.path("service.sqlite"))
        case .postgresql:
            guard let server = try TestPostgresServer.shared() else { return nil }
            database = .postgres(primary: try server.makeDatabase(), replicas: [])
        }
    }

    /// A new instance of the service (its own manager) on the harness's database; `live`: on a
    /// free port of 127.0.0.1, for `app.test(.live)`.
    func instance(
        bodyLimit: Int = 64 * 1024, deadlines: ServiceDatabase.Deadlines = .init(), live: Bool = false
    ) async throws -> (
        some ApplicationProtocol, DBBManager
    ) {
        var logger = Logger(label: "dbb-service-tests")
        logger.logLevel = .warning
        let manager = try await database.open(logger: logger, deadlines: deadlines)
        var settings = ServiceSettings()
        settings.bodyLimit = bodyLimit
        settings.requestLogLevel = nil
        if live { settings.port = 0 }
        return (makeApplication(manager: manager, settings: settings, logger: logger), manager)
    }
}

/// A response as the tests read it.
struct Reply {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: String

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(body.utf8))
    }

    /// The `field` of a JSON error body.
    var field: String? { (try? decode(APIError.Body.self))?.field }
}

extension TestClientProtocol {
    func call(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, headers: HTTPFields = [:])
        async throws -> Reply
    {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) {
            Reply(status: $0.status, headers: $0.headers, body: String(buffer: $0.body))
        }
    }
}
