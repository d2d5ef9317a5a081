import DBBSQLite
import Foundation

// The locale calendar as typed expressions: the week, its first day, the start or end of a
// day/week/month/quarter/half-year/year, ESLocale's quarter and half-year texts and a date
// formatted with a TR35 pattern, each in a locale — usable in `select`, `group(by:)`,
// `order(by:)` and conditions. They are the locale functions of each backend (SQLite's
// registered functions, the SQL functions DBBPostgres installs), given the stored date as it
// is (seconds since 2001 on both), so both give the same text. A `NULL` date gives `nil`.
// The locale is bound, and checked before the query runs.

/// A date the calendar expressions take: a `Date` property or expression, or an optional one.
public protocol DBBDateValue: DBBColumnValue {}

extension Date: DBBDateValue {}
extension Optional: DBBDateValue where Wrapped == Date {}

/// A span of the calendar, for `.start(of:containing:in:)` and `.end(of:containing:in:)` of
/// ``DBBExpression``.
public enum DBBCalendarUnit: String, Sendable, CaseIterable {
    case day, week, month, quarter
    case halfYear = "halfyear"
    case year
}

extension DBBExpression {
    // MARK: - Weeks

    /// The locale's week of the date, as text `YYYY-ww` (`2011-01`): its week-year and week
    /// number (`dbb_week`). The week begins on the locale's first weekday, and week 1 is the
    /// first with at least the locale's minimum days in the year. The text sorts as the weeks do
    /// for years 1…9999; a five-digit year (`10000-01`) sorts before them.
    public static func week<Day: DBBDateValue>(of date: DBBExpression<Root, Day>, in locale: String)
        -> DBBExpression<Root, String?>
    {
        DBBExpression<Root, String?>(.function("dbb_week", [date.node, .locale(locale)]))
    }

    /// The locale's week of the date property, as `YYYY-ww`.
    public static func week<Day: DBBDateValue>(of date: KeyPath<Root, Day>, in locale: String)
        -> DBBExpression<Root, String?>
    {
        week(of: DBBExpression<Root, Day>.column(date), in: locale)
    }

    /// The first day of the locale's week of the date, `yyyy-MM-dd` (`dbb_week_start`).
    public static func weekStart<Day: DBBDateValue>(of date: DBBExpression<Root, Day>, in locale: String)
        -> DBBExpression<Root, String?>
    {
        DBBExpression<Root, String?>(.function("dbb_week_start", [date.node, .locale(locale)]))
    }

    /// The first day of the locale's week of the date property, `yyyy-MM-dd`.
    public static func weekStart<Day: DBBDateValue>(of date: KeyPath<Root, Day>, in locale: String)
        -> DBBExpression<Root, String?>
    {
        weekStart(of: DBBExpression<Root, Day>.column(date), in: locale)
    }

    // MARK: - Spans

    /// The first day, `yyyy-MM-dd`, of the `unit` that holds the date, in the locale's calendar
    /// (`dbb_align(date, unit, locale, 'start')`): sortable text, one per quarter or half-year.
    public static func start<Day: DBBDateValue>(
        of unit: DBBCalendarUnit, containing date: DBBExpression<Root, Day>, in locale: String
    ) -> DBBExpression<Root, String?> {
        aligned(unit, date.node, locale, edge: "start")
    }

    /// The first day of the `unit` that holds the date property.
    public static func start<Day: DBBDateValue>(
        of unit: DBBCalendarUnit, containing date: KeyPath<Root, Day>, in locale: String
    ) -> DBBExpression<Root, String?> {
        aligned(unit, SQLNode.keyPath(date), locale, edge: "start")
    }

    /// The last day, `yyyy-MM-dd`, of the `unit` that holds the date (`dbb_align(…, 'end')`).
    public static func end<Day: DBBDateValue>(
        of unit: DBBCalendarUnit, containing date: DBBExpression<Root, Day>, in locale: String
    ) -> DBBExpression<Root, String?> {
        aligned(unit, date.node, locale, edge: "end")
    }

