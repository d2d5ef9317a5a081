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
        let weeks = try #require(try ReadmeExamples.demoWeeklyReport(given) as? [(String?, String?, Double?)])
        let column = try WeeklyReport.series(
            .locale("ru_RU"), in: manager, from: WeeklyReport.defaultFrom, to: WeeklyReport.defaultTo)
        #expect(weeks.count == 5 && weeks.count == column.weeks.count)
        for (row, week) in zip(weeks, column.weeks) {
            #expect(row.0 == week.week && row.1 == week.start && row.2 == week.valuePerVisit, "\(row) ≠ \(week)")
        }
        // The first week's sums, 6521 and 2059, divided as Swift divides them.
        #expect(weeks.first.map { "\($0.0!) \($0.1!)" } == "2010-50 2010-12-13")
        #expect(weeks.first?.2 == 6521.0 / 2059.0)
    }
}
