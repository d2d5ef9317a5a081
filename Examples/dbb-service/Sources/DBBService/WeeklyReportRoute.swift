import DBBBuilder
import DBBLocale
import Foundation
import Hummingbird

/// `GET /reports/weekly?locale=de_DE&from=2010-12-13&to=2011-01-16`: the seed's weekly "value
/// per visit" over the `Usage` table, its weeks those of `locale` (a US week starts on Sunday,
/// a German one on Monday and needs four days in week 1), grouped in the database by
/// `dbb_week` — on SQLite and on PostgreSQL alike.
struct WeeklyReportRoute: Sendable {
    let manager: DBBManager

    struct Report: Codable, Sendable, Equatable {
        var locale: String
        var from: String
        var to: String
        /// 1 = Sunday … 7 = Saturday.
        var firstWeekday: Int
        var minimumDaysInFirstWeek: Int
        var weeks: [Week]
    }

    struct Week: Codable, Sendable, Equatable {
        /// `dbb_week`'s label: `2010-50`.
        var week: String
        /// The week's first day.
        var start: String
        var valuePerVisit: Double
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("reports/weekly") { request, _ in try await report(request.uri.queryParameters) }
    }

    private func report(_ parameters: Parameters) async throws -> Response {
        let given = Dictionary(
            try QueryParameters.unique(parameters, known: ["locale", "from", "to"], of: "this report"),
            uniquingKeysWith: { first, _ in first })
        guard let locale = given["locale"].map(String.init) else { throw APIError.badRequest("locale", "required") }
        // Language, region and variants only: ICU keywords (`@calendar=…`) are not the week
        // rules of a locale, and PostgreSQL's functions refuse them.
        guard locale.wholeMatch(of: /[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*/) != nil else {
            throw APIError.badRequest("locale", "'\(locale)' is not a locale identifier such as de_DE or en-US")
        }
        let calendar: DBBLocaleCalendar
        do {
            calendar = try DBBLocaleCalendar(localeIdentifier: locale)
        } catch {
            throw APIError.badRequest("locale", "\(error)")
        }
        let from = try Self.day(given["from"], "from")
        let to = try Self.day(given["to"], "to")
        guard from <= to else { throw APIError.badRequest("to", "\(to) is before from (\(from))") }
        let sql = UsageData.weeklyQuery(week: "dbb_week(Date, ?)", start: "MIN(dbb_week_start(Date, ?))")
        let rows = try await manager.perform { manager in
            try manager.query(sql, arguments: [locale, locale, from, to])
        }
        let weeks = rows.map { row in
            Week(
                week: row["week", as: String.self] ?? "", start: row["start", as: String.self] ?? "",
                valuePerVisit: row["ratio", as: Double.self] ?? 0)
        }
        return try JSONResponse.make(
            .ok,
            Report(
                locale: locale, from: from, to: to, firstWeekday: calendar.firstWeekday,
                minimumDaysInFirstWeek: calendar.minimumDaysInFirstWeek, weeks: weeks))
    }

    /// A `yyyy-MM-dd` day that exists (no 2011-02-30), as the same text.
    private static func day(_ value: Substring?, _ name: String) throws -> String {
        guard let text = value else { throw APIError.badRequest(name, "required") }
        guard ISODate.isDay(text) else {
            throw APIError.badRequest(name, "expected a day as yyyy-MM-dd, e.g. 2010-12-13")
        }
        return String(text)
    }
}
