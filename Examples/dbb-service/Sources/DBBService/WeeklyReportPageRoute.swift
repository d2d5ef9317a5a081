import DBBBuilder
import DBBWeeklyReport
import Hummingbird
import NIOCore

/// `GET /reports/weekly.html?locales=en_US,ru_RU,de_DE&from=2010-12-13&to=2011-01-16`: the
/// weekly report as a page to look at, comparing the weeks of several locales and `strftime`'s
/// (``WeeklyReportPage``: an inline SVG chart and a table of the same numbers).
///
/// Every parameter may be left out: `locales` defaults to `en_US,ru_RU,de_DE`, `from` to
/// `2010-12-13` and `to` to `2011-01-16` (two weeks either side of the New Year, where the
/// groupings differ most). The parameters are checked as the JSON report's are, and a failure
/// is answered the same way: 400 with the JSON error body naming the parameter. Besides, at
/// most seven locales, each once, and at most 371 days.
struct WeeklyReportPageRoute: Sendable {
    let manager: DBBManager

    func add(to router: Router<BasicRequestContext>) {
        router.get("reports/weekly.html") { request, _ in try await page(request.uri.queryParameters) }
    }

    private func page(_ parameters: Parameters) async throws -> Response {
        let given = Dictionary(
            try QueryParameters.unique(parameters, known: ["locales", "from", "to"], of: "this report"),
            uniquingKeysWith: { first, _ in first })
        let locales = try given["locales"].map(WeeklyReportParameters.locales) ?? WeeklyReport.defaultLocales
        let (from, to) = try WeeklyReportParameters.days(
            given["from"] ?? Substring(WeeklyReport.defaultFrom), given["to"] ?? Substring(WeeklyReport.defaultTo))
        let days = WeeklyReport.dayCount(from: from, to: to) ?? 0
        guard days <= WeeklyReportParameters.maximumDays else {
            throw APIError.badRequest(
                "to", "the page shows at most \(WeeklyReportParameters.maximumDays) days (53 weeks), not \(days)")
        }
        let series = try await manager.perform { manager in
            try WeeklyReport.comparison(locales: locales, in: manager, from: from, to: to)
        }
        let html = WeeklyReportPage(series: series, from: from, to: to).html
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
