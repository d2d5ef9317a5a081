import DBBBuilder
import DBBLocale
import Foundation

/// The seed's weekly "value per visit" report over the ``Usage`` objects, grouped in the
/// database by a locale's weeks (a typed report) or by `strftime`'s (SQL, to show why a plain
/// `strftime` week is wrong), as the demo prints it, the example service serves it and
/// ``WeeklyChart`` draws it.
public enum WeeklyReport {
    /// The report's first day when none is given: a Monday, two weeks before the New Year.
    public static let defaultFrom = "2010-12-13"
    /// The report's last day when none is given: a Sunday, two weeks after the New Year.
    public static let defaultTo = "2011-01-16"
    /// The locales compared when none are given: a US week starts on Sunday; Russian and German
    /// weeks start on Monday and need four days in week 1.
    public static let defaultLocales = ["en_US", "ru_RU", "de_DE"]

    /// The report's rows grouped by `grouping`, for the days `from` … `to` (`yyyy-MM-dd`, both
    /// included), on either backend. Blocks while the database answers.
    public static func series(_ grouping: WeeklyGrouping, in manager: DBBManager, from: String, to: String)
        throws -> WeeklySeries
    {
        guard let first = WeeklyChartLayout.day(from), let last = WeeklyChartLayout.day(to) else {
            throw InvalidDay(from: from, to: to)
        }
        let days = first.date..<last.adding(days: 1).date
        let weeks =
            switch grouping {
            case .locale(let identifier): try localeWeeks(identifier, in: manager, days: days)
            case .strftime: try WeeklyGrouping.strftimeWeeks(in: manager, days: days)
            }
        return WeeklySeries(grouping: grouping, weeks: weeks)
    }

    /// The weeks of `locale`, as a typed report: its week, the week's first day, and the value
    /// per visit (the sums divided as doubles, the same `Double` on both backends). The same in
    /// SQL:
    ///
    /// ```sql
    /// SELECT dbb_week(day, ?1) AS week, MIN(dbb_week_start(day, ?1)) AS start,
    ///        (SUM(value) * ?2) / (SUM(visits) * ?2) AS ratio      -- ?2 = 1.0, bound as a double
    /// FROM "Usage" WHERE day >= ?3 AND day < ?4 GROUP BY week ORDER BY week
    /// ```
    static func localeWeeks(_ locale: String, in manager: DBBManager, days: Range<Date>) throws
        -> [WeeklySeries.Week]
    {
        let week = DBBExpression<Usage, String?>.week(of: \.day, in: locale)
        let start = DBBExpression<Usage, String?>.weekStart(of: \.day, in: locale)
        let valuePerVisit = DBBExpression<Usage, Double?>.double(.sum(\.value)) / .double(.sum(\.visits))
        return try Usage.select(week, .min(start), valuePerVisit)
            .where(\.day >= days.lowerBound && \.day < days.upperBound)
            .group(by: week)
            .order(by: .ascending(week))
            .rows(manager)
            .map { week, start, ratio in
                WeeklySeries.Week(week: week ?? "", start: start ?? "", valuePerVisit: ratio ?? 0)
            }
    }

    /// How many days `from` … `to` (`yyyy-MM-dd`, both included) holds; `nil` when either is
    /// not such a day.
    public static func dayCount(from: String, to: String) -> Int? {
        guard let first = WeeklyChartLayout.day(from), let last = WeeklyChartLayout.day(to) else { return nil }
        return last.daysSince1970 - first.daysSince1970 + 1
    }

    /// One series per locale of `locales`, in their order, then `strftime`'s.
    public static func comparison(locales: [String], in manager: DBBManager, from: String, to: String) throws
        -> [WeeklySeries]
    {
        try (locales.map(WeeklyGrouping.locale) + [.strftime]).map { grouping in
            try series(grouping, in: manager, from: from, to: to)
        }
    }

    /// `from` or `to` is not a day as `yyyy-MM-dd`.
    public struct InvalidDay: Error, CustomStringConvertible {
        public var from: String
        public var to: String

        public var description: String {
            "the weekly report takes its first and last day as yyyy-MM-dd (2010-12-13), not '\(from)' … '\(to)'"
        }
    }
}
