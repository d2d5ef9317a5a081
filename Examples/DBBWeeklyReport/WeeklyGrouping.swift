import DBBBuilder

/// How the weekly report groups days into weeks: by a locale's weeks (`dbb_week`), or by
/// SQLite's plain `strftime('%Y-%W')`, which starts weeks on Monday and cuts the New Year week
/// in two (days before the year's first Monday are its week `00`).
public enum WeeklyGrouping: Sendable, Hashable {
    /// The weeks of a locale such as `de_DE`: its first weekday and the days it needs in week 1.
    case locale(String)
    /// SQLite's `strftime('%Y-%W', Date)`; on PostgreSQL, the same weeks computed with `to_char`.
    case strftime

    /// The name of the series: the locale identifier, or `strftime`.
    public var name: String {
        switch self {
        case .locale(let identifier): identifier
        case .strftime: "strftime"
        }
    }

    /// The SQL of a row's week and of its week's first day (an aggregate), and the arguments
    /// they take, in the order of ``UsageData/weeklyQuery(week:start:)``'s placeholders.
    func sql(postgres: Bool) -> (week: String, start: String, arguments: DBBArguments) {
        switch self {
        case .locale(let identifier):
            ("dbb_week(Date, ?)", "MIN(dbb_week_start(Date, ?))", [identifier, identifier])
        case .strftime:
            (postgres ? Self.postgresStrftimeWeek : "strftime('%Y-%W', Date)", "MIN(Date)", [])
        }
    }

    /// `strftime('%Y-%W', Date)` of SQLite, on PostgreSQL: the year, and the week counted from
    /// the year's first Monday (days before it are week 00).
    static let postgresStrftimeWeek =
        "to_char(Date::date, 'YYYY') || '-' || lpad(((extract(doy FROM Date::date)::int + 6"
        + " - (extract(dow FROM Date::date)::int + 6) % 7) / 7)::text, 2, '0')"
}
