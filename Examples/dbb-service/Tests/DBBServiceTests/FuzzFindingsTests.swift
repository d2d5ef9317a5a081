import DBBBuilder
import DBBService
import DBBTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// What checking the service against openapi.yaml turned up — by schemathesis
/// (.ci/service-fuzz), or by hand at the edges of what the document declares — each kept here
/// as a test of its own.
@Suite("dbb-service: what the fuzzer found")
struct FuzzFindingsTests {
    /// A date-time whose offset moves it out of years 1…9999 in UTC was stored, and answered
    /// as `10000-01-01T00:59:59.000Z` or `0000-12-31T23:00:00.000Z`: not a date-time to the
    /// document, and refused by the service itself when the client sent the record back.
    @Test("a date-time outside years 1…9999 in UTC is a 400, the edges are stored", arguments: Backend.allCases)
    func datesOutsideFourDigitYears(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        try await app.test(.router) { client in
            for founded in [
                "9999-12-31T23:59:59-01:00", "0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00.000+00:01",
                "9999-12-31T23:30:00.5-00:30",
            ] {
                let reply = try await client.call(.post, "/companies", #"{"name": "c", "founded": "\#(founded)"}"#)
                #expect(reply.status == .badRequest && reply.field == "founded", "\(founded): \(reply.body)")
            }
            #expect(try manager.count(of: "Company") == 0)
            for (index, (founded, answered)) in [
                ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
                ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"),
                ("9999-12-31T23:59:59+00:00", "9999-12-31T23:59:59.000Z"),
                ("0001-01-01T00:00:00.000-00:01", "0001-01-01T00:01:00.000Z"),
            ].enumerated() {
                let created = try await client.call(
                    .post, "/companies", #"{"name": "c\#(index)", "founded": "\#(founded)"}"#)
                #expect(created.status == .created, "\(founded): \(created.body)")
                #expect(created.body.contains(#""founded":"\#(answered)""#), "\(founded): \(created.body)")
                // What the service answers, it takes back.
                let location = try #require(created.headers[.location])
                let again = try await client.call(
                    .put, location, #"{"name": "c\#(index)", "founded": "\#(answered)"}"#)
                #expect(again.status == .ok && again.body.contains(#""founded":"\#(answered)""#), "\(again.body)")
            }
            let filter = try await client.call(.get, "/meetings?from=9999-12-31T23:59:59-01:00")
            #expect(filter.status == .badRequest && filter.field == "from", "\(filter.body)")
        }
    }

    /// A name of 20,000 characters was a 500 on PostgreSQL: the index on the column refused the
    /// entry (SQLSTATE 54000, "index row requires 20016 bytes"). Names are now at most 250
    /// characters on both backends, 250 four-byte ones included.
    @Test("a name too long for an index is a 422 naming it, on both backends", arguments: Backend.allCases)
    func namesTooLongForAnIndex(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        let long = String(repeating: "x", count: 20_000)
        let longest = String(repeating: "\u{1F600}", count: Check.maximumNameLength)
        try await app.test(.router) { client in
            for (path, body, field) in [
                ("/companies", #"{"name": "\#(long)"}"#, "name"),
                ("/projects", #"{"name": "\#(long)"}"#, "name"),
                ("/people", #"{"firstName": "a", "lastName": "\#(long)"}"#, "lastName"),
                ("/people", #"{"firstName": "\#(long)", "lastName": "a"}"#, "firstName"),
                ("/meetings", #"{"purpose": "\#(long)", "startTime": "2026-11-23T09:30:00Z"}"#, "purpose"),
                ("/companies", #"{"name": "\#(longest)y"}"#, "name"),
            ] {
                let reply = try await client.call(.post, path, body)
                #expect(reply.status == .unprocessableContent && reply.field == field, "\(path): \(reply.body)")
            }
            #expect(try manager.count(of: "Company") == 0 && manager.count(of: "Person") == 0)
            for (path, body) in [
                ("/companies", #"{"name": "\#(longest)"}"#),
                ("/projects", #"{"name": "\#(longest)"}"#),
                ("/people", #"{"firstName": "\#(longest)", "lastName": "\#(longest)"}"#),
            ] {
                let reply = try await client.call(.post, path, body)
                #expect(reply.status == .created, "\(path): \(reply.body.prefix(200))")
            }
        }
    }

    /// A budget of -0 was answered `-0` by the create and `0` by every read on SQLite (which
    /// stores -0.0 as 0); a create answers what a later read gives.
    @Test("a budget of -0 is stored and answered as 0", arguments: Backend.allCases)
    func negativeZeroBudget(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let created = try await client.call(.post, "/projects", #"{"name": "p", "budget": -0.0}"#)
            #expect(created.status == .created && created.body.contains(#""budget":0,"#), "\(created.body)")
            let read = try await client.call(.get, try #require(created.headers[.location]))
            #expect(read.body == created.body)
        }
    }
}
