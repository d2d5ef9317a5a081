import DBBSQLite
import Foundation

/// A date argument made ready for the functions: its instant, and its ``DBBDay`` when the
/// integer arithmetic applies (years 1600...9999).
///
/// The functions accept instants from 0001-01-01 00:00 on Foundation's calendar (Julian
/// before 1582) up to, not including, 10000-01-01 00:00 UTC: the days the parser can write.
/// Anything else (`1e15`, `-inf`, NaN, an offset that moves 9999-12-31 into 10000) is no date.
struct ResolvedDate {
    /// Seconds since 1970-01-01 UTC.
    let secondsSince1970: Double
    /// The UTC day, when in 1600...9999; `nil` sends the computation to Foundation.
    let day: DBBDay?

    var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// The UTC day `DateFormatter` writes: it rounds the instant to the millisecond, half up
    /// (`CFDateFormatter` adds half a millisecond), so the last half millisecond of a day writes
    /// the next day. `nil` outside ``fastYears``.
    var formatterDay: DBBDay? {
        guard day != nil else { return nil }
        let rounded = DBBDay(secondsSince1970: (secondsSince1970 * 1000 + 0.5).rounded(.down) / 1000)
        return ResolvedDate.fastYears.contains(rounded.year) ? rounded : nil
    }

    /// Seconds from 1970 to 2001-01-01, the reference date table objects store dates against.
    static let referenceDateOffset: Double = 978_307_200
    /// Where ``DBBDay`` arithmetic equals Foundation's Gregorian calendar (see also
    /// ``DatePattern/maximumYearDigits``).
    static let fastYears = 1600...9999
    /// Julian 0001-01-01 ..< Gregorian 10000-01-01, in seconds since 1970.
    private static let supported = -62_135_769_600.0..<253_402_300_800.0

    /// The date at argument `index`: TEXT in the accepted forms, or a number of seconds since
    /// 2001-01-01 UTC. `nil` when it is NULL, does not parse or lies outside the supported instants.
    init?(_ arguments: SQLiteFunctionArguments, at index: Int) {
        switch arguments.type(at: index) {
        case .integer, .real:
            self.init(secondsSince1970: arguments.double(at: index) + ResolvedDate.referenceDateOffset)
        case .text, .blob:
            guard let fields = arguments.withUnsafeUTF8(at: index, ANSIDateParser.parse) else { return nil }
            self.init(fields)
        case .null:
            return nil
        }
    }

    init?(_ fields: ANSIDateParser.Fields) {
        let midnight: Double
        if ResolvedDate.fastYears.contains(fields.year) {
            midnight = Double(DBBDay.days(year: fields.year, month: fields.month, day: fields.day)) * 86_400
        } else {
            guard let start = FoundationDates.midnight(of: fields) else { return nil }
            midnight = start
        }
        // The UTC day, from whole seconds: the offset moves it by at most one day either way.
        let wholeSeconds = Int(fields.secondsOfDay) - fields.offsetSeconds
        let dayStart = midnight + Double((wholeSeconds + 86_400) / 86_400 - 1) * 86_400
        // Far from 1970 a Double cannot hold every microsecond, and 23:59:59.999999 would round
        // up to the next midnight: keep the instant inside its UTC day.
        let seconds = midnight + (fields.secondsOfDay - Double(fields.offsetSeconds))
        self.init(secondsSince1970: min(max(seconds, dayStart), (dayStart + 86_400).nextDown))
    }

    init?(secondsSince1970 seconds: Double) {
        guard seconds.isFinite, ResolvedDate.supported.contains(seconds) else { return nil }
        secondsSince1970 = seconds
        let day = DBBDay(secondsSince1970: seconds)
        self.day = ResolvedDate.fastYears.contains(day.year) ? day : nil
    }
}