    /// The last day of the `unit` that holds the date property.
    public static func end<Day: DBBDateValue>(
        of unit: DBBCalendarUnit, containing date: KeyPath<Root, Day>, in locale: String
    ) -> DBBExpression<Root, String?> {
        aligned(unit, SQLNode.keyPath(date), locale, edge: "end")
    }

    private static func aligned(_ unit: DBBCalendarUnit, _ date: SQLNode, _ locale: String, edge: String)
        -> DBBExpression<Root, String?>
    {
        DBBExpression<Root, String?>(
            .function("dbb_align", [date, .keyword("'\(unit.rawValue)'"), .locale(locale), .keyword("'\(edge)'")]))
    }

    // MARK: - ESLocale's texts

    /// ESLocale's quarter of the date, `Q1 '11` (`ObjcGetYearAndQuarterUsingLocale`); for a
    /// sortable key, use `.start(of: .quarter, containing:in:)`.
    public static func quarter<Day: DBBDateValue>(of date: DBBExpression<Root, Day>, in locale: String)
        -> DBBExpression<Root, String?>
    {
        DBBExpression<Root, String?>(
            .nullIfNull(date.node, .function("ObjcGetYearAndQuarterUsingLocale", [date.node, .locale(locale)])))
    }

    /// ESLocale's quarter of the date property, `Q1 '11`.
    public static func quarter<Day: DBBDateValue>(of date: KeyPath<Root, Day>, in locale: String)
        -> DBBExpression<Root, String?>
    {
        quarter(of: DBBExpression<Root, Day>.column(date), in: locale)
    }

    /// ESLocale's half-year of the date (`ObjcGetYearAndHalfYearUsingLocale`): `first` in
    /// January–June, `second` in July–December, `%@` in them replaced by the year (two digits
    /// with `shortYear`, else four) and `%%` by `%`.
    public static func halfYear<Day: DBBDateValue>(
        of date: DBBExpression<Root, Day>, in locale: String, first: String = "H1 %@", second: String = "H2 %@",
        shortYear: Bool = false
    ) -> DBBExpression<Root, String?> {
        DBBExpression<Root, String?>(
            .nullIfNull(
                date.node,
                .function(
                    "ObjcGetYearAndHalfYearUsingLocale",
                    [
                        date.node, .locale(locale), .value(.text(first)), .value(.text(second)),
                        .keyword(shortYear ? "'short'" : "'long'"),
                    ])))
    }

    /// ESLocale's half-year of the date property.
    public static func halfYear<Day: DBBDateValue>(
        of date: KeyPath<Root, Day>, in locale: String, first: String = "H1 %@", second: String = "H2 %@",
        shortYear: Bool = false
    ) -> DBBExpression<Root, String?> {
        halfYear(
            of: DBBExpression<Root, Day>.column(date), in: locale, first: first, second: second, shortYear: shortYear)
    }

    /// The date formatted with the TR35 pattern (`"yyyy-MM"`, `"LLLL yyyy"`) in the locale's
    /// language, in UTC (`dbb_format_date`, ESLocale's `ObjcFormatAnsiDateUsingLocale`); `nil`
    /// for an empty result.
    public static func formatted<Day: DBBDateValue>(
        _ date: DBBExpression<Root, Day>, as pattern: String, in locale: String
    ) -> DBBExpression<Root, String?> {
        DBBExpression<Root, String?>(
            .nullIfNull(
                date.node, .function("dbb_format_date", [.value(.text(pattern)), date.node, .locale(locale)])))
    }

    /// The date property formatted with the TR35 pattern in the locale's language.
    public static func formatted<Day: DBBDateValue>(_ date: KeyPath<Root, Day>, as pattern: String, in locale: String)
        -> DBBExpression<Root, String?>
    {
        formatted(DBBExpression<Root, Day>.column(date), as: pattern, in: locale)
    }
}
