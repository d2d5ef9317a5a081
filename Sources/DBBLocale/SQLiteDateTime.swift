import DBBSQLite

/// A date argument as SQLite's own date and time functions count it: whole milliseconds of the
/// Julian day number, on the proleptic Gregorian calendar, in UTC. Behind `dbb_date` and
/// `dbb_unixepoch` (see ``DBBLocaleFunctions``).
///
/// A number is seconds since 2001-01-01, how table objects store a `Date`; it is rounded to the
/// millisecond exactly as `datetime(number + 978307200, 'unixepoch')` rounds it. Text is read as
/// the other locale functions read it (``ANSIDateParser``); an offset moves it to UTC. Only
/// instants from 0001-01-01 00:00:00 up to, not including, 10000-01-01 are dates.
struct SQLiteDateTime {
    /// Milliseconds since noon of 4714-11-24 BC (Julian day 0), as SQLite keeps them.
    let julianMilliseconds: Int64
    /// The instant in seconds since 1970-01-01 UTC, before any rounding.
    let secondsSince1970: Double

    /// Julian day 2440587.5, 1970-01-01 00:00 UTC, in milliseconds.
    private static let julianMilliseconds1970 = 210_866_760_000_000.0
    /// 0001-01-01 00:00 ..< 10000-01-01 00:00 (proleptic Gregorian), in Julian milliseconds.
    private static let supported: Range<Int64> = 148_731_163_200_000..<464_269_060_800_000
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The date at argument `index`; `nil` when it is NULL, does not parse or lies outside the years 1...9999.
    init?(_ arguments: SQLiteFunctionArguments, at index: Int) {
        switch arguments.type(at: index) {
        case .integer:
            let (seconds, overflow) = arguments.int64(at: index)
                .addingReportingOverflow(Int64(ResolvedDate.referenceDateOffset))
            guard !overflow else { return nil }
            self.init(secondsSince1970: Double(seconds))
        case .real:
            self.init(secondsSince1970: arguments.double(at: index) + ResolvedDate.referenceDateOffset)
        case .text, .blob:
            guard let fields = arguments.withUnsafeUTF8(at: index, ANSIDateParser.parse) else { return nil }
            let midnight = Double(DBBDay.days(year: fields.year, month: fields.month, day: fields.day)) * 86_400
            self.init(secondsSince1970: midnight + fields.secondsOfDay - Double(fields.offsetSeconds))
        case .null:
            return nil
        }
    }

    init?(secondsSince1970 seconds: Double) {
        // The same operations, in the same order, as SQLite's 'unixepoch' modifier.
        let milliseconds = seconds * 1000.0 + SQLiteDateTime.julianMilliseconds1970
        guard milliseconds >= Double(SQLiteDateTime.supported.lowerBound),
            milliseconds < Double(SQLiteDateTime.supported.upperBound)
        else { return nil }  // NaN included
        // Rounding may reach 10000-01-01, which SQLite refuses too.
        let rounded = Int64(milliseconds + 0.5)
        guard SQLiteDateTime.supported.contains(rounded) else { return nil }
        julianMilliseconds = rounded
        secondsSince1970 = seconds
    }

    /// `YYYY-MM-DD HH:MM:SS`, with `.SSS` when the milliseconds are not zero: text that SQLite's
    /// `date()`, `datetime()` and `strftime()` read as the same instant.
    var text: String {
        let since1970 = julianMilliseconds - Int64(SQLiteDateTime.julianMilliseconds1970)
        let (days, millisecondOfDay) = since1970.floorDivided(by: SQLiteDateTime.millisecondsPerDay)
        let (year, month, day) = DBBDay(daysSince1970: Int(days)).fields
        let milliseconds = Int(millisecondOfDay)
        let second = milliseconds / 1000
        let fraction = milliseconds % 1000
        return String(unsafeUninitializedCapacity: 23) { buffer in
            var position = 0
            func put(_ value: Int, digits: Int) {
                var value = value
                for offset in stride(from: digits - 1, through: 0, by: -1) {
                    buffer[position + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                position += digits
            }
            func put(_ character: Unicode.Scalar) {
                buffer[position] = UInt8(ascii: character)
                position += 1
            }
            put(year, digits: 4)
            put("-")
            put(month, digits: 2)
            put("-")
            put(day, digits: 2)
            put(" ")
            put(second / 3600, digits: 2)
            put(":")
            put(second / 60 % 60, digits: 2)
            put(":")
            put(second % 60, digits: 2)
            if fraction != 0 {
                put(".")
                put(fraction, digits: 3)
            }
            return position
        }
    }
}

extension Int64 {
    /// Quotient rounded down and the non-negative remainder.
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
