import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import DBBWeeklyReport
import Foundation
import Testing

@testable import FromDatabaseDemo

/// The examples' weekly report (`Examples/DBBWeeklyReport`, shared by dbb-demo and the example
/// service) over the `Usage` class: its rows saved as objects, each locale's weeks a typed
/// report, `strftime`'s SQL over the class's table — checked against what Foundation computes
/// from the same objects, on both backends; and a database an older demo made, refused.
@Suite("The examples' weekly report over the Usage class")
struct DemoWeeklyReportTests {
    /// Spans around the New Year, the whole year of data, one day, and one partly past its end.
    static let spans = [
        ("2010-12-13", "2011-01-16"), ("2010-07-01", "2011-06-30"), ("2010-12-26", "2010-12-26"),
        ("2011-06-20", "2011-08-01"),
    ]

    @Test(
        "each locale's weeks and strftime's are what Foundation computes from the saved objects",
        arguments: Backend.allCases)
    func weeksAsFoundationComputesThem(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Usage.self]) else { return }
        let manager = database.manager
        #expect(try UsageData.fillIfEmpty(manager))
        #expect(try !UsageData.fillIfEmpty(manager), "a table with rows is left as it is")
        #expect(try manager.count(of: "Usage") == UsageData.dayCount * UsageData.facets.count)
        let saved = try Usage.all(manager: manager)
        #expect(
            saved.map(Self.row).sorted() == UsageData.objects(manager).map(Self.row).sorted(),
            "the saved objects are the data, and every call makes the same")
        for (from, to) in Self.spans {
            for locale in ["en_US", "ru_RU", "de_DE", "fr_FR", "ar_EG", "he_IL"] {
                var calendar = Calendar(identifier: .gregorian)
                calendar.locale = Locale(identifier: locale)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                let expected = Self.weeks(saved, from: from, to: to) { day in
                    let week = String(
                        format: "%04d-%02d", calendar.component(.yearForWeekOfYear, from: day),
                        calendar.component(.weekOfYear, from: day))
                    return (week, Self.dayText(calendar.dateInterval(of: .weekOfYear, for: day)!.start))
                }
                let series = try WeeklyReport.series(.locale(locale), in: manager, from: from, to: to)
                #expect(series.weeks == expected, "\(backend) \(locale) \(from) … \(to)")
            }
            // %W: weeks from the year's first Monday, the days before it week 00.
            let strftime = Self.weeks(saved, from: from, to: to) { day in
                let dayOfYear = Self.utc.ordinality(of: .day, in: .year, for: day)!
                let sinceMonday = (Self.utc.component(.weekday, from: day) + 5) % 7
                let week = String(
                    format: "%04d-%02d", Self.utc.component(.year, from: day), (dayOfYear + 6 - sinceMonday) / 7)
                return (week, Self.dayText(day))
            }
            let series = try WeeklyReport.series(.strftime, in: manager, from: from, to: to)
            #expect(series.weeks == strftime, "\(backend) strftime \(from) … \(to)")
        }
        let comparison = try WeeklyReport.comparison(
            locales: WeeklyReport.defaultLocales, in: manager, from: WeeklyReport.defaultFrom,
            to: WeeklyReport.defaultTo)
        #expect(comparison.map(\.weeks.count) == [6, 5, 5, 6], "the New Year as each grouping cuts it")
        #expect(
            comparison[3].weeks.map(\.week) == ["2010-50", "2010-51", "2010-52", "2011-00", "2011-01", "2011-02"])
        #expect(throws: WeeklyReport.InvalidDay.self) {
            try WeeklyReport.series(.locale("de_DE"), in: manager, from: "2010-12-13", to: "2011-02-30")
        }
    }

    @Test(
        "a database an older demo made (Usage without id, text dates) is refused, named and kept; --reset starts over",
        arguments: Backend.allCases)
    func olderDemoDatabase(_ backend: Backend) throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        guard
            let database = try BackendDatabase(
                backend,
                [
                    FromDatabaseDemo.Person.self, FromDatabaseDemo.Company.self, FromDatabaseDemo.Project.self,
                    FromDatabaseDemo.Meeting.self,
                ])
        else { return }
        let manager = database.manager
        try UsageData.refuseOlderTable(in: manager)
        // The table as the older demo made it: an unquoted name, so `usage` on PostgreSQL.
        try manager.execute(
            "CREATE TABLE Usage (FacetId VARCHAR, Value INTEGER, Visits INTEGER, Date \(backend == .sqlite ? "DATETIME" : "TEXT"))"
        )
        try manager.execute("INSERT INTO Usage VALUES ('search', 300, 100, '2010-07-01')")
        #expect(throws: UsageData.OlderTable.self) { try UsageData.refuseOlderTable(in: manager) }

        let flag = backend == .sqlite ? "--database" : "--postgres"
        let refused = try ScriptFixture.run(demo, [flag, database.place])
        #expect(refused.status != 0 && refused.stdout.isEmpty, "\(refused.stdout)")
        #expect(
            refused.stderr.contains("the Usage table of ") && refused.stderr.contains("older dbb-demo")
                && refused.stderr.contains(backend == .sqlite ? "delete the database file" : "DROP TABLE usage"),
            "\(refused.stderr)")
        #expect(try manager.query("SELECT FacetId, Value FROM Usage").count == 1, "the older rows are kept")

        if backend == .sqlite {
            let copy = try TemporaryDirectory()
            let target = copy.path("copy.sqlite")
            let source = try ScriptFixture.run(demo, ["--database", target, "--copy-from", database.place])
            #expect(
                source.status != 0 && source.stderr.contains("\(database.place) (--copy-from)")
                    && source.stderr.contains("older dbb-demo"), "\(source.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target), "a refused source leaves no new database")
        }

        let reset = try ScriptFixture.run(demo, [flag, database.place, "--reset"])
        #expect(reset.status == 0 && reset.stdout.contains("new data saved"), "\(reset.stderr)")
        #expect(reset.stdout.contains("2011-04 (01-16)  2.000"), "the weekly report over the new Usage objects")
        let after = try database.reopen([Usage.self])
        try UsageData.refuseOlderTable(in: after)
        #expect(try after.count(of: "Usage") == UsageData.dayCount * UsageData.facets.count)
    }

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func dayText(_ date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    static func row(_ usage: Usage) -> String {
        "\(dayText(usage.day)) \(usage.facetID) \(usage.value) \(usage.visits)"
    }

    /// The report Foundation computes: the rows of the days `from` … `to` grouped by the week
    /// `key` gives a day, each week's start the earliest `key` gives, its value per visit the
    /// sum of values over the sum of visits; weeks in order.
    static func weeks(_ rows: [Usage], from: String, to: String, key: (Date) -> (week: String, start: String))
        -> [WeeklySeries.Week]
    {
        var sums: [String: (start: String, value: Int, visits: Int)] = [:]
        for usage in rows where (from...to).contains(dayText(usage.day)) {
            let (week, start) = key(usage.day)
            let sum = sums[week] ?? (start, 0, 0)
            sums[week] = (min(sum.start, start), sum.value + usage.value, sum.visits + usage.visits)
        }
        return sums.keys.sorted().map { week in
            let sum = sums[week]!
            return WeeklySeries.Week(
                week: week, start: sum.start, valuePerVisit: Double(sum.value) / Double(sum.visits))
        }
    }
}
