import DBBCore
import DBBSQLite
import Foundation

/// The Foundation side: `DateFormatter`s for patterns the fast path does not write, and
/// `Calendar` math for dates before 1600 (where Foundation's Gregorian calendar turns Julian).
enum FoundationDates {
    static let utc = TimeZone(identifier: "UTC")!

    /// A Gregorian calendar in UTC with `locale` (and so its week rules).
    static func gregorian(_ locale: Locale) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = utc
        return calendar
    }

    /// A Gregorian calendar in UTC with explicit week rules.
    static func gregorian(_ rules: DBBLocaleCalendar) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: "en_US_POSIX")
        calendar.timeZone = utc
        calendar.firstWeekday = rules.firstWeekday
        calendar.minimumDaysInFirstWeek = rules.minimumDaysInFirstWeek
        return calendar
    }

    /// The formatter the functions are specified to equal: Gregorian calendar of `locale`, UTC.
    static func makeFormatter(pattern: String, locale: Locale) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.calendar = gregorian(locale)
        formatter.locale = locale
        formatter.timeZone = utc
        formatter.dateFormat = pattern
        return formatter
    }

    // MARK: - Formatter cache

    private struct Key: Hashable {
        let pattern: String
        let locale: String
    }

    /// `DateFormatter` is not safe to share between threads: each is used under the lock.
    private static let formatters = Locked<[Key: DateFormatter]>([:])
    private static let formatterLimit = 512

    /// `date` formatted with `pattern` in `locale` by a cached `DateFormatter`.
    static func format(_ date: Date, pattern: String, locale: LocaleInfo) -> String {
        formatters.withLock { cache in
            let key = Key(pattern: pattern, locale: locale.identifier)
            if let formatter = cache[key] { return formatter.string(from: date) }
            if cache.count >= formatterLimit { cache.removeAll(keepingCapacity: true) }
            let formatter = makeFormatter(pattern: pattern, locale: locale.locale)
            cache[key] = formatter
            return formatter.string(from: date)
        }
    }

    // MARK: - Dates before 1600

    /// The start of the written day in UTC, in seconds since 1970, on Foundation's Gregorian
    /// calendar (Julian before 1582-10-15), as `DateFormatter` would parse it.
    static func midnight(of fields: ANSIDateParser.Fields) -> Double? {
        let components = DateComponents(year: fields.year, month: fields.month, day: fields.day)
        return gregorian(Locale(identifier: "en_US_POSIX")).date(from: components)?.timeIntervalSince1970
    }

    /// `yyyy-MM-dd` of `date` on a Foundation calendar. A day before year 1 has the year it
    /// has in astronomical numbering (as ISO 8601 and the week-year do): 1 BC is `0000`.
    static func dayText(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.era, .year, .month, .day], from: date)
        let year = parts.year ?? 0
        return ASCIIDigits.pad(parts.era == 0 ? 1 - year : year, 4) + "-" + ASCIIDigits.pad(parts.month ?? 0, 2) + "-"
            + ASCIIDigits.pad(parts.day ?? 0, 2)
    }

    /// The first or last day of the `unit` holding `date`, on a Foundation calendar.
    static func align(_ date: Date, to unit: DBBDateUnit, edge: DBBAlignmentEdge, _ calendar: Calendar) -> Date? {
        let component: Calendar.Component
        var months = 0
        switch unit {
        case .day: return date
        case .week: component = .weekOfYear
        case .month: component = .month
        case .year: component = .year
        case .quarter, .halfYear:
            component = .month
            months = unit == .quarter ? 3 : 6
        }
        guard var interval = calendar.dateInterval(of: component, for: date) else { return nil }
        if months > 0 {
            let month = calendar.component(.month, from: date)
            let back = (month - 1) % months
            guard let start = calendar.date(byAdding: .month, value: -back, to: interval.start),
                let end = calendar.date(byAdding: .month, value: months, to: start)
            else { return nil }
            interval = DateInterval(start: start, end: end)
        }
        return edge == .start ? interval.start : interval.end.addingTimeInterval(-86_400)
    }
}
