import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// A typed select's SQL is kept by shape (RenderedQueries): a query run again with other values
/// takes the kept text and binds the new values at their places. Every check compares the
/// manager that ran the shape before with a manager that renders it for the first time.
@Suite struct RenderedQueryCacheTests {
    /// The queries of one shape, built with the values `n` gives.
    private static func queries(_ n: Int, _ text: String) -> [DBBSelect<Visit, Int, Int?>] {
        let week = DBBExpression<Visit, String?>.week(of: \.day, in: "ru_RU")
        return [
            Visit.select(.count(), .sum(\.clicks)).where(\.seconds > Double(n) && \.page == text),
            Visit.select(.count(), .sum(\.clicks))
                .where(.in(\.clicks, [n, n + 1, n + 2]) && .like(\.page, text + "%", ignoringCase: n % 2 == 0))
                .limit(n).offset(n % 3),
            Visit.select(.count(), .max(\.clicks))
                .where(.notIn(\.page, [text]) || .contains(\.tags, text) || .isNotNull(week))
                .group(by: week).having(.count() > n).order(by: .descending(.count())),
            Visit.select(.count(), .sum(DBBExpression<Visit, Int>.column(\.clicks) * n + 1))
                .where(.in(\.clicks, Visit.select(.column(\.clicks)).where(\.page == text)))
                .where(.exists(Visit.select(.count()).where(\.seconds < Double(n)))),
        ]
    }

    @Test(
        "the same shape with other values: the kept SQL binds them where a fresh render does",
        arguments: Backend.allCases)
    func keptSQLBindsNewValues(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let visit = Visit(dbManager: manager)
        (visit.page, visit.clicks, visit.seconds, visit.day) = ("/a", 3, 5, Date(timeIntervalSince1970: 1_700_000_000))
        visit.tags = ["/a"]
        try visit.save()
        for query in Self.queries(1, "/x") { _ = try query.rows(manager) }

        for (n, text) in [(2, "/a"), (7, "it's 100%_"), (1, "/x")] {
            let fresh = try database.reopen([Visit.self])
            for (kept, first) in zip(Self.queries(n, text), Self.queries(n, text)) {
                let expected = try first.sql(on: fresh)
                #expect(try kept.sql(on: manager) == expected)
                let keptRows = try kept.rows(manager).map { "\($0)" }
                #expect(keptRows == (try first.rows(fresh).map { "\($0)" }))
            }
        }
    }

    @Test(
        "a query built once and run again keeps its SQL per manager: another manager, a clause added, a closed manager",
        arguments: Backend.allCases)
    func queryValueKeepsItsSQLPerManager(_ backend: Backend) throws {
        guard let first = try BackendDatabase(backend, [Visit.self]),
            let second = try BackendDatabase(backend, [Visit.self])
        else { return }
        for (database, pages) in [(first, ["/a", "/a", "/b"]), (second, ["/b"])] {
            for page in pages {
                let visit = Visit(dbManager: database.manager)
                (visit.page, visit.clicks) = (page, page == "/a" ? 2 : 5)
                try visit.save()
            }
        }
        let query = Visit.select(.column(\.page), .count()).group(by: .column(\.page)).order(by: .ascending(\.page))
        let expected = [("/a", 2), ("/b", 1)]
        for _ in 0..<3 {
            #expect(try query.rows(first.manager).map { "\($0)" } == expected.map { "\($0)" })
            #expect(try query.rows(second.manager).map { "\($0)" } == [("/b", 1)].map { "\($0)" })
        }
        // A clause on a copy of a query that ran is a new query, not the kept one.
        let narrowed = query.where(\.clicks > 3)
        #expect(try narrowed.rows(first.manager).map { "\($0)" } == [("/b", 1)].map { "\($0)" })
        #expect(try query.rows(first.manager).count == 2)
        // A manager opened after the one the query ran on closed is served by its own render.
        let reopened = try first.reopen([Visit.self])
        let fresh = Visit.select(.column(\.page), .count()).group(by: .column(\.page)).order(by: .ascending(\.page))
        #expect(try query.sql(on: reopened) == (try fresh.sql(on: reopened)))
        #expect(try query.rows(reopened).map { "\($0)" } == expected.map { "\($0)" })
    }

