import DBBService
import DBBTestSupport
import DBBWeeklyReport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("The weekly report page")
struct WeeklyReportPageTests {
    static let query = "/reports/weekly.html?locales=en_US,ru_RU,de_DE&from=2010-12-13&to=2011-01-16"

    @Test("the page draws the query's rows: one row of bars per locale and strftime", arguments: Backend.allCases)
    func pageDrawsTheQuery(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let (app, manager) = try await harness.instance()
        let expected = try WeeklyReport.comparison(
            locales: ["en_US", "ru_RU", "de_DE"], in: manager, from: "2010-12-13",
            to: "2011-01-16")
        #expect(manager.databaseSystem == (backend == .postgresql ? "postgresql" : "sqlite"))
        // The New Year as each grouping cuts it.
        #expect(expected[0].weeks.map(\.start).first == "2010-12-12" && expected[0].weeks.count == 6)
        #expect(
            expected[2].weeks.map(\.start) == ["2010-12-13", "2010-12-20", "2010-12-27", "2011-01-03", "2011-01-10"])
        #expect(expected[3].weeks.map(\.week) == ["2010-50", "2010-51", "2010-52", "2011-00", "2011-01", "2011-02"])
        try await app.test(.router) { client in
            let page = try await client.call(.get, Self.query)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            ChartBar.expect(try ChartBar.all(in: page.body), draw: expected, days: 35)
            // The table has the same numbers, row for row.
            let cells = page.body.matches(of: /<tr data-series="([^"]*)">.*?data-value="([^"]*)"/).map {
                "\($0.output.1) \($0.output.2)"
            }
            #expect(cells == expected.flatMap { series in series.weeks.map { "\(series.name) \($0.valuePerVisit)" } })
            #expect(page.body.contains("<svg") && page.body.contains("role=\"figure\""))
            let defaults = try await client.call(.get, "/reports/weekly.html")
            #expect(defaults.body == page.body, "without parameters: en_US,ru_RU,de_DE over 2010-12-13 … 2011-01-16")
            let german = try await client.call(.get, "/reports/weekly.html?locales=de_DE&to=2010-12-26")
            ChartBar.expect(
                try ChartBar.all(in: german.body),
                draw: [
                    try WeeklyReport.series(
                        .locale("de_DE"), in: manager, from: "2010-12-13", to: "2010-12-26"),
                    try WeeklyReport.series(
                        .strftime, in: manager, from: "2010-12-13",
                        to: "2010-12-26"),
                ], days: 14)
        }
    }

    @Test(
        "the page refuses what the JSON report refuses, with the JSON error body",
        arguments: [
            ("locales=xx_%3Cb%3E", "locales"), ("locales=en_US@calendar=buddhist", "locales"),
            ("locales=en_US,,de_DE", "locales"), ("locales=de_DE,de_DE", "locales"), ("locales=", "locales"),
            ("locales=en_US,ru_RU,de_DE,fr_FR,it_IT,es_ES,pt_BR,ja_JP", "locales"), ("from=2010-13-01", "from"),
            ("from=2011-02-29", "from"), ("to=yesterday", "to"), ("from=2011-01-17", "to"),
            ("from=2010-01-01&to=2011-01-16", "to"), ("locale=de_DE", "locale"),
            ("from=2010-12-13&from=2010-12-14", "from"),
        ])
    func refusals(_ query: String, _ field: String) async throws {
        guard let harness = try ServiceHarness(.sqlite) else { return }
        let (app, _) = try await harness.instance()
        try await app.test(.router) { client in
            let reply = try await client.call(.get, "/reports/weekly.html?\(query)")
            #expect(reply.status == .badRequest, "\(query)")
            #expect(reply.headers[.contentType] == "application/json; charset=utf-8")
            #expect(reply.field == field, "\(query): \(reply.body)")
        }
    }

    @Test("every text in the chart is escaped: a series name cannot open an element or end an attribute")
    func escaping() throws {
        let hostile = "x\"><script>alert('1')</script>&"
        let chart = WeeklyChart(
            series: [
                WeeklySeries(
                    grouping: .locale(hostile), weeks: [.init(week: hostile, start: "2010-12-13", valuePerVisit: 2)])
            ], from: "2010-12-13", to: "2010-12-19")
        let svg = chart.svg
        #expect(!svg.contains("<script>") && !svg.contains("x\">"))
        #expect(svg.contains("x&quot;&gt;&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt;&amp;"))
        let bars = try ChartBar.all(in: svg)
        #expect(bars.map(\.series) == [hostile] && bars.map(\.week) == [hostile], "and reads back as it was")
    }
}
