import Foundation

/// A calendar day in the proleptic Gregorian calendar, counted from 1970-01-01 (day 0).
///
/// The value type the locale functions compute with: integer arithmetic only, no
/// `Calendar` or `DateFormatter`. Make one from a `Date`, taken in UTC (``init(_:)``), from
/// year, month and day (``init(year:month:day:)``), or from a day count
/// (``init(daysSince1970:)``).
///
/// ```swift
/// let day = DBBDay(year: 2011, month: 1, day: 2)!
/// day.weekday        // 1 (Sunday)
/// day.description    // "2011-01-02"
/// ```
///
/// The arithmetic is exact for any day whose year lies within millions of years of today;
/// days near `Int.max` overflow, and trap, like any Swift integer arithmetic. The SQL
/// functions only make days of years 1...10000.
public struct DBBDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01; negative before it.
    public let daysSince1970: Int

    /// The day `daysSince1970` days after 1970-01-01.
    public init(daysSince1970: Int) { self.daysSince1970 = daysSince1970 }

    /// The day with these Gregorian fields, or `nil` when they do not name a day
    /// (month outside 1...12, day outside the month).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= DBBDay.daysIn(month: month, year: year) else { return nil }
        daysSince1970 = DBBDay.days(year: year, month: month, day: day)
    }

    /// The UTC day of `date`.
    /// - Precondition: `date` is finite (not `Date(timeIntervalSince1970: .infinity)`).
    public init(_ date: Date) {
        self.init(secondsSince1970: date.timeIntervalSince1970)
    }

    /// The UTC day of an instant given in seconds since 1970.
    /// - Precondition: `seconds` is finite and less than about 10^20 in magnitude.
    init(secondsSince1970 seconds: Double) {
        var days = (seconds / 86_400).rounded(.down)
        // The division may round a moment before midnight up to the next day.
        if days * 86_400 > seconds { days -= 1 }
        daysSince1970 = Int(days)
    }

    /// Midnight UTC at the start of the day.
    public var date: Date { Date(timeIntervalSince1970: Double(daysSince1970) * 86_400) }

    // MARK: - Fields

    /// Year, month (1...12) and day of month (1...31).
    public var fields: (year: Int, month: Int, day: Int) {
        // Civil-from-days over 400-year eras (146,097 days), March-based years.
        let shifted = daysSince1970 + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfMarchYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfMarchYear + 2) / 153
        let day = dayOfMarchYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The Gregorian year.
    public var year: Int { fields.year }

    /// The month, 1...12.
    public var month: Int { fields.month }

    /// The day of the month, 1...31.
    public var day: Int { fields.day }

    /// The weekday, 1 (Sunday) ... 7 (Saturday), as `Calendar` numbers them.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (5).
        let offset = (daysSince1970 + 4) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    /// The day of the year, 1...366.
    public var dayOfYear: Int {
        daysSince1970 - DBBDay.days(year: year, month: 1, day: 1) + 1
    }

    /// The quarter, 1...4.
    public var quarter: Int { (month - 1) / 3 + 1 }

    /// The half-year, 1 (January–June) or 2 (July–December).
    public var halfYear: Int { month <= 6 ? 1 : 2 }

    /// `yyyy-MM-dd`, with ASCII digits.
    public var description: String {
        let (year, month, day) = fields
        return ASCIIDigits.pad(year, 4) + "-" + ASCIIDigits.pad(month, 2) + "-" + ASCIIDigits.pad(day, 2)
    }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> DBBDay { DBBDay(daysSince1970: daysSince1970 + count) }

    /// The same day of the month `count` months later (earlier when negative), clamped to
    /// the last day of a shorter month, as `Calendar` adds months.
    public func adding(months count: Int) -> DBBDay {
        let (year, month, day) = fields
        let total = year * 12 + (month - 1) + count
        let newYear = total >= 0 ? total / 12 : (total - 11) / 12
        let newMonth = total - newYear * 12 + 1
        return DBBDay(
            daysSince1970: DBBDay.days(
                year: newYear, month: newMonth, day: min(day, DBBDay.daysIn(month: newMonth, year: newYear))))
    }

    public static func < (lhs: DBBDay, rhs: DBBDay) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }

    // MARK: - Calendar arithmetic

    /// Whether `year` is a Gregorian leap year.
    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// 365 or 366.
    static func length(ofYear year: Int) -> Int { isLeap(year) ? 366 : 365 }

    /// The number of days in `month` of `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a valid Gregorian date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfMarchYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfMarchYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Zero-padded ASCII decimal text.
enum ASCIIDigits {
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
