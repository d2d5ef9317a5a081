import DBBBuilder
import DBBLocale
import DBBWeeklyReport
import Foundation
import Hummingbird

/// `GET /reports/weekly?locale=de_DE&from=2010-12-13&to=2011-01-16`: the seed's weekly "value
/// per visit" over the `Usage` objects, its weeks those of `locale` (a US week starts on Sunday,
/// a German one on Monday and needs four days in week 1), grouped in the database by a typed
/// report on the locale's week (`WeeklyReport`) — on SQLite and on PostgreSQL alike.
struct WeeklyReportRoute: Sendable {
    let manager: DBBManager

    struct Report: Codable, Sendable, Equatable {
        var locale: String
        var from: String
        var to: String
        /// 1 = Sunday … 7 = Saturday.
        var firstWeekday: Int
        var minimumDaysInFirstWeek: Int
        /// `week` (`dbb_week`'s label: `2010-50`), `start` (the week's first day) and
        /// `valuePerVisit` of each week.
        var weeks: [WeeklySeries.Week]
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("reports/weekly") { request, _ in try await report(request.uri.queryParameters) }
    }

    private func report(_ parameters: Parameters) async throws -> Response {
        let given = Dictionary(
            try QueryParameters.unique(parameters, known: ["locale", "from", "to"], of: "this report"),
            uniquingKeysWith: { first, _ in first })
        guard let text = given["locale"] else { throw APIError.badRequest("locale", "required") }
        let (locale, calendar) = try WeeklyReportParameters.locale(text, "locale")
        let (from, to) = try WeeklyReportParameters.days(given["from"], given["to"])
        let series = try await manager.perform { manager in
            try WeeklyReport.series(.locale(locale), in: manager, from: from, to: to)
        }
        return try JSONResponse.make(
            .ok,
            Report(
                locale: locale, from: from, to: to, firstWeekday: calendar.firstWeekday,
                minimumDaysInFirstWeek: calendar.minimumDaysInFirstWeek, weeks: series.weeks))
    }
}
