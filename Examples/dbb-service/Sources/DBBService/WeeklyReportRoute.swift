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
        for (name, _) in parameters where !["locale", "from", "to"].contains(name) {
            throw APIError.badRequest(String(name), "not a parameter of this report (parameters: from, locale, to)")
        }
        guard let locale = parameters["locale"].map(String.init) else {
            throw APIError.badRequest("locale", "required")
        }
        let calendar: DBBLocaleCalendar
        do {
            calendar = try DBBLocaleCalendar(localeIdentifier: locale)
        } catch {
            throw APIError.badRequest("locale", "\(error)")
        }
        let from = try Self.day(parameters, "from")
        let to = try Self.day(parameters, "to")
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
    private static func day(_ parameters: Parameters, _ name: String) throws -> String {
        guard let text = parameters[Substring(name)].map(String.init) else {
            throw APIError.badRequest(name, "required")
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3,
            parts.allSatisfy({ part in part.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year)
        else {
            throw APIError.badRequest(name, "expected a day as yyyy-MM-dd, e.g. 2010-12-13")
        }
        return text
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: DBBDay.isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
