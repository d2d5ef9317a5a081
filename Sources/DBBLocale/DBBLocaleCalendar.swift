import Foundation

/// A locale's week rules on the Gregorian calendar, and the calendar math built on them:
/// week of year, year for week of year, alignment of a day or a range to a period.
///
/// The rules come from the locale's CLDR data, as `Calendar` reports them (`firstWeekday`,
/// `minimumDaysInFirstWeek`): en_US weeks start on Sunday and week 1 holds January 1st;
/// ru_RU and de_DE weeks start on Monday and week 1 is the first with at least 4 days
/// (ISO 8601). The computations are integer arithmetic and give what `Calendar` and
/// `DateFormatter` give for Gregorian dates from 1600 on (before the 1582 calendar reform
/// Foundation switches to the Julian calendar; ``DBBDay`` stays Gregorian).
///
/// ```swift
/// let us = try DBBLocaleCalendar(localeIdentifier: "en_US")
/// let day = DBBDay(year: 2011, month: 1, day: 2)!
/// us.weekOfYear(day)        // 2
/// us.yearForWeekOfYear(day) // 2011
/// us.align(day, to: .week, edge: .start)   // 2011-01-02
/// ```
public struct DBBLocaleCalendar: Sendable, Hashable {
    /// The first day of a week: 1 (Sunday) ... 7 (Saturday).
    public let firstWeekday: Int

    /// How many days of a new year the first week of that year must hold, 1...7.
    public let minimumDaysInFirstWeek: Int

    /// Week rules given explicitly.
    /// - Precondition: `firstWeekday` in 1...7, `minimumDaysInFirstWeek` in 1...7.
    public init(firstWeekday: Int, minimumDaysInFirstWeek: Int) {
        precondition((1...7).contains(firstWeekday), "firstWeekday must be 1...7")
        precondition((1...7).contains(minimumDaysInFirstWeek), "minimumDaysInFirstWeek must be 1...7")
        self.firstWeekday = firstWeekday
        self.minimumDaysInFirstWeek = minimumDaysInFirstWeek
    }

    /// The week rules of a locale (`en_US`, `ru_RU`, `en-GB`, `de_DE@fw=sun`…).
    /// - Throws: ``DBBLocaleError/unknownLocale(_:)`` when the identifier names no available locale.
    public init(localeIdentifier: String) throws(DBBLocaleError) {
        self = try LocaleRegistry.shared.info(for: localeIdentifier).calendar
    }

