import DBBBuilder
import Foundation

/// The seed's `Usage` table and its weekly "value per visit" report.
enum UsageData {
    /// Whether the database has the `Usage` table already. (Its names are unquoted in every
    /// statement, so PostgreSQL folds them all to lower case alike.)
    static func exists(_ manager: DBBManager, postgres: Bool) throws -> Bool {
        let sql =
            postgres
            ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'usage'"
            : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'Usage'"
        return try manager.query(sql)[0].decode(Int.self, at: 0) > 0
    }

    /// A deterministic year of visits, 2010-07-01 … 2011-06-30: one row per facet per day.
    static func fill(_ manager: DBBManager, postgres: Bool) throws {
        // The seed's DATETIME column holds text dates; PostgreSQL has no such type.
        try manager.execute(
            "CREATE TABLE IF NOT EXISTS Usage (FacetId VARCHAR, Value INTEGER, Visits INTEGER, Date \(postgres ? "TEXT" : "DATETIME"))"
        )
        var state: UInt64 = 2011
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: 2010, month: 7, day: 1))!
        var sql = "INSERT INTO Usage (FacetId, Value, Visits, Date) VALUES "
        var rows: [String] = []
        for offset in 0..<365 {
            let date = calendar.date(byAdding: .day, value: offset, to: start)!
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            let weekend = parts.weekday == 1 || parts.weekday == 7
            for facet in ["search", "browse", "ads"] {
                let visits = (weekend ? 40 : 100) + next(30)
                rows.append("('\(facet)', \(visits * (2 + next(4))), \(visits), '\(text)')")
            }
        }
        sql += rows.joined(separator: ", ")
        try manager.execute(sql)
    }
}

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
                """
                SELECT \(week) AS week, \(start) AS start, SUM(Value) * 1.0 / SUM(Visits) AS ratio
                FROM Usage WHERE Date BETWEEN ? AND ? GROUP BY week ORDER BY week
                """, arguments: [.text(from), .text(to)])
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