    @Test("a typed fetch of objects kept by shape selects by each run's values", arguments: Backend.allCases)
    func keptFetchSelectsByNewValues(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        for (n, page) in ["/a", "/b", "/a", "/c", "/b"].enumerated() {
            let visit = Visit(dbManager: manager)
            (visit.page, visit.clicks, visit.tags) = (page, n, n % 2 == 0 ? ["even"] : [])
            try visit.save()
        }
        func pages(_ page: String, _ clicks: Int, _ tag: String, on manager: DBBManager) throws -> [Int] {
            try Visit.instances(
                where: (\.page == page || .contains(\.tags, tag)) && \.clicks >= clicks,
                sortedBy: [.descending(\.clicks)], limit: 2, manager: manager
            ).map(\.clicks)
        }
        _ = try pages("/z", 0, "none", on: manager)
        let fresh = try database.reopen([Visit.self])
        for (page, clicks, tag) in [("/a", 0, "none"), ("/b", 2, "even"), ("/c", 0, "/c")] {
            let kept = try pages(page, clicks, tag, on: manager)
            #expect(kept == (try pages(page, clicks, tag, on: fresh)))
            #expect(!kept.isEmpty)
        }
    }

    @Test("equal values share a placeholder: which are equal is part of the shape", arguments: Backend.allCases)
    func equalValuesAreShape(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        func query(_ page: String, _ referrer: String) -> DBBSelect<Visit, Int> {
            Visit.select(.count()).where(\.page == page || \.referrer == referrer)
        }
        let distinct = try query("/a", "/b").sql(on: manager)
        let equal = try query("/c", "/c").sql(on: manager)
        let distinctAgain = try query("/d", "/e").sql(on: manager)
        #expect(distinct.arguments == [.text("/a"), .text("/b")])
        #expect(equal.arguments == [.text("/c")])
        #expect(equal.sql != distinct.sql)
        #expect(distinctAgain.sql == distinct.sql)
        #expect(distinctAgain.arguments == [.text("/d"), .text("/e")])
    }

    @Test(
        "texts Swift calls equal but whose bytes differ (é composed, e + accent) are two values, as are 0.0 and -0.0",
        arguments: Backend.allCases)
    func byteDifferentValuesAreTwoValues(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let (composed, decomposed) = ("\u{E9}", "e\u{301}")
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        for (page, referrer) in [(composed, decomposed), (decomposed, composed)] {
            let visit = Visit(dbManager: manager)
            (visit.page, visit.referrer) = (page, referrer)
            try visit.save()
        }
        let both = Visit.select(.count()).where(\.page == composed && \.referrer == decomposed)
        #expect(try both.sql(on: manager).arguments == [.text(composed), .text(decomposed)])
        #expect(try both.rows(manager).first == 1)
        #expect(try Visit.instances(where: .in(\.page, [composed, decomposed]), manager: manager).count == 2)
        try Visit.update(.set(\.page, to: composed), .set(\.referrer, to: decomposed), where: .all, manager: manager)
        let stored = try Visit.instances(manager: try database.reopen([Visit.self]))
        #expect(stored.map { Array(($0.referrer ?? "").utf8) } == [Array(decomposed.utf8), Array(decomposed.utf8)])
        let zeros = try Visit.select(.count()).where(\.seconds == 0.0 || \.seconds == -0.0).sql(on: manager)
        #expect(zeros.arguments.count == 2)
    }

    @Test(
        "a value the kept shape would refuse is refused as on the first run, naming the property",
        arguments: Backend.allCases)
    func refusedValuesAfterAKeptShape(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        func query(_ seconds: Double, limit: Int) -> DBBSelect<Visit, Int> {
            Visit.select(.count()).where(\.seconds > seconds).limit(limit)
        }
        _ = try query(1, limit: 1).rows(manager)
        let nan = #expect(throws: DBBError.self) { try query(.nan, limit: 1).rows(manager) }
        #expect(nan?.kind == .invalidValue)
        #expect(nan?.property == "seconds")
        let negative = #expect(throws: DBBError.self) { try query(1, limit: -1).rows(manager) }
        #expect(negative?.kind == .invalidOption)
        #expect(try query(1, limit: 1).rows(manager).count == 1)
    }
}
