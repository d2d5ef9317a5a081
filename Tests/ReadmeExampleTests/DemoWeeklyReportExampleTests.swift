import DBBBuilder
import DBBWeeklyReport
import Testing

@Suite("The dbb-demo article's weekly report example")
struct DemoWeeklyReportExampleTests {
    /// The Command-Line Tools article's typed weekly report: the demo's ru_RU column, row for
    /// row, as `WeeklyReport` computes it from the demo's Usage objects.
    @Test func demoWeeklyReportIsTheDemosColumn() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("usage.sqlite", [Usage.self])
        try UsageData.fillIfEmpty(manager)
        given.set(manager, "manager")
        let weeks = try #require(try ReadmeExamples.demoWeeklyReport(given) as? [(String?, String?, Int?, Int?)])
        let column = try WeeklyReport.series(
            .locale("ru_RU"), in: manager, from: WeeklyReport.defaultFrom, to: WeeklyReport.defaultTo)
        #expect(weeks.count == 5 && weeks.count == column.weeks.count)
        for (row, week) in zip(weeks, column.weeks) {
            let (value, visits) = (try #require(row.2), try #require(row.3))
            #expect(row.0 == week.week && row.1 == week.start, "\(row) ≠ \(week)")
            #expect(Double(value) / Double(visits) == week.valuePerVisit, "\(row) ≠ \(week)")
        }
        #expect(weeks.first.map { "\($0.0!) \($0.1!) \($0.2!) \($0.3!)" } == "2010-50 2010-12-13 6521 2059")
    }
}
