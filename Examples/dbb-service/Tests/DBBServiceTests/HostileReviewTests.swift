import DBBBuilder
import DBBService
import DBBTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// What a hostile review of the service found, each case failing before its fix.
@Suite("dbb-service against a hostile client")
struct HostileReviewTests {
    @Test(
        "NUL characters are a 400 naming the field or parameter, on both backends (PostgreSQL cannot store them)",
        arguments: Backend.allCases)
    func nulCharacters(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        try await app.test(.router) { client in
            let body = try await client.call(.post, "/people", #"{"firstName": "A\u0000", "lastName": "B"}"#)
            #expect(body.status == .badRequest && body.field == "firstName", "\(body.body)")
            let nested = try await client.call(
                .post, "/people", #"{"firstName": "A", "lastName": "B", "nicknames": ["x", "\u0000"]}"#)
            #expect(nested.status == .badRequest && nested.field == "nicknames[1]", "\(nested.body)")
            let filter = try await client.call(.get, "/people?lastName=%00")
            #expect(filter.status == .badRequest && filter.field == "lastName", "\(filter.body)")
            #expect(try manager.count(of: "Person") == 0)
        }
    }

    @Test(
        "report parameters: ICU keywords, loose days and repeats are refused alike on both backends",
        arguments: Backend.allCases)
    func reportParameters(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            for (query, field) in [
                ("locale=de_DE@calendar=hebrew&from=2010-12-13&to=2011-01-16", "locale"),
                ("locale=en_US%40fw%3Dmon&from=2010-12-13&to=2011-01-16", "locale"),
                ("locale=de_DE&from=2010-1-013&to=2010-12-20", "from"),
                ("locale=de_DE&from=2010-12-13&to=2011-01-16&to=2011-01-17", "to"),
            ] {
                let reply = try await client.call(.get, "/reports/weekly?\(query)")
                #expect(reply.status == .badRequest && reply.field == field, "\(query): \(reply.body)")
            }
        }
    }

    @Test(
        "a DELETE with a stale If-Match is 412 and the record stays; with the current one it goes",
        arguments: Backend.allCases)
    func conditionalDelete(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        try await app.test(.router) { client in
            let created = try await client.call(.post, "/companies", #"{"name": "Acme"}"#)
            let (id, stale) = (try created.decodeID(), try #require(created.headers[.eTag]))
            let replaced = try await client.call(.put, "/companies/\(id)", #"{"name": "Acme Ltd"}"#)
            let refused = try await client.call(.delete, "/companies/\(id)", headers: [.ifMatch: stale])
            #expect(refused.status == .preconditionFailed && refused.field == "If-Match", "\(refused.body)")
            #expect(try manager.count(of: "Company") == 1)
            let current = try #require(replaced.headers[.eTag])
            #expect(
                try await client.call(.delete, "/companies/\(id)", headers: [.ifMatch: current]).status == .noContent)
            #expect(try manager.count(of: "Company") == 0)
        }
    }

    @Test(
        "bodies: a non-JSON Content-Type, too many items, invisible or look-alike names, id 0",
        arguments: Backend.allCases)
    func bodies(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        try await app.test(.router) { client in
            let form = try await client.call(
                .post, "/companies", #"{"name": "A"}"#, headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(form.status == .unsupportedMediaType && form.field == "Content-Type")
            let json = try await client.call(
                .post, "/companies", #"{"name": "Json"}"#, headers: [.contentType: "application/json; charset=utf-8"])
            #expect(json.status == .created)
            let many = (0...Check.maximumItems).map { "\"n\($0)\"" }.joined(separator: ", ")
            let tooMany = try await client.call(
                .post, "/people", #"{"firstName": "A", "lastName": "B", "nicknames": [\#(many)]}"#)
            #expect(tooMany.status == .unprocessableContent && tooMany.field == "nicknames")
            let invisible = try await client.call(.post, "/companies", #"{"name": "\u200b\u00ad"}"#)
            #expect(invisible.status == .unprocessableContent && invisible.field == "name")
            #expect(try await client.call(.post, "/companies", #"{"name": "\u00dc"}"#).status == .created)
            let lookAlike = try await client.call(.post, "/companies", #"{"name": "U\u0308"}"#)
            #expect(lookAlike.status == .conflict && lookAlike.field == "name", "\(lookAlike.body)")
            let zero = try await client.call(.post, "/people", #"{"firstName": "A", "lastName": "B", "spouse": 0}"#)
            #expect(
                zero.status == .unprocessableContent && zero.body.contains("person 0 does not exist"), "\(zero.body)")
            #expect(try manager.count(of: "Person") == 0 && manager.count(of: "Company") == 2)
        }
    }

    @Test(
        "dates keep their milliseconds; the last page says nextOffset null; odd list parameters are refused",
        arguments: Backend.allCases)
    func datesPagesParameters(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let meeting = try await client.call(
                .post, "/meetings", #"{"purpose": "P", "startTime": "2030-01-01T10:00:00.750Z"}"#)
            #expect(meeting.body.contains(#""startTime":"2030-01-01T10:00:00.750Z""#), "\(meeting.body)")
            let page = try await client.call(.get, "/meetings?from=2030-01-01T09:59:59.500Z")
            #expect(page.body.contains(#""nextOffset":null"#) && page.body.contains(#""purpose":"P""#), "\(page.body)")
            for (query, field) in [("sort=", "sort"), ("sort=name,", "sort"), ("minBudget=0x10", "minBudget")] {
                let reply = try await client.call(.get, "/projects?\(query)")
                #expect(reply.status == .badRequest && reply.field == field, "\(query): \(reply.body)")
            }
        }
    }
}

/// What a second hostile review found, each case failing (or crashing the service) before its fix.
@Suite("dbb-service against a hostile client, second pass")
struct SecondReviewTests {
    @Test("an empty Content-Type is a 415, not a crash", arguments: ["", ";", " ; charset=utf-8"])
    func emptyContentType(_ value: String) async throws {
        guard let harness = try ServiceHarness(.sqlite) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let reply = try await client.call(.post, "/companies", #"{"name": "x"}"#, headers: [.contentType: value])
            #expect(reply.status == .unsupportedMediaType && reply.field == "Content-Type", "\(reply.body)")
        }
    }

    @Test("days that do not exist are refused in bodies and filters, not rolled over", arguments: Backend.allCases)
    func impossibleDates(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        try await app.test(.router) { client in
            for body in [
                #"{"purpose": "m", "startTime": "2020-02-30T00:00:00Z"}"#,
                #"{"purpose": "m", "startTime": "-0001-01-01T00:00:00Z"}"#,
                #"{"purpose": "m", "startTime": "2021-02-29T10:00:00.5Z"}"#,
            ] {
                let reply = try await client.call(.post, "/meetings", body)
                #expect(reply.status == .badRequest && reply.field == "startTime", "\(body): \(reply.body)")
            }
            let leap = try await client.call(
                .post, "/meetings", #"{"purpose": "m", "startTime": "2020-02-29T10:00:00Z"}"#)
            #expect(leap.status == .created)
            let filter = try await client.call(.get, "/meetings?from=2020-02-30T00:00:00Z")
            #expect(filter.status == .badRequest && filter.field == "from")
            #expect(try manager.count(of: "Meeting") == 1)
        }
    }

    @Test("names: invisible characters inside are dropped, filters compare composed forms", arguments: Backend.allCases)
    func names(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            #expect(try await client.call(.post, "/companies", #"{"name": "dup"}"#).status == .created)
            for name in [#"dup\u200b"#, #"\ufeffdup"#, #" dup "#] {
                let reply = try await client.call(.post, "/companies", #"{"name": "\#(name)"}"#)
                #expect(reply.status == .conflict && reply.field == "name", "\(name): \(reply.body)")
            }
            #expect(try await client.call(.post, "/companies", #"{"name": "U\u0308x"}"#).status == .created)
            let found = try await client.call(.get, "/companies?name=U%CC%88x")
            #expect(found.body.contains(#""name":"Üx""#), "\(found.body)")
        }
    }

    @Test("a create answers what a later read gives: no tags is null in both", arguments: Backend.allCases)
    func createMatchesRead(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let created = try await client.call(.post, "/projects", #"{"name": "P", "tags": []}"#)
            let read = try await client.call(.get, "/projects/\(try created.decodeID())")
            #expect(created.status == .created && created.body == read.body, "\(created.body) vs \(read.body)")
        }
    }
}
