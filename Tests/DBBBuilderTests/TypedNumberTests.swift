import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// A ratio of sums as a typed expression: integers as doubles, arithmetic on optional numbers,
/// the same `Double` on both backends as Swift's division of the same sums.
@Suite struct TypedNumberTests {
    @Test("a ratio of integer sums is Swift's Double division on both backends", arguments: Backend.allCases)
    func ratioOfSums(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        // Sums whose quotients are not short decimals: PostgreSQL's numeric division would round
        // them otherwise than a double division.
        let rows: [(String, Int, String?)] = [
            ("/a", 7, "x"), ("/a", 11, nil), ("/b", 1, "y"), ("/b", 2, "y"), ("/b", 4, nil), ("/c", 3, nil),
        ]
        for (page, clicks, referrer) in rows {
            let visit = Visit(dbManager: manager)
            (visit.page, visit.clicks, visit.referrer) = (page, clicks, referrer)
            try visit.save()
        }
        let ratio = DBBExpression<Visit, Double?>.double(.sum(\.clicks)) / .double(DBBExpression<Visit, Int>.count())
        let perThird = DBBExpression<Visit, Double?>.double(.sum(\.clicks)) / DBBExpression<Visit, Double?>.value(3.0)
        let sum = DBBExpression<Visit, Int?>.sum(\.clicks)
        let sumAndMost = sum + DBBExpression<Visit, Int>.max(\.clicks)
        let page = DBBExpression<Visit, String>.column(\.page)
        let found = try Visit.select(page, ratio, perThird, sumAndMost)
            .group(by: .column(\.page)).order(by: .ascending(\.page)).rows(manager)
        let pages = ["/a", "/b", "/c"]
        #expect(found.map(\.0) == pages)
        for (page, ratio, third, summed) in found {
            let clicks = rows.filter { $0.0 == page }.map(\.1)
            let sum = clicks.reduce(0, +)
            #expect(ratio == Double(sum) / Double(clicks.count), "\(page)")
            #expect(third == Double(sum) / 3.0, "\(page)")
            #expect(summed == sum + clicks.max()!, "\(page)")
        }
        // NULL on either side is NULL: no row, no sum (and no division by the count of 0).
        let sumLessClicks = sum - DBBExpression<Visit, Int>.count()
        let none = try Visit.select(sumAndMost, ratio, sumLessClicks)
            .where(\.page == "/none").rows(manager)
        #expect(none.count == 1 && none[0].0 == nil && none[0].1 == nil && none[0].2 == nil, "\(none)")
    }
}
