import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Typed report queries with the locale calendar over a fixed table of visits across three New
/// Years, on each backend, each answer compared with the one Foundation's calendar computes in
/// Swift over the fetched objects (so both backends give the same answer).
@Suite struct TypedReportTests {
    static let locales = ["en_US", "ru_RU", "de_DE"]

    /// 270-odd visits on the 30 days around each New Year from 2020/21 to 2022/23, at varied
    /// hours, and three without a day.
    static func visits(_ manager: DBBManager) throws -> [Visit] {
        var visits: [Visit] = []
        let starts = [(2020, 12, 18), (2021, 12, 17), (2022, 12, 16)]
        for (year, month, day) in starts {
            let first = utc.date(from: DateComponents(year: year, month: month, day: day))!
            for offset in 0..<30 {
                for number in 0..<(1 + offset % 4) {
                    let visit = Visit(dbManager: manager)
                    visit.page = ["/", "/a", "/b"][(offset + number) % 3]
                    visit.seconds = Double((offset * 7 + number * 3) % 40) + 0.5
                    visit.clicks = (offset + number) % 5
                    visit.day = first.addingTimeInterval(Double(offset * 86_400 + (number * 5 % 24) * 3_600))
                    visits.append(visit)
                }
            }
        }
        for page in ["/", "/a", "/b"] {
            let visit = Visit(dbManager: manager)
            (visit.page, visit.clicks, visit.seconds) = (page, 1, 1.5)
            visits.append(visit)
        }
        try Visit.save(visits, manager: manager)
        return visits
    }

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Foundation's Gregorian calendar in UTC with the locale's first weekday and minimum days.
    static func calendar(_ locale: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: locale)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static func weekKey(_ date: Date?, _ calendar: Calendar) -> String? {
        date.map {
            String(
                format: "%04d-%02d", calendar.component(.yearForWeekOfYear, from: $0),
                calendar.component(.weekOfYear, from: $0))
        }
    }

