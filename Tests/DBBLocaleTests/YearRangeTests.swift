import DBBLocale
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// Years 1…9999 and what lies just past them: the week-year 10000 that the last days of 9999
/// belong to in some locales, the first days of year 1 (whose weeks start in 1 BC), the limits
/// of the date parser, and numbers far outside any calendar.
@Suite("Years 1…9999 and beyond: five-digit week-years, the limits, huge numbers")
struct YearRangeTests {
    /// Numeric fields the fast path writes, one pattern (so the fast path is taken).
    static let fastPattern = "Y|YY|YYYY|y|yy|yyyy|w|ww|Q|QQ|M|MM|d|dd|'Q'Q yy"
    /// Five-letter years, which only `DateFormatter` writes.
    static let widePattern = "YYYYY|yyyyy|YYYY-ww"
    static let locales = ["en_US", "ru_RU", "de_DE", "ar_SA", "fa_IR", "en_GB", "ne_NP"]

    /// Seconds since 2001 of 10000-01-01T00:00:00Z, the first instant no function accepts.
    static let year10000 = 252_423_993_600.0
    /// Seconds since 2001 of 0001-01-01T00:00:00Z on Foundation's calendar (Julian before
    /// 1582), the first instant the functions accept.
    static let year1 = -63_114_076_800.0

