import DBBBuilder

/// The seed's weekly "value per visit" report over the `Usage` table (see ``UsageData``),
/// grouped in the database by a locale's weeks or by `strftime`'s, as the demo prints it, the
/// example service serves it and ``WeeklyChart`` draws it.
public enum WeeklyReport {
    /// The report's first day when none is given: a Monday, two weeks before the New Year.
    public static let defaultFrom = "2010-12-13"
    /// The report's last day when none is given: a Sunday, two weeks after the New Year.
    public static let defaultTo = "2011-01-16"
    /// The locales compared when none are given: a US week starts on Sunday; Russian and German
    /// weeks start on Monday and need four days in week 1.
    public static let defaultLocales = ["en_US", "ru_RU", "de_DE"]

    /// The report's rows grouped by `grouping`, for the days `from` … `to` (`yyyy-MM-dd`, both
    /// included). `postgres` says whether `manager` is on PostgreSQL, where `strftime` is
    /// computed with `to_char`. Blocks while the database answers.
    public static func series(
        _ grouping: WeeklyGrouping, in manager: DBBManager, postgres: Bool, from: String, to: String
    ) throws -> WeeklySeries {
        let (week, start, arguments) = grouping.sql(postgres: postgres)
        let rows = try manager.query(
            UsageData.weeklyQuery(week: week, start: start), arguments: arguments + [from, to])
        return WeeklySeries(
            grouping: grouping,
            weeks: rows.map { row in
                WeeklySeries.Week(
                    week: row["week", as: String.self] ?? "", start: row["start", as: String.self] ?? "",
                    valuePerVisit: row["ratio", as: Double.self] ?? 0)
            })
    }

    /// How many days `from` … `to` (`yyyy-MM-dd`, both included) holds; `nil` when either is
    /// not such a day.
    public static func dayCount(from: String, to: String) -> Int? {
        guard let first = WeeklyChartLayout.day(from), let last = WeeklyChartLayout.day(to) else { return nil }
        return last.daysSince1970 - first.daysSince1970 + 1
    }

    /// One series per locale of `locales`, in their order, then `strftime`'s.
    public static func comparison(
        locales: [String], in manager: DBBManager, postgres: Bool, from: String, to: String
    ) throws -> [WeeklySeries] {
        try (locales.map(WeeklyGrouping.locale) + [.strftime]).map { grouping in
            try series(grouping, in: manager, postgres: postgres, from: from, to: to)
        }
    }
}
