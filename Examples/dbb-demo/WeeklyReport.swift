import DBBBuilder
import Foundation

enum WeeklyReport {
    static let from = "2010-12-13"
    static let to = "2011-01-16"

    /// strftime('%Y-%W', Date) of SQLite, on PostgreSQL: the year, and the week counted from
    /// the year's first Monday (days before it are week 00).
    static let postgresStrftimeWeek =
        "to_char(Date::date, 'YYYY') || '-' || lpad(((extract(doy FROM Date::date)::int + 6"
        + " - (extract(dow FROM Date::date)::int + 6) % 7) / 7)::text, 2, '0')"

    static func show(_ manager: DBBManager, postgres: Bool) throws {
        print("Weekly value per visit, \(from) … \(to): the seed's query, grouped four ways.")
        print("A US week starts on Sunday; ru_RU and de_DE weeks start on Monday and need 4 days in week 1;")
        print("strftime('%Y-%W') starts on Monday and cuts the New Year week in two.\n")
        let groupings = [
            ("en_US", "dbb_week(Date, 'en_US')", "MIN(dbb_week_start(Date, 'en_US'))"),
            ("ru_RU", "dbb_week(Date, 'ru_RU')", "MIN(dbb_week_start(Date, 'ru_RU'))"),
            ("de_DE", "dbb_week(Date, 'de_DE')", "MIN(dbb_week_start(Date, 'de_DE'))"),
            ("strftime", postgres ? postgresStrftimeWeek : "strftime('%Y-%W', Date)", "MIN(Date)"),
        ]
        var columns: [[String]] = []
        for (_, week, start) in groupings {
            let rows = try manager.query(
                UsageData.weeklyQuery(week: week, start: start), arguments: [.text(from), .text(to)])
            columns.append(
                rows.map { row in
                    let start =
                        row["start"].flatMap { if case .text(let text) = $0 { String(text.suffix(5)) } else { nil } }
                        ?? "?"
                    let ratio = row["ratio", as: Double.self] ?? 0
                    return
                        "\(row["week"].flatMap { if case .text(let text) = $0 { text } else { nil } } ?? "?") (\(start))  \(String(format: "%.3f", ratio))"
                })
        }
        let height = columns.map(\.count).max() ?? 0
        let header = groupings.map { $0.0 == "strftime" ? "strftime('%Y-%W')" : "\($0.0) week" }
        let cells = (0..<height).map { index in columns.map { index < $0.count ? $0[index] : "" } }
        Table.print(
            header,
            [["(from)  value/visit", "(from)  value/visit", "(from)  value/visit", "(first day)  value/visit"]] + cells)
    }
}
