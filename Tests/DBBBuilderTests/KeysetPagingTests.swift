import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Keyset paging of typed fetches (`after:` the last object of a page): the pages read in
/// order are the whole ordered result, with NULLs in the sort key, descending and mixed
/// directions, and rows inserted between pages neither repeat nor skip a row.
@Suite struct KeysetPagingTests {
    /// 23 visits with few distinct clicks (ties), a referrer missing from every third and a
    /// day missing from every fourth.
    static func visits(_ manager: DBBManager) throws -> [Visit] {
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let visits = (0..<23).map { number in
            let visit = Visit(dbManager: manager)
            visit.page = "/p\(number)"
            visit.clicks = number % 4
            visit.seconds = Double(number % 5) / 2
            visit.referrer = number.isMultiple(of: 3) ? nil : "r\(number % 2)"
            visit.day = number.isMultiple(of: 4) ? nil : start.addingTimeInterval(Double(number % 3) * 86_400)
            return visit
        }
        try Visit.save(visits, manager: manager)
        return visits
    }

    /// The pages of `size` read one after another, `between` run after each.
    static func pages(
        _ sorting: [DBBSort<Visit>], where condition: DBBCondition<Visit>? = nil, size: Int, _ manager: DBBManager,
        between: (Visit) throws -> Void = { _ in }
    ) throws -> [Int64] {
        var ids: [Int64] = []
        var page = try Visit.instances(where: condition, sortedBy: sorting, limit: size, manager: manager)
        while let last = page.last {
            #expect(page.count <= size)
            ids += page.map(\.id)
            try between(last)
            page = try Visit.instances(where: condition, sortedBy: sorting, after: last, limit: size, manager: manager)
        }
        return ids
    }

    static let sortings: [(String, [DBBSort<Visit>])] = [
        ("referrer ascending (NULL first)", [.ascending(\.referrer)]),
        ("referrer descending (NULL last)", [.descending(\.referrer)]),
        ("clicks descending, referrer ascending", [.descending(\.clicks), .ascending(\.referrer)]),
        (
            "day ascending, clicks descending, seconds",
            [.ascending(\.day), .descending(\.clicks), .ascending(\.seconds)]
        ),
        ("day descending, referrer descending", [.descending(\.day), .descending(\.referrer)]),
        ("id descending", [.descending(\.id)]),
        ("createdTime descending", [.descending(\.createdTime)]),
        ("none (id)", []),
    ]

    @Test("pages after the last object make up the whole ordered result", arguments: Backend.allCases)
    func pagesMakeTheWhole(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        _ = try Self.visits(manager)
        for (name, sorting) in Self.sortings {
            // Ties broken by id (after a sort by id, a term that changes nothing).
            let whole = try Visit.instances(sortedBy: sorting + [.ascending(\.id)], manager: manager).map(\.id)
            #expect(whole.count == 23)
            for size in [1, 4, 23] {
                #expect(try Self.pages(sorting, size: size, manager) == whole, "\(name), pages of \(size)")
            }
            let some = try Visit.instances(
                where: \.clicks != 2, sortedBy: sorting + [.ascending(\.id)], manager: manager
            ).map(\.id)
            #expect(try Self.pages(sorting, where: \.clicks != 2, size: 3, manager) == some, "\(name), a condition")
        }
    }

    @Test("rows inserted between pages neither repeat nor skip a row", arguments: Backend.allCases)
    func insertsBetweenPages(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let original = Set(try Self.visits(manager).map(\.id))
        var before: [Int64] = []
        var after: [Int64] = []
        let read = try Self.pages([.descending(\.clicks), .ascending(\.referrer)], size: 5, manager) { _ in
            // After each of the first three pages: one row sorting before every page (read
            // already), one after every page (still to read).
            guard before.count < 3 else { return }
            let first = Visit(dbManager: manager)
            (first.page, first.clicks) = ("/first", 10)
            let last = Visit(dbManager: manager)
            (last.page, last.clicks, last.referrer) = ("/last", -1, "z")
            try Visit.save([first, last], manager: manager)
            before.append(first.id)
            after.append(last.id)
        }
        #expect(Set(read).count == read.count, "no row twice")
        #expect(original.isSubset(of: Set(read)), "no row skipped")
        #expect(Set(before).isDisjoint(with: Set(read)), "rows inserted before the page are not read")
        #expect(Set(after).isSubset(of: Set(read)), "rows inserted after it are")
        #expect(before.count == 3 && read.count == original.count + after.count)
        // An offset would have read rows twice: every insert before the cursor moves the rest on.
        #expect(
            try Visit.instances(sortedBy: [.descending(\.clicks)], limit: 1, offset: 0, manager: manager).first?.page
                == "/first")
    }

    @Test("a page after a deleted object still follows its key", arguments: Backend.allCases)
    func afterDeletedObject(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        _ = try Self.visits(manager)
        let sorting: [DBBSort<Visit>] = [.ascending(\.referrer)]
        let first = try Visit.instances(sortedBy: sorting, limit: 5, manager: manager)
        let rest = try Visit.instances(sortedBy: sorting + [.ascending(\.id)], manager: manager).dropFirst(5).map(\.id)
        try first.last!.delete()
        #expect(try Visit.instances(sortedBy: sorting, after: first.last!, manager: manager).map(\.id) == Array(rest))
    }

    @Test(
        "refused: a new object, another manager's, an expression sort, a key a partial fetch left out",
        arguments: Backend.allCases)
    func refusals(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let stored = try Self.visits(manager)[3]
        let other = try database.reopen([Visit.self])
        let partial = try #require(
            try Visit.instances(matching: .options(properties: ["page"]), manager: manager).first)
        let cases: [(String, DBBError.Kind, () throws -> [Visit])] = [
            ("new", .invalidOption, { try Visit.instances(after: Visit(dbManager: manager), manager: manager) }),
            ("other manager", .foreignObject, { try Visit.instances(after: stored, manager: other) }),
            (
                "expression", .invalidOption,
                {
                    try Visit.instances(sortedBy: [.ascending(.column(\.clicks) + 1)], after: stored, manager: manager)
                }
            ),
            (
                "array", .invalidOption,
                { try Visit.instances(sortedBy: [.ascending(\.tags)], after: stored, manager: manager) }
            ),
            (
                "partial", .invalidOption,
                {
                    try Visit.instances(sortedBy: [.ascending(\.clicks)], after: partial, manager: manager)
                }
            ),
        ]
        for (name, kind, fetch) in cases {
            let error = #expect(throws: DBBError.self, "\(name)") { _ = try fetch() }
            #expect(error?.kind == kind, "\(name): \(error.map { "\($0)" } ?? "")")
            #expect(error?.table == "Visit", "\(name)")
        }
    }
}
