import DBBSQLite
import Foundation

/// A date argument made ready for the functions: its instant, and its ``DBBDay`` when the
/// integer arithmetic applies (years 1600...9999).
struct ResolvedDate {
    /// Seconds since 1970-01-01 UTC.
    let secondsSince1970: Double
    /// The UTC day, when in 1600...9999; `nil` sends the computation to Foundation.
    let day: DBBDay?

    var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// Seconds from 1970 to 2001-01-01, the reference date table objects store dates against.
    static let referenceDateOffset: Double = 978_307_200
    static let fastYears = 1600...9999
    /// 0001-01-01 ..< 10000-01-01, in seconds since 1970.
    private static let supported = -62_135_596_800.0 ..< 253_402_300_800.0

    /// The date at argument `index`: TEXT in the accepted forms, or a number of seconds since
    /// 2001-01-01 UTC. `nil` when it does not parse or lies outside years 1...9999.
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
        if ResolvedDate.fastYears.contains(fields.year) {
            let days = DBBDay.days(year: fields.year, month: fields.month, day: fields.day)
            self.init(secondsSince1970: Double(days) * 86_400 + fields.secondsOfDay - Double(fields.offsetSeconds))
        } else {
            guard let seconds = FoundationDates.instant(of: fields) else { return nil }
            self.init(secondsSince1970: seconds)
        }
    }

    init?(secondsSince1970 seconds: Double) {
        guard seconds.isFinite, ResolvedDate.supported.contains(seconds) else { return nil }
        secondsSince1970 = seconds
        let day = DBBDay(secondsSince1970: seconds)
        self.day = ResolvedDate.fastYears.contains(day.year) ? day : nil
    }
}
