import DBBBuilder
import Foundation

/// A text expression the generated queries group, select and sort by, with what Swift computes
/// for it from a sample (Foundation's `Calendar` and `DateFormatter` for the calendar).
struct DifferentialKey {
    let text: String
    let expression: DBBExpression<Sample, String?>
    let answer: (Sample) -> String?
    /// Whether its values sort alike under any collation (digits and ASCII in fixed places):
    /// only then is an order by it compared as an order, and a page of it compared at all.
    let sortable: Bool

    /// Every key: the weeks and their first days in every locale, the start and end of each
    /// span, ESLocale's quarter and half-year texts, formatted dates, and a text column. Made
    /// anew for each test (a formatter is not shared between threads).
    static func all() -> [DifferentialKey] {
        var keys: [DifferentialKey] = []
        for locale in weekLocales {
            let calendar = DifferentialCalendar.weeks(locale)
            keys.append(
                dated("week(\(locale))", .week(of: \.day, in: locale), sortable: true) {
                    DifferentialCalendar.weekKey($0, calendar)
                })
            keys.append(
                dated("weekStart(\(locale))", .weekStart(of: \.day, in: locale), sortable: true) {
                    DifferentialCalendar.dayText(calendar.dateInterval(of: .weekOfYear, for: $0)!.start)
                })
            keys.append(
                dated("end(week, \(locale))", .end(of: .week, containing: \.day, in: locale), sortable: true) {
                    DifferentialCalendar.dayText(calendar.dateInterval(of: .weekOfYear, for: $0)!.start + 6 * 86_400)
                })
        }
        for locale in textLocales {
            for unit in [DBBCalendarUnit.day, .month, .quarter, .halfYear, .year] {
                keys.append(
                    dated("start(\(unit), \(locale))", .start(of: unit, containing: \.day, in: locale), sortable: true)
                    {
                        DifferentialCalendar.dayText(DifferentialCalendar.span(unit, $0).start)
                    })
                keys.append(
                    dated("end(\(unit), \(locale))", .end(of: unit, containing: \.day, in: locale), sortable: true) {
                        DifferentialCalendar.dayText(DifferentialCalendar.span(unit, $0).end - 86_400)
                    })
            }
            keys.append(
                dated("quarter(\(locale))", .quarter(of: \.day, in: locale), sortable: false) {
                    let parts = DifferentialFixture.utc.dateComponents([.year, .month], from: $0)
                    return "Q\((parts.month! - 1) / 3 + 1) '\(String(format: "%02d", parts.year! % 100))"
                })
            for (first, second, short) in halfYearFormats {
                keys.append(
                    dated(
                        "halfYear(\(locale), \(first), \(second), short: \(short))",
                        .halfYear(of: \.day, in: locale, first: first, second: second, shortYear: short),
                        sortable: false
                    ) {
                        let parts = DifferentialFixture.utc.dateComponents([.year, .month], from: $0)
                        let year = short ? String(format: "%02d", parts.year! % 100) : String(parts.year!)
                        return (parts.month! <= 6 ? first : second).replacingOccurrences(of: "%@", with: year)
                            .replacingOccurrences(of: "%%", with: "%")
                    })
            }
            for (pattern, sortable) in patterns {
                let formatter = DifferentialCalendar.formatter(pattern, locale)
                keys.append(
                    dated(
                        "formatted(\(pattern), \(locale))", .formatted(\.day, as: pattern, in: locale),
                        sortable: sortable
                    ) {
                        let text = formatter.string(from: $0)
                        return text.isEmpty ? nil : text
                    })
            }
        }
        keys.append(DifferentialKey(text: "label", expression: .column(\.label), answer: \.label, sortable: false))
        return keys
    }

    /// Locales whose weeks differ: Sunday and 1 day (US, Brazil), Monday and 4 days (Germany,
    /// Russia, France, UK), Saturday (Egypt), and a first weekday given in the identifier.
    static let weekLocales = ["en_US", "de_DE", "ru_RU", "fr_FR", "en_GB", "pt_BR", "ar_EG", "de_DE@fw=sun"]

    /// Locales for the texts (their names and digits as `DateFormatter` writes them).
    static let textLocales = ["en_US", "de_DE", "ru_RU"]

    static let halfYearFormats = [
        ("H1 %@", "H2 %@", false), ("%@ — 1st 50%%", "%@ — 2nd 50%%", true), ("1H'%@", "2H'%@", true),
    ]

    /// TR35 patterns, and whether their texts sort alike everywhere.
    static let patterns = [
        ("yyyy-MM", true), ("YYYY-ww", true), ("LLLL yyyy", false), ("QQQ yyyy", false), ("EEEE", false),
    ]

    /// A key of the sample's day: `nil` without one.
    private static func dated(
        _ text: String, _ expression: DBBExpression<Sample, String?>, sortable: Bool,
        _ answer: @escaping (Date) -> String?
    ) -> DifferentialKey {
        DifferentialKey(text: text, expression: expression, answer: { $0.day.flatMap(answer) }, sortable: sortable)
    }
}

/// Foundation's answers to the calendar questions, in UTC.
enum DifferentialCalendar {
    /// Foundation's Gregorian calendar in UTC with the locale's first weekday and minimum days
    /// in the first week, as `Calendar` gives them for the locale.
    static func weeks(_ locale: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: locale)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// `YYYY-ww` of the locale's week.
    static func weekKey(_ date: Date, _ calendar: Calendar) -> String {
        String(
            format: "%04d-%02d", calendar.component(.yearForWeekOfYear, from: date),
            calendar.component(.weekOfYear, from: date))
    }

    /// `yyyy-MM-dd` in UTC.
    static func dayText(_ date: Date) -> String {
        let parts = DifferentialFixture.utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The first day of the `unit` holding `date`, and the first day after it.
    static func span(_ unit: DBBCalendarUnit, _ date: Date) -> (start: Date, end: Date) {
        let utc = DifferentialFixture.utc
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        let (month, months): (Int, Int) =
            switch unit {
            case .day, .week: (parts.month!, 0)
            case .month: (parts.month!, 1)
            case .quarter: ((parts.month! - 1) / 3 * 3 + 1, 3)
            case .halfYear: ((parts.month! - 1) / 6 * 6 + 1, 6)
            case .year: (1, 12)
            }
        if months == 0 {
            let start = utc.date(from: DateComponents(year: parts.year!, month: month, day: parts.day!))!
            return (start, start + 86_400)
        }
        let start = utc.date(from: DateComponents(year: parts.year!, month: month, day: 1))!
        return (start, utc.date(byAdding: .month, value: months, to: start)!)
    }

    /// A formatter of `pattern` in the locale's language, in UTC.
    static func formatter(_ pattern: String, _ locale: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter
    }
}
