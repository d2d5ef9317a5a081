#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// A typed report by the weeks of a locale identifier with keywords (`de_DE@fw=sun`): SQLite
/// reads any identifier Foundation reads; PostgreSQL's functions know it once its rules are
/// added (the one place the backends differ, documented in LocaleFunctionsOnPostgreSQL).
@Suite struct KeywordLocaleReportTests {
    static let locale = "de_DE@fw=sun"

    @Test("until its rules are added the error says how to add them; then the weeks are SQLite's and Swift's")
    func keywordLocale() throws {
        guard let database = try BackendDatabase(.postgresql, [ReportDay.self]) else { return }
        let sqlite = try DBBManager.inMemory()
        try sqlite.register([ReportDay.self])
        let first = Date(timeIntervalSinceReferenceDate: 20 * 365.25 * 86_400)  // late December 2020
        var days: [Date] = []
        for manager in [sqlite, database.manager] {
            days = (0..<40).map { first + Double($0) * 86_400 + Double($0 % 5) * 3_600 }
            try ReportDay.save(
                days.map { day in
                    let row = ReportDay(dbManager: manager)
                    row.day = day
                    return row
                }, manager: manager)
        }
        let week = DBBExpression<ReportDay, String?>.week(of: \.day, in: Self.locale)
        let start = DBBExpression<ReportDay, String?>.weekStart(of: \.day, in: Self.locale)
        let query = ReportDay.select(week, start, .count()).group(by: week, start).order(by: .ascending(week))

        let error = try #require(throws: DBBError.self) { try query.rows(database.manager) }
        #expect(error.message.contains("addLocaleRules(for: [\"\(Self.locale)\"])"), "\(error.message)")
        try database.manager.addLocaleRules(for: [Self.locale])

        let onServer = try query.rows(database.manager).map { "\($0.0 ?? "nil") \($0.1 ?? "nil") \($0.2)" }
        let onSQLite = try query.rows(sqlite).map { "\($0.0 ?? "nil") \($0.1 ?? "nil") \($0.2)" }
        #expect(onServer == onSQLite && onServer.count >= 6)
        // Swift's answer: Foundation's calendar of the locale, whose weeks start on Sunday.
        var calendar = Calendar(identifier: .gregorian)
        (calendar.locale, calendar.timeZone) = (Locale(identifier: Self.locale), TimeZone(identifier: "UTC")!)
        #expect(calendar.firstWeekday == 1)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let grouped = Dictionary(grouping: days) { day in
            let interval = calendar.dateInterval(of: .weekOfYear, for: day)!
            let parts = utc.dateComponents([.year, .month, .day], from: interval.start)
            return String(
                format: "%04d-%02d %04d-%02d-%02d", calendar.component(.yearForWeekOfYear, from: day),
                calendar.component(.weekOfYear, from: day), parts.year!, parts.month!, parts.day!)
        }
        #expect(onServer == grouped.keys.sorted().map { "\($0) \(grouped[$0]!.count)" })
    }
}
#endif
