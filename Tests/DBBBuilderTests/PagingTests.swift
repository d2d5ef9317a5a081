import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@Suite("DBBQueryOptions limit and offset: pages")
struct PagingTests {
    @Test("pages follow the sorting, ties broken by id, and cover every row once", arguments: Backend.allCases)
    func pagesCoverEveryRow(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Clerk.self]) else { return }
        try Clerk.save((0..<25).map { Clerk("name \($0 % 3)", manager: db.manager) }, manager: db.manager)
        var seen: [Int64] = []
        for page in 0..<4 {
            var options = DBBQueryOptions.options(sortColumns: ["name"])
            (options.limit, options.offset) = (7, page * 7)
            let clerks = try Clerk.instances(matching: options, manager: db.manager)
            #expect(clerks.count == (page < 3 ? 7 : 4))
            seen += clerks.map(\.id)
        }
        let all = try Clerk.all(manager: db.manager).sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        #expect(seen == all.map(\.id))
    }

    @Test(
        "without a sorting a page is in id order; an offset alone skips; the streaming form agrees",
        arguments: Backend.allCases)
    func idOrderAndOffsetAlone(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Clerk.self]) else { return }
        try Clerk.save((0..<10).map { Clerk("c\($0)", manager: db.manager) }, manager: db.manager)
        let ids = try Clerk.allIDs(manager: db.manager).sorted()
        var options = DBBQueryOptions()
        options.offset = 8
        #expect(try Clerk.instances(matching: options, manager: db.manager).map(\.id) == Array(ids[8...]))
        options.limit = 1
        #expect(try Clerk.instances(matching: options, manager: db.manager).map(\.id) == [ids[8]])
        var streamed: [Int64] = []
        options.offset = 2
        options.limit = 5
        try Clerk.forEachInstance(matching: options, manager: db.manager, batchSize: 2) { streamed.append($0.id) }
        #expect(streamed == Array(ids[2..<7]))
    }

    @Test("a negative limit or offset is refused naming it", arguments: ["limit", "offset"])
    func negative(_ name: String) throws {
        guard let db = try BackendDatabase(.sqlite, [Clerk.self]) else { return }
        var options = DBBQueryOptions()
        if name == "limit" { options.limit = -1 } else { options.offset = -3 }
        #expect {
            try Clerk.instances(matching: options, manager: db.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidOption && error.message.hasPrefix(name)
        }
    }

    @Test("perform runs raw SQL off the caller's thread and returns its rows", arguments: Backend.allCases)
    func perform(_ backend: Backend) async throws {
        guard let db = try BackendDatabase(backend, [Clerk.self]) else { return }
        try await Clerk("Ann", manager: db.manager).save()
        let rows = try await db.manager.perform { manager in
            try manager.query(#"SELECT "name" FROM "Clerk" WHERE "name" = ?"#, arguments: ["Ann"])
        }
        #expect(rows.count == 1 && rows[0]["name", as: String.self] == "Ann")
    }
}

@Suite("Sorting NULL: the same order on both backends")
struct NullSortingTests {
    @Test("NULL sorts first ascending and last descending, on SQLite and PostgreSQL alike", arguments: Backend.allCases)
    func nullsFirstAscending(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Person.self]) else { return }
        for (name, rating) in [("a", 2.0), ("b", nil), ("c", 1.0), ("d", nil)] as [(String, Double?)] {
            let person = Person(name, "X", age: 1, manager: db.manager)
            person.rating = rating
            try person.save()
        }
        let ascending = try Person.instances(matching: .options(sortColumns: ["rating"]), manager: db.manager)
        let up = ascending.map { $0.firstName ?? "" }
        #expect(Set(up.prefix(2)) == ["b", "d"] && up.suffix(2) == ["c", "a"])
        let descending = try Person.instances(
            matching: .options(sortColumns: ["rating"], ascendingSort: false), manager: db.manager)
        let down = descending.map { $0.firstName ?? "" }
        #expect(down.prefix(2) == ["a", "c"] && Set(down.suffix(2)) == ["b", "d"])
    }
}
