import DBBBuilder
import DBBPostgres
import DBBService
import DBBTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("dbb-service at the edge: bad input is a 4xx naming the field, and writes nothing")
struct EdgeTests {
    @Test(
        "malformed, mistyped, unknown, missing and invalid fields; ids that name nothing", arguments: Backend.allCases)
    func badBodies(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance(bodyLimit: 1024)
        try await app.test(.router) { client in
            let cases: [(String, String, HTTPResponse.Status, String)] = [
                ("/people", #"{"firstName": "A", "lastName": "#, .badRequest, "body"),
                ("/people", #"["firstName"]"#, .badRequest, "body"),
                ("/people", #"{"firstName": "A", "lastName": 7}"#, .badRequest, "lastName"),
                ("/people", #"{"firstName": "A", "lastName": "B", "age": "old"}"#, .badRequest, "age"),
                ("/people", #"{"firstName": "A", "lastName": "B", "age": 1e40}"#, .badRequest, "age"),
                ("/people", #"{"firstName": "A", "lastName": "B", "agee": 3}"#, .badRequest, "agee"),
                ("/people", #"{"firstName": "A"}"#, .badRequest, "lastName"),
                ("/people", #"{"firstName": "A", "lastName": null}"#, .badRequest, "lastName"),
                ("/people", #"{"firstName": " ", "lastName": "B"}"#, .unprocessableContent, "firstName"),
                ("/people", #"{"firstName": "A", "lastName": "B", "age": -1}"#, .unprocessableContent, "age"),
                (
                    "/people", #"{"firstName": "A", "lastName": "B", "employer": 424242}"#, .unprocessableContent,
                    "employer"
                ),
                (
                    "/people", #"{"firstName": "A", "lastName": "B", "nicknames": ["x", 3]}"#, .badRequest,
                    "nicknames[1]"
                ),
                ("/meetings", #"{"purpose": "P", "startTime": "tomorrow"}"#, .badRequest, "startTime"),
                (
                    "/meetings", #"{"purpose": "P", "startTime": "2026-01-01T10:00:00Z", "participants": [99]}"#,
                    .unprocessableContent, "participants[0]"
                ),
                (
                    "/meetings", #"{"purpose": "P", "startTime": "2026-01-01T10:00:00Z", "durationMinutes": 0}"#,
                    .unprocessableContent, "durationMinutes"
                ),
                ("/projects", #"{"name": "P", "budget": -5}"#, .unprocessableContent, "budget"),
                (
                    "/projects",
                    #"{"name": "P", "startDate": "2026-02-01T00:00:00Z", "endDate": "2026-01-01T00:00:00Z"}"#,
                    .unprocessableContent, "endDate"
                ),
                ("/companies", #"{"name": "\#(String(repeating: "x", count: 2000))"}"#, .contentTooLarge, "body"),
            ]
            for (path, body, status, field) in cases {
                let reply = try await client.call(.post, path, body)
                #expect(reply.status == status, "\(path) \(body.prefix(80)): \(reply.body)")
                #expect(reply.field == field, "\(path) \(body.prefix(80)): \(reply.body)")
                #expect(reply.headers[.contentType]?.hasPrefix("application/json") == true)
            }
            for table in ["Person", "Meeting", "Project", "Company"] {
                #expect(try manager.count(of: table) == 0, "\(table) has rows after refused creates")
            }
        }
    }

    @Test("bad paths and query parameters name the parameter", arguments: Backend.allCases)
    func badParameters(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let cases: [(String, HTTPResponse.Status, String?)] = [
                ("/people/abc", .badRequest, "id"),
                ("/people/-3", .badRequest, "id"),
                ("/people/7", .notFound, "id"),
                ("/people?limit=0", .badRequest, "limit"),
                ("/people?limit=100000", .badRequest, "limit"),
                ("/people?offset=-1", .badRequest, "offset"),
                ("/people?sort=password", .badRequest, "sort"),
                ("/people?minAge=old", .badRequest, "minAge"),
                ("/people?lastName=a&lastName=b", .badRequest, "lastName"),
                ("/people?drop=table", .badRequest, "drop"),
                ("/meetings?from=yesterday", .badRequest, "from"),
                ("/reports/weekly?locale=xx_XX&from=2010-12-13&to=2011-01-16", .badRequest, "locale"),
                ("/reports/weekly?from=2010-12-13&to=2011-01-16", .badRequest, "locale"),
                ("/reports/weekly?locale=de_DE&from=2011-02-30&to=2011-03-16", .badRequest, "from"),
                ("/reports/weekly?locale=de_DE&from=2011-01-16&to=2010-12-13", .badRequest, "to"),
                ("/reports/weekly?locale=de_DE&from=2010-12-13&to=2011-01-16&week=1", .badRequest, "week"),
            ]
            for (uri, status, field) in cases {
                let reply = try await client.call(.get, uri)
                #expect(reply.status == status && reply.field == field, "\(uri): \(reply.status) \(reply.body)")
            }
            // SQL in a filter value is a value.
            let reply = try await client.call(.get, "/people?lastName=x'%20OR%201=1%20--")
            #expect(reply.status == .ok && reply.body.contains(#""items":[]"#))
        }
    }

    @Test("a name taken is 409 naming it; the first company stays", arguments: Backend.allCases)
    func uniqueConflict(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        try await app.test(.router) { client in
            #expect(try await client.call(.post, "/companies", #"{"name": "Acme"}"#).status == .created)
            let again = try await client.call(.post, "/companies", #"{"name": "Acme"}"#)
            #expect(again.status == .conflict && again.field == "name", "\(again.body)")
            #expect(try manager.count(of: "Company") == 1)
        }
    }

    @Test(
        "a PUT with a stale ETag, from another instance's write, is 412 and changes nothing",
        arguments: Backend.allCases)
    func staleUpdate(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (first, _) = try await harness.instance()
        let (second, _) = try await harness.instance()
        let (id, etag) = try await first.test(.router) { client in
            let created = try await client.call(.post, "/people", #"{"firstName": "Ann", "lastName": "Lee"}"#)
            return (try created.decodeID(), try #require(created.headers[.eTag]))
        }
        // The other instance writes the row, with the ETag it was read at.
        try await second.test(.router) { client in
            let reply = try await client.call(
                .put, "/people/\(id)", #"{"firstName": "Ann", "lastName": "Second"}"#, headers: [.ifMatch: etag])
            #expect(reply.status == .ok && reply.headers[.eTag] != etag)
        }
        try await first.test(.router) { client in
            let stale = try await client.call(
                .put, "/people/\(id)", #"{"firstName": "Ann", "lastName": "First"}"#, headers: [.ifMatch: etag])
            #expect(stale.status == .preconditionFailed && stale.field == "If-Match", "\(stale.body)")
            let now = try await client.call(.get, "/people/\(id)")
            #expect(now.body.contains(#""lastName":"Second""#))
            let fresh = try #require(now.headers[.eTag])
            let retried = try await client.call(
                .put, "/people/\(id)", #"{"firstName": "Ann", "lastName": "First"}"#, headers: [.ifMatch: fresh])
            #expect(retried.status == .ok)
            let garbled = try await client.call(
                .put, "/people/\(id)", #"{"firstName": "Ann", "lastName": "X"}"#, headers: [.ifMatch: "*"])
            #expect(garbled.status == .badRequest && garbled.field == "If-Match")
            #expect(try await client.call(.get, "/people/\(id)").body.contains(#""lastName":"First""#))
        }
    }

    @Test("health answers; an unknown path is a JSON 404", arguments: Backend.allCases)
    func health(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let health = try await client.call(.get, "/health")
            #expect(health.status == .ok && health.body == #"{"status":"ok"}"#)
            let missing = try await client.call(.get, "/nowhere")
            #expect(missing.status == .notFound && missing.body.hasPrefix(#"{"error""#))
        }
    }

    @Test(
        "a database that is gone answers 503 saying the request was not stored, with Retry-After; nothing of the server"
    )
    func databaseGone() async throws {
        guard let harness = try ServiceHarness(.postgresql), case .postgres(let url, _) = harness.database,
            let server = try TestPostgresServer.shared()
        else { return }
        let (app, _) = try await harness.instance()
        let name = String(url.split(separator: "/").last!.prefix { $0 != "?" })
        let admin = try DBBManager(postgres: try server.makeDatabase())
        try admin.execute("DROP DATABASE \"\(name)\" WITH (FORCE)")
        try await app.test(.router) { client in
            for _ in 0..<2 {
                let reply = try await client.call(.get, "/people")
                #expect(reply.status == .serviceUnavailable, "\(reply.body)")
                #expect(try reply.decode(APIError.Body.self).outcome == .notStored, "\(reply.body)")
                #expect(reply.headers[.retryAfter] == "1")
                #expect(!reply.body.contains(name), "the database's name stays in the log")
            }
        }
    }

    @Test("with --answer-timeout, a request whose server process is stopped (SIGSTOP) gets a 503 within it, not a hang")
    func frozenServer() async throws {
        guard let harness = try ServiceHarness(.postgresql), case .postgres(let url, _) = harness.database,
            let server = try TestPostgresServer.shared()
        else { return }
        let (app, _) = try await harness.instance(deadlines: .init(answerTimeout: .seconds(1)))
        let name = String(url.split(separator: "/").last!.prefix { $0 != "?" })
        let admin = try DBBManager(postgres: try server.makeDatabase())
        try await app.test(.router) { client in
            #expect(try await client.call(.get, "/people").status == .ok)
            // Every server process of the service's database stops answering.
            let pids = try admin.query("SELECT pid FROM pg_stat_activity WHERE datname = ?", arguments: [name])
                .map { pid_t(try $0.decode(Int.self, at: 0)) }
            #expect(!pids.isEmpty)
            for pid in pids { kill(pid, SIGSTOP) }
            defer { for pid in pids { kill(pid, SIGCONT) } }
            let reply = try await client.call(.get, "/people")
            #expect(reply.status == .serviceUnavailable, "\(reply.body)")
            #expect(try reply.decode(APIError.Body.self).outcome == .notStored, "\(reply.body)")
        }
    }
}