    /// The instant that date text written `yyyy-MM-dd` means, on Foundation's calendar in UTC.
    static func date(_ text: String) throws -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = DifferentialTests.utc
        return try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])))
    }

    /// The SQL result against the reference formatter, for every pattern, locale and day.
    private func expectFormats(
        _ database: SQLiteTestDatabase, _ patterns: [String], _ locales: [String],
        _ days: [String]
    ) throws {
        for identifier in locales {
            for pattern in patterns {
                let formatter = DifferentialTests.referenceFormatter(pattern, Locale(identifier: identifier))
                for day in days {
                    let expected = formatter.string(from: try Self.date(day))
                    for function in ["dbb_format_date", "ObjcFormatAnsiDateUsingLocale"] {
                        #expect(
                            try database.text(
                                "SELECT \(function)(?, ?, ?)", [.text(pattern), .text(day), .text(identifier)])
                                == expected, "\(function) \(identifier) '\(pattern)' \(day)")
                    }
                }
            }
        }
    }

    @Test("9999-12-31, a common sentinel: en_US puts it in week 1 of 10000, ru_RU and de_DE in 9999-52")
    func lastDay() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_week('9999-12-31', 'en_US')") == "10000-01")
        #expect(try database.text("SELECT dbb_week('9999-12-31', 'ar_SA')") == "10000-01", "dbb_week is ASCII")
        #expect(try database.text("SELECT dbb_week('9999-12-31', 'ru_RU')") == "9999-52")
        #expect(try database.text("SELECT dbb_week('9999-12-31', 'de_DE')") == "9999-52")
        #expect(try database.text("SELECT dbb_format_date('YYYY-ww', '9999-12-31', 'en_US')") == "10000-01")
        #expect(
            try database.text("SELECT ObjcFormatAnsiDateUsingLocale('YYYY-ww', '9999-12-31 23:59:59', 'en_US')")
                == "10000-01")
        #expect(try database.text("SELECT dbb_format_date('YYYY-ww', '9999-12-31', 'ar_SA')") == "١٠٠٠٠-٠١")
        #expect(try database.text("SELECT dbb_format_date('YY yy Y y', '9999-12-31', 'en_US')") == "00 99 10000 9999")
        #expect(try database.text("SELECT dbb_week_start('9999-12-31', 'en_US')") == "9999-12-26")
        #expect(try database.text("SELECT dbb_week_start('9999-12-31', 'ru_RU')") == "9999-12-27")
        #expect(try database.text("SELECT dbb_align('9999-12-31', 'week', 'en_US', 'end')") == "10000-01-01")
        #expect(try database.text("SELECT dbb_align('9999-12-31', 'week', 'de_DE', 'end')") == "10000-01-02")
        for unit in ["month", "quarter", "halfyear", "year"] {
            #expect(
                try database.text("SELECT dbb_align('9999-12-31', ?, 'en_US', 'end')", [.text(unit)]) == "9999-12-31")
        }
        #expect(try database.text("SELECT dbb_align('9999-12-31', 'year', 'en_US', 'start')") == "9999-01-01")
        #expect(try database.text("SELECT ObjcGetYearAndQuarterUsingLocale('9999-12-31', 'en_US')") == "Q4 '99")
        #expect(
            try database.text(
                "SELECT ObjcGetYearAndHalfYearUsingLocale('9999-12-31', 'en_US', 'H1 %@', 'H2 %@', 'long')")
                == "H2 9999")
    }

    @Test("0001-01-01, the first day the parser reads: weeks that start in 1 BC are written as year 0000")
    func firstDay() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_week('0001-01-01', 'en_US')") == "0001-01")
        #expect(try database.text("SELECT dbb_week('0001-01-01', 'ru_RU')") == "0000-53")
        #expect(try database.text("SELECT dbb_week_start('0001-01-01', 'en_US')") == "0000-12-26")
        #expect(try database.text("SELECT dbb_week_start('0001-01-01', 'de_DE')") == "0000-12-27")
        #expect(try database.text("SELECT dbb_align('0001-01-01', 'week', 'en_US', 'end')") == "0001-01-01")
        #expect(try database.text("SELECT dbb_align('0001-01-01', 'year', 'en_US', 'start')") == "0001-01-01")
        #expect(try database.text("SELECT dbb_align('0001-01-01', 'quarter', 'en_US', 'end')") == "0001-03-31")
        #expect(try database.text("SELECT dbb_format_date('yyyy-MM-dd', '0001-01-01', 'en_US')") == "0001-01-01")
        #expect(try database.text("SELECT ObjcGetYearAndQuarterUsingLocale('0001-01-01', 'en_US')") == "Q1 '01")
        #expect(
            try database.text(
                "SELECT ObjcGetYearAndHalfYearUsingLocale('0001-01-01', 'en_US', 'H1 %@', 'H2 %@', 'long')")
                == "H1 0001", "a long year has four digits")
        #expect(try database.text("SELECT dbb_week(?, 'en_US')", [.real(Self.year1)]) == "0001-01")
    }

    @Test(
        "before 1582 the locale functions count Julian days, dbb_date and SQLite proleptic Gregorian ones, as the Locale Functions article says"
    )
    func twoCalendarsBeforeTheReform() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_format_date('EEE', '1500-03-01', 'en_US')") == "Sun")
        #expect(try database.text("SELECT strftime('%w', '1500-03-01')") == "4", "Thursday, proleptic")
        #expect(try database.text("SELECT dbb_format_date('yyyy-MM-dd', '1582-10-15', 'en_US')") == "1582-10-15")
        #expect(try database.text("SELECT dbb_format_date('EEE', '1582-10-15', 'en_US')") == "Fri")
        #expect(try database.text("SELECT strftime('%w', '1582-10-15')") == "5", "the two agree from the reform on")
        #expect(try database.text("SELECT dbb_week(?, 'en_US')", [.real(Self.year1)]) == "0001-01")
        #expect(try database.text("SELECT dbb_date(?)", [.real(Self.year1)]) == "NULL", "proleptic 0000-12-30")
    }

    @Test("every locale, the first and last days of the calendar: format equals DateFormatter, weeks equal Calendar")
    func everyLocaleAtTheEnds() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let days = (1...7).map { "0001-01-0\($0)" } + (24...31).map { "9999-12-\($0)" }
        var mismatches: [String] = []
        for identifier in Locale.availableIdentifiers.sorted() {
            let locale = Locale(identifier: identifier)
            let fast = DifferentialTests.referenceFormatter(Self.fastPattern, locale)
            let wide = DifferentialTests.referenceFormatter(Self.widePattern, locale)
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = locale
            calendar.timeZone = DifferentialTests.utc
            for day in days {
                let date = try Self.date(day)
                let expected =
                    fast.string(from: date) + "#" + wide.string(from: date) + "#"
                    + DifferentialTests.referenceWeek(date, calendar)
                let actual = try database.text(
                    """
                    SELECT dbb_format_date(?1, ?3, ?4) || '#' || dbb_format_date(?2, ?3, ?4) || '#'
                        || dbb_week(?3, ?4) || ' ' || dbb_week_start(?3, ?4)
                    """, [.text(Self.fastPattern), .text(Self.widePattern), .text(day), .text(identifier)])
                if actual != expected { mismatches.append("\(identifier) \(day): \(actual) != \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(10))")
    }

    @Test("each year pattern on its own equals DateFormatter where the week-year crosses into 10000")
    func separatePatternsAtTheEnd() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let patterns = Self.fastPattern.split(separator: "|").map(String.init) + ["YYYYY", "yyyyy", "YYYY-ww"]
        try expectFormats(
            database, patterns, Self.locales, ["9999-12-24", "9999-12-26", "9999-12-31", "0001-01-01", "0001-01-03"])
    }

    @Test("random days of years 1…9999 and the year ends of years that change digit counts equal DateFormatter")
    func randomYears() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        var random = SeededRandom(seed: 99_991_231)
        var days: [String] = []
        for year in [1, 9, 10, 99, 100, 999, 1000, 1581, 1582, 1583, 1599, 1600, 1999, 2000, 9998] {
            days += ["\(year)-12-28", "\(year)-12-31", "\(year + 1)-01-01", "\(year + 1)-01-03"]
        }
        for _ in 0..<60 {
            days.append(
                "\(Int(random.next(upTo: 9999)) + 1)-\(Int(random.next(upTo: 12)) + 1)-\(Int(random.next(upTo: 28)) + 1)"
            )
        }
        let padded = days.map { text in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            return DifferentialTests.pad(parts[0], 4) + "-" + DifferentialTests.pad(parts[1], 2) + "-"
                + DifferentialTests.pad(parts[2], 2)
        }
        try expectFormats(database, [Self.fastPattern, Self.widePattern], ["en_US", "ru_RU", "ar_SA"], padded)
    }

    /// The day functions keep an instant in the day it was written in; a format, as
    /// `DateFormatter`, writes its nearest millisecond, which for the last half millisecond of a
    /// day is the next day (the third element, when it differs).
    @Test(
        "the parser's limits: a date moved by its offset out of years 1…9999 gives NULL, inside it a result",
        arguments: [
            ("0001-01-01T00:00:00-14:00", "0001-01-01", nil), ("0001-01-01 00:00:00.000", "0001-01-01", nil),
            ("9999-12-31T23:59:59.999999", "9999-12-31", "10000-01-01"),
            ("9999-12-31T10:00:00+14:00", "9999-12-30", nil),
            ("8888-08-08 23:59:59.9999999", "8888-08-08", "8888-08-09"),
            ("9999-12-31T13:59:59.999999+14:00", "9999-12-30", "9999-12-31"),
            ("0001-01-01T00:00:00+00:01", "NULL", nil), ("9999-12-31T23:59:59-00:01", "NULL", nil),
            ("9999-12-31T23:30-14", "NULL", nil),
            ("10000-01-01", "NULL", nil), ("0000-12-31", "NULL", nil),
        ] as [(String, String, String?)])
    func parserLimits(text: String, day: String, formatted: String?) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(
            try database.text("SELECT dbb_format_date('yyyy-MM-dd', ?, 'en_US')", [.text(text)]) == formatted ?? day)
        #expect(
            try database.text("SELECT dbb_format_date('yyyy-MM-dd HH:mm:ss.SSS', ?, 'en_US')", [.text(text)])
                .hasPrefix(formatted ?? day), "the day part of a longer pattern is the same day")
        #expect(try database.text("SELECT dbb_align(?, 'day', 'ru_RU', 'end')", [.text(text)]) == day)
        let week = try database.text("SELECT dbb_week(?, 'en_US')", [.text(text)])
        #expect((week == "NULL") == (day == "NULL"), "\(week)")
    }

    /// (SQLite has no NaN: a NaN bound is NULL; see ``NullDateTests``.)
    @Test(
        "numbers far outside years 1…9999 (1e15, -1e15, ±inf, Int64 limits) give NULL in every function",
        arguments: [
            1e15, -1e15, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            9.223372036854775807e18, -9.223372036854775808e18, YearRangeTests.year10000,
            YearRangeTests.year10000 + 366 * 86_400, YearRangeTests.year1 - 0.001, YearRangeTests.year1 - 86_400 * 366,
        ])
    func hugeNumbers(seconds: Double) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        for (sql, arguments) in Self.everyFunction(date: .real(seconds)) {
            #expect(try database.text(sql, arguments) == "NULL", "\(sql) \(seconds)")
        }
        let whole = Int64(exactly: seconds.rounded(.down)) ?? (seconds < 0 ? .min : .max)
        for (sql, arguments) in Self.everyFunction(date: .integer(whole)) {
            #expect(try database.text(sql, arguments) == "NULL", "\(sql) \(seconds)")
        }
    }

    @Test("the last and first accepted instants give the last and first days")
    func lastAndFirstInstants() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(
            try database.text("SELECT dbb_format_date('yyyy-MM-dd', ?, 'en_US')", [.real(Self.year10000 - 0.001)])
                == "9999-12-31")
        #expect(try database.text("SELECT dbb_week(?, 'en_US')", [.integer(Int64(Self.year10000) - 1)]) == "10000-01")
        #expect(
            try database.text("SELECT dbb_format_date('yyyy-MM-dd', ?, 'en_US')", [.real(Self.year1)]) == "0001-01-01")
        for (sql, arguments) in Self.everyFunction(date: .real(Self.year10000 - 1))
            + Self.everyFunction(date: .real(Self.year1))
        {
            #expect(try database.text(sql, arguments) != "NULL", "\(sql)")
        }
    }

    /// A call of every function with `date`, valid other arguments.
    static func everyFunction(date: SQLiteValue) -> [(String, [SQLiteValue])] {
        [
            ("SELECT dbb_format_date('YYYY-ww yyyy QQ', ?, 'ar_SA')", [date]),
            ("SELECT dbb_format_date('YYYYY EEEE MMMM', ?, 'en_US')", [date]),
            ("SELECT ObjcFormatAnsiDateUsingLocale('YYYY-ww', ?, 'en_US')", [date]),
            ("SELECT dbb_week(?, 'en_US')", [date]),
            ("SELECT dbb_week_start(?, 'de_DE')", [date]),
            ("SELECT dbb_align(?, 'week', 'en_US', 'end')", [date]),
            ("SELECT dbb_align(?, 'year', 'ru_RU', 'start')", [date]),
            ("SELECT ObjcGetYearAndQuarterUsingLocale(?, 'en_US')", [date]),
            ("SELECT ObjcGetYearAndHalfYearUsingLocale(?, 'en_US', 'H1 %@', 'H2 %@', 'long')", [date]),
        ]
    }
}