    /// The week rules `Calendar` gives the Gregorian calendar of `locale`.
    public init(locale: Locale) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        self.init(firstWeekday: calendar.firstWeekday, minimumDaysInFirstWeek: calendar.minimumDaysInFirstWeek)
    }

    // MARK: - Weeks

    /// How many days `day` lies after the start of its week, 0...6.
    public func daysIntoWeek(_ day: DBBDay) -> Int {
        (day.weekday + 7 - firstWeekday) % 7
    }

    /// The week of the year of `day`, 1...53 (`w` in a date pattern).
    public func weekOfYear(_ day: DBBDay) -> Int { weekFields(day).week }

    /// The year that the week of `day` belongs to (`Y` in a date pattern): the previous
    /// year for early-January days in its last week, the next for late-December days in its week 1.
    public func yearForWeekOfYear(_ day: DBBDay) -> Int { weekFields(day).year }

    /// Week of year and its year, by the rules ICU documents for week fields.
    public func weekFields(_ day: DBBDay) -> (year: Int, week: Int) {
        weekFields(day, year: day.year)
    }

    /// ``weekFields(_:)`` for a day whose Gregorian year is already known.
    func weekFields(_ day: DBBDay, year: Int) -> (year: Int, week: Int) {
        let dayOfYear = day.daysSince1970 - DBBDay.days(year: year, month: 1, day: 1) + 1
        let weekday = day.weekday
        let relativeWeekday = (weekday + 7 - firstWeekday) % 7
        // Where January 1st falls in its week, 0...6 (7001 keeps the dividend positive).
        let relativeWeekdayOfJanuary1 = (weekday - dayOfYear + 7001 - firstWeekday) % 7
        var week = (dayOfYear - 1 + relativeWeekdayOfJanuary1) / 7
        if 7 - relativeWeekdayOfJanuary1 >= minimumDaysInFirstWeek { week += 1 }

        if week == 0 {
            // Before week 1: the last week of the previous year.
            let dayOfPreviousYear = dayOfYear + DBBDay.length(ofYear: year - 1)
            return (year - 1, weekNumber(dayOfPeriod: dayOfPreviousYear, weekday: weekday))
        }
        let yearLength = DBBDay.length(ofYear: year)
        if dayOfYear >= yearLength - 5 {
            // Late December may already be in week 1 of the next year.
            let relativeWeekdayOfDecember31 = (relativeWeekday + yearLength - dayOfYear) % 7
            if 6 - relativeWeekdayOfDecember31 >= minimumDaysInFirstWeek,
                dayOfYear + 7 - relativeWeekday > yearLength
            {
                return (year + 1, 1)
            }
        }
        return (year, week)
    }

    /// The week number of day `dayOfPeriod` (1-based) of a period, given that day's weekday.
    private func weekNumber(dayOfPeriod: Int, weekday: Int) -> Int {
        var periodStart = (weekday - firstWeekday - dayOfPeriod + 1) % 7
        if periodStart < 0 { periodStart += 7 }
        var week = (dayOfPeriod + periodStart - 1) / 7
        if 7 - periodStart >= minimumDaysInFirstWeek { week += 1 }
        return week
    }

    // MARK: - Alignment

    /// The first (`.start`) or last (`.end`) day of the `unit` that contains `day`.
    ///
    /// ```swift
    /// try DBBLocaleCalendar(localeIdentifier: "ru_RU")
    ///     .align(DBBDay(year: 2012, month: 5, day: 22)!, to: .week, edge: .start)   // 2012-05-21, a Monday
    /// ```
    public func align(_ day: DBBDay, to unit: DBBDateUnit, edge: DBBAlignmentEdge) -> DBBDay {
        let (year, month, _) = day.fields
        let firstMonth: Int
        let months: Int
        switch unit {
        case .day:
            return day
        case .week:
            let start = day.adding(days: -daysIntoWeek(day))
            return edge == .start ? start : start.adding(days: 6)
        case .month: (firstMonth, months) = (month, 1)
        case .quarter: (firstMonth, months) = ((month - 1) / 3 * 3 + 1, 3)
        case .halfYear: (firstMonth, months) = (month <= 6 ? 1 : 7, 6)
        case .year: (firstMonth, months) = (1, 12)
        }
        let start = DBBDay(daysSince1970: DBBDay.days(year: year, month: firstMonth, day: 1))
        return edge == .start ? start : start.adding(months: months).adding(days: -1)
    }

    /// The largest unit that fits in the inclusive range `start...end`, as ESLocale chose it:
    /// at least a year → `.year`, 6 months → `.halfYear`, 3 months → `.quarter`,
    /// 1 month → `.month`, 1 week → `.week`, else `.day`. Months are whole calendar months
    /// (January 31st plus one month is the end of February).
    public func resolution(from start: DBBDay, to end: DBBDay) -> DBBDateUnit {
        let (first, last) = start <= end ? (start, end) : (end, start)
        let stop = last.adding(days: 1)  // the range is inclusive
        let (fy, fm, _) = first.fields
        let (ly, lm, _) = stop.fields
        var months = (ly - fy) * 12 + (lm - fm)
        if first.adding(months: months) > stop { months -= 1 }
        switch months {
        case 12...: return .year
        case 6...: return .halfYear
        case 3...: return .quarter
        case 1...: return .month
        default: return stop.daysSince1970 - first.daysSince1970 >= 7 ? .week : .day
        }
    }

    /// Widens the inclusive range `start...end` to whole periods of its ``resolution(from:to:)``.
    ///
    /// ```swift
    /// let us = try DBBLocaleCalendar(localeIdentifier: "en_US")
    /// us.alignRange(from: DBBDay(year: 2012, month: 5, day: 2)!, to: DBBDay(year: 2012, month: 5, day: 24)!)
    /// // (.week, 2012-04-29, 2012-05-26)
    /// ```
    public func alignRange(from start: DBBDay, to end: DBBDay) -> (resolution: DBBDateUnit, start: DBBDay, end: DBBDay)
    {
        let (first, last) = start <= end ? (start, end) : (end, start)
        let unit = resolution(from: first, to: last)
        return (unit, align(first, to: unit, edge: .start), align(last, to: unit, edge: .end))
    }
}