    static func dayText(_ date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// `nil` first, then ascending: the order of `NULL` on every backend.
    static func nilFirst(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): false
        case (nil, _): true
        case (_, nil): false
        case (let a?, let b?): a < b
        }
    }

    @Test(
        "weeks per locale: count, sum, average, HAVING, order and pages as Swift computes them",
        arguments: Backend.allCases)
    func weeks(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let visits = try Self.visits(manager)
        for locale in Self.locales {
            let calendar = Self.calendar(locale)
            let week = DBBExpression<Visit, String?>.week(of: \.day, in: locale)
            let rows = try Visit.select(week, .count(), .sum(\.clicks), .average(\.seconds))
                .group(by: week).having(.count() >= 2).order(by: .ascending(week))
                .rows(manager)
            let grouped = Dictionary(grouping: visits) { Self.weekKey($0.day, calendar) }
            let expected = grouped.filter { $0.value.count >= 2 }.keys.sorted(by: Self.nilFirst).map { key in
                let members = grouped[key]!
                let seconds = members.reduce(0.0) { $0 + $1.seconds }
                return (key, members.count, members.reduce(0) { $0 + $1.clicks }, seconds / Double(members.count))
            }
            #expect(rows.count == expected.count, "\(locale)")
            #expect(rows.count > 12, "\(locale): the fixture spans more weeks")
            for (row, want) in zip(rows, expected) {
                #expect(row.0 == want.0 && row.1 == want.1 && row.2 == want.2, "\(locale): \(row) ≠ \(want)")
                #expect(row.3.map { abs($0 - want.3) < 1e-9 } == true, "\(locale): \(row) ≠ \(want)")
            }
            // A page of the same order.
            let page = try Visit.select(week, .count()).group(by: week).order(by: .ascending(week))
                .limit(3).offset(2).rows(manager)
            let keys = grouped.keys.sorted(by: Self.nilFirst)
            #expect(page.map(\.0) == Array(keys[2..<5]), "\(locale)")
            // The week in a typed fetch's condition, and its first day.
            let newYear = try #require(
                Self.weekKey(Self.utc.date(from: DateComponents(year: 2022, month: 1, day: 1)), calendar))
            let fetched = try Visit.instances(where: week == newYear, sortedBy: [.ascending(\.id)], manager: manager)
            #expect(fetched.map(\.id) == (grouped[newYear] ?? []).map(\.id).sorted(), "\(locale)")
            let starts = try Visit.select(.weekStart(of: \.day, in: locale)).where(week == newYear).distinct()
                .rows(manager)
            let start = calendar.dateInterval(of: .weekOfYear, for: fetched[0].day!)!.start
            #expect(starts == [Self.dayText(start)], "\(locale)")
        }
    }

    @Test("quarters, half-years and formatted months per locale, as Swift computes them", arguments: Backend.allCases)
    func quartersAndHalfYears(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let visits = try Self.visits(manager).filter { $0.day != nil }
        for locale in Self.locales {
            let quarter = DBBExpression<Visit, String?>.start(of: .quarter, containing: \.day, in: locale)
            let half = DBBExpression<Visit, String?>.halfYear(of: \.day, in: locale)
            let rows = try Visit.select(quarter, half, .quarter(of: \.day, in: locale), .sum(\.clicks))
                .where(.isNotNull(\.day))
                .group(by: quarter, half, .quarter(of: \.day, in: locale))
                .order(by: .descending(quarter))
                .rows(manager)
            let grouped = Dictionary(grouping: visits) { visit -> String in
                let parts = Self.utc.dateComponents([.year, .month], from: visit.day!)
                return String(format: "%04d-%02d-01", parts.year!, (parts.month! - 1) / 3 * 3 + 1)
            }
            let expected = grouped.keys.sorted(by: >).map { key -> (String, String, String, Int) in
                let year = Int(key.prefix(4))!
                let month = Int(key.dropFirst(5).prefix(2))!
                return (
                    key, "H\(month <= 6 ? 1 : 2) \(year)",
                    "Q\((month - 1) / 3 + 1) '\(String(format: "%02d", year % 100))",
                    grouped[key]!.reduce(0) { $0 + $1.clicks }
                )
            }
            #expect(rows.count == expected.count && rows.count == 6, "\(locale)")
            for (row, want) in zip(rows, expected) {
                #expect(row.0 == want.0 && row.1 == want.1 && row.2 == want.2 && row.3 == want.3, "\(row) ≠ \(want)")
            }
            // Formatted in the locale's language, as DateFormatter formats it.
            let formatter = DateFormatter()
            (formatter.locale, formatter.timeZone, formatter.dateFormat) = (
                Locale(identifier: locale), TimeZone(identifier: "UTC"), "LLLL yyyy"
            )
            let month = DBBExpression<Visit, String?>.formatted(\.day, as: "LLLL yyyy", in: locale)
            let months = try Visit.select(month, .count()).where(.isNotNull(\.day)).group(by: month).rows(manager)
            let counted = Dictionary(grouping: visits) { formatter.string(from: $0.day!) }.mapValues(\.count)
            #expect(Dictionary(uniqueKeysWithValues: months.map { ($0.0 ?? "nil", $0.1) }) == counted, "\(locale)")
        }
    }

    @Test("a day that is NULL gives nil in every calendar expression", arguments: Backend.allCases)
    func nullDays(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let visit = Visit(dbManager: manager)
        try visit.save()
        let rows = try Visit.select(
            .week(of: \.day, in: "de_DE"), .weekStart(of: \.day, in: "de_DE"), .quarter(of: \.day, in: "de_DE"),
            .halfYear(of: \.day, in: "de_DE"), .formatted(\.day, as: "yyyy", in: "de_DE"),
            .start(of: .year, containing: \.day, in: "de_DE")
        ).rows(manager)
        #expect(rows.count == 1)
        #expect(rows[0].0 == nil && rows[0].1 == nil && rows[0].2 == nil && rows[0].3 == nil && rows[0].4 == nil)
        #expect(rows[0].5 == nil)
    }

    @Test(
        "aggregates of no rows are nil, COUNT is 0; NULL sorts first ascending, last descending",
        arguments: Backend.allCases)
    func emptyAggregatesAndNullOrder(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let none = try Visit.select(.count(), .sum(\.clicks), .average(\.clicks), .min(\.seconds), .max(\.day))
            .rows(manager)
        #expect(none.count == 1)
        #expect(none[0].0 == 0 && none[0].1 == nil && none[0].2 == nil && none[0].3 == nil && none[0].4 == nil)
        for (referrer, clicks) in [("b", 3), (nil, 4), ("a", 5)] as [(String?, Int)] {
            let visit = Visit(dbManager: manager)
            (visit.referrer, visit.clicks) = (referrer, clicks)
            try visit.save()
        }
        let ascending = try Visit.select(.column(\.referrer)).order(by: .ascending(\.referrer)).rows(manager)
        #expect(ascending == [nil, "a", "b"])
        let descending = try Visit.select(.column(\.referrer)).order(by: .descending(\.referrer)).rows(manager)
        #expect(descending == ["b", "a", nil])
        // Integer arithmetic is integer on both backends; an average is a Double.
        let clicks = DBBExpression<Visit, Int>.column(\.clicks)
        let sums = try Visit.select(.sum(clicks / 2), .average(\.clicks)).rows(manager)
        #expect(sums.count == 1 && sums[0].0 == 1 + 2 + 2 && sums[0].1 == 4.0)
        let texts = try Visit.select(DBBExpression<Visit, String>.coalesce(\.referrer, "-") + "!")
            .order(by: .ascending(\.clicks)).rows(manager)
        #expect(texts == ["b!", "-!", "a!"])
    }

    @Test("an unknown locale is refused by name before anything runs", arguments: Backend.allCases)
    func unknownLocale(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        for locale in ["xx_QQ", "en_US'; DROP TABLE \"Visit\"; --"] {
            let error = try #require(throws: DBBError.self) {
                try Visit.select(.week(of: \.day, in: locale)).rows(database.manager)
            }
            #expect(error.kind == .invalidValue && error.message.contains(locale), "\(error.message)")
        }
        #expect(try Visit.select(.count()).rows(database.manager)[0] == 0)
    }
}
