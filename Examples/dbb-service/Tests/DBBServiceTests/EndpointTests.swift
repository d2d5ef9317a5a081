import DBBBuilder
import DBBService
import DBBTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

struct Person: Decodable {
    let id: Int64
    let firstName: String
    let lastName: String
    let age: Int
    let employer: Int64?
}

struct Listed<Item: Decodable>: Decodable {
    let items: [Item]
    let nextOffset: Int?
}

@Suite("dbb-service endpoints, on SQLite and PostgreSQL")
struct EndpointTests {
    @Test("create, read, list with filter, sort and pages, replace, delete", arguments: Backend.allCases)
    func crud(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let acme = try await client.call(
                .post, "/companies", #"{"name": "Acme", "founded": "1999-05-01T00:00:00Z"}"#)
            #expect(acme.status == .created)
            let acmeID = try acme.decodeID()
            for (index, name) in ["Cy", "Ann", "Bo", "Di", "Ed"].enumerated() {
                let reply = try await client.call(
                    .post, "/people",
                    #"{"firstName": "\#(name)", "lastName": "Smith", "age": \#(20 + index), "employer": \#(acmeID)}"#)
                #expect(reply.status == .created)
                #expect(reply.headers[.location]?.hasPrefix("/people/") == true && reply.headers[.eTag] != nil)
            }
            let page1 = try await client.call(.get, "/people?lastName=Smith&sort=firstName&limit=2").decode(
                Listed<Person>.self)
            #expect(page1.items.map(\.firstName) == ["Ann", "Bo"] && page1.nextOffset == 2)
            let page3 = try await client.call(.get, "/people?lastName=Smith&sort=firstName&limit=2&offset=4").decode(
                Listed<Person>.self)
            #expect(page3.items.map(\.firstName) == ["Ed"] && page3.nextOffset == nil)
            let older = try await client.call(.get, "/people?minAge=23&sort=-age").decode(Listed<Person>.self)
            #expect(older.items.map(\.firstName) == ["Ed", "Di"])
            let employed = try await client.call(.get, "/people?employer=\(acmeID)").decode(Listed<Person>.self)
            #expect(employed.items.count == 5)

            let ann = page1.items[0]
            let replaced = try await client.call(
                .put, "/people/\(ann.id)", #"{"firstName": "Ann", "lastName": "Jones", "age": 40}"#)
            #expect(replaced.status == .ok)
            let read = try await client.call(.get, "/people/\(ann.id)")
            #expect(try read.decode(Person.self).lastName == "Jones" && read.decode(Person.self).employer == nil)
            #expect(read.headers[.eTag] == replaced.headers[.eTag])

            #expect(try await client.call(.delete, "/people/\(ann.id)").status == .noContent)
            #expect(try await client.call(.get, "/people/\(ann.id)").status == .notFound)
            #expect(try await client.call(.delete, "/people/\(ann.id)").status == .notFound)
        }
    }

    @Test("a meeting's participants and project are stored as ids and read back", arguments: Backend.allCases)
    func meetingRelations(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let a = try await client.call(.post, "/people", #"{"firstName": "A", "lastName": "X"}"#).decodeID()
            let b = try await client.call(.post, "/people", #"{"firstName": "B", "lastName": "X"}"#).decodeID()
            let project = try await client.call(
                .post, "/projects", #"{"name": "Apollo", "budget": 2.5e6, "projectLead": \#(a)}"#
            ).decodeID()
            let meeting = try await client.call(
                .post, "/meetings",
                #"{"purpose": "Kickoff", "startTime": "2026-11-23T09:30:00Z", "participants": [\#(b), \#(a)], "project": \#(project)}"#
            )
            #expect(meeting.status == .created)
            struct Meeting: Decodable {
                let participants: [Int64]
                let project: Int64?
            }
            let listed = try await client.call(.get, "/meetings?participant=\(a)&from=2026-11-23T00:00:00Z")
                .decode(Listed<Meeting>.self)
            #expect(
                listed.items.count == 1 && listed.items[0].participants == [b, a] && listed.items[0].project == project)
            #expect(
                try await client.call(.get, "/meetings?from=2026-11-24T00:00:00Z").decode(Listed<Meeting>.self)
                    .items.isEmpty)
        }
    }

    @Test("the weekly report groups by the locale's weeks in the database", arguments: Backend.allCases)
    func weeklyReport(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, _) = try await harness.instance()
        struct Report: Decodable {
            struct Week: Decodable {
                let week: String
                let start: String
                let valuePerVisit: Double
            }
            let firstWeekday: Int
            let weeks: [Week]
        }
        try await app.test(.router) { client in
            let german = try await client.call(.get, "/reports/weekly?locale=de_DE&from=2010-12-13&to=2011-01-16")
                .decode(Report.self)
            let american = try await client.call(.get, "/reports/weekly?locale=en_US&from=2010-12-13&to=2011-01-16")
                .decode(Report.self)
            #expect(german.firstWeekday == 2 && american.firstWeekday == 1)
            // German weeks start on Mondays (2010-12-13 is one), US weeks on Sundays.
            #expect(
                german.weeks.map(\.start) == ["2010-12-13", "2010-12-20", "2010-12-27", "2011-01-03", "2011-01-10"])
            #expect(
                american.weeks.map(\.start) == [
                    "2010-12-12", "2010-12-19", "2010-12-26", "2011-01-02", "2011-01-09", "2011-01-16",
                ])
            #expect(german.weeks.allSatisfy { $0.valuePerVisit > 2 && $0.valuePerVisit < 6 })
        }
    }
}

extension Reply {
    /// The `id` of a created record's JSON.
    func decodeID() throws -> Int64 {
        struct Created: Decodable { let id: Int64 }
        return try decode(Created.self).id
    }
}
