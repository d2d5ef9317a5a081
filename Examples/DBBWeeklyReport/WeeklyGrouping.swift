import DBBBuilder
import Foundation

/// How the weekly report groups days into weeks: by a locale's weeks (`dbb_week`), or by
/// SQLite's plain `strftime('%Y-%W')`, which starts weeks on Monday and cuts the New Year week
/// in two (days before the year's first Monday are its week `00`).
public enum WeeklyGrouping: Sendable, Hashable {
    /// The weeks of a locale such as `de_DE`: its first weekday and the days it needs in week 1.
    case locale(String)
    /// SQLite's `strftime('%Y-%W')` of the day; on PostgreSQL, the same weeks computed with
    /// `to_char`.
    case strftime

    /// The name of the series: the locale identifier, or `strftime`.
    public var name: String {
        switch self {
        case .locale(let identifier): identifier
        case .strftime: "strftime"
        }
    }

    /// `strftime`'s weeks of the ``Usage`` rows in `days`. There is no typed `strftime`, so
    /// this one is SQL over the class's table, its `day` as the package stores a `Date` on both
    /// backends (seconds since 2001, a REAL or a double precision), turned into seconds since
    /// 1970 by `dbb_unixepoch`. A week's first day is the first day with rows.
    static func strftimeWeeks(in manager: DBBManager, days: Range<Date>) throws -> [WeeklySeries.Week] {
        let (week, start) =
            manager.databaseSystem == "postgresql"
            ? (postgresStrftimeWeek, "to_char(to_timestamp(dbb_unixepoch(MIN(day))) AT TIME ZONE 'UTC', 'YYYY-MM-DD')")
            : ("strftime('%Y-%W', dbb_unixepoch(day), 'unixepoch')", "date(dbb_unixepoch(MIN(day)), 'unixepoch')")
        let sql = """
            SELECT \(week) AS week, \(start) AS start, SUM(value), SUM(visits)
            FROM "\(Usage.databaseTableName)" WHERE day >= ? AND day < ? GROUP BY week ORDER BY week
            """
        return try manager.query(sql, arguments: [days.lowerBound, days.upperBound]).map { row in
            WeeklySeries.Week(
                week: try row.decode(at: 0), start: try row.decode(at: 1), value: try row.decode(at: 2),
                visits: try row.decode(at: 3))
        }
    }

    /// `strftime('%Y-%W', …)` of SQLite, on PostgreSQL: the year, and the week counted from the
    /// year's first Monday (days before it are week 00), of the day in UTC.
    static let postgresStrftimeWeek = {
        let day = "(to_timestamp(dbb_unixepoch(day)) AT TIME ZONE 'UTC')::date"
        return "to_char(\(day), 'YYYY') || '-' || lpad(((extract(doy FROM \(day))::int + 6"
            + " - (extract(dow FROM \(day))::int + 6) % 7) / 7)::text, 2, '0')"
    }()
}
