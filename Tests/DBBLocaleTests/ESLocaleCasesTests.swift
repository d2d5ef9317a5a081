import DBBLocale
import DBBSQLite
import DBBTestSupport
import Testing

@Suite("ESLocale's cases, through SQL")
struct ESLocaleCasesTests {
    @Test("the seed's example: Sunday 2011-01-02 is in week 2 of 2011 in en_US, spaces trimmed")
    func seedExample() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(
            try database.text("SELECT ObjcFormatAnsiDateUsingLocale('YYYY-ww', '2011-01-02 ', ' en_US ')") == "2011-02")
        #expect(try database.text("SELECT dbb_format_date('YYYY-ww', '2011-01-02', 'en_US')") == "2011-02")
        #expect(try database.text("SELECT dbb_week('2011-01-02', 'en_US')") == "2011-02")
        #expect(try database.text("SELECT dbb_week('2011-01-01', 'en_US')") == "2011-01")
        // SQLite's own %W starts weeks on Monday: the disagreement the seed describes.
        #expect(try database.text("SELECT strftime('%Y-%W', '2011-01-02')") == "2011-00")
    }

    @Test("current ICU gives ru_RU 4-day first weeks: 2011-01-02 is in week 52 of 2010")
    func russianWeeks() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_week('2011-01-02', 'ru_RU')") == "2010-52")
        #expect(try database.text("SELECT dbb_week('2011-01-03', 'ru_RU')") == "2011-01")
        #expect(try database.text("SELECT dbb_format_date('YYYY-ww', '2011-01-02', 'ru_RU')") == "2010-52")
    }

    @Test(
        "quarters",
        arguments: [
            ("2011-01-01", "Q1 '11"), ("2011-03-31", "Q1 '11"), ("2011-04-01", "Q2 '11"),
            ("2011-09-30", "Q3 '11"), ("2011-12-31", "Q4 '11"), ("2009-07-15", "Q3 '09"),
        ])
    func quarters(date: String, expected: String) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT ObjcGetYearAndQuarterUsingLocale(?, 'en_US')", [.text(date)]) == expected)
    }

    @Test("half-years with ESLocale's %@ formats, short and long years in any case")
    func halfYears() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let english = "SELECT ObjcGetYearAndHalfYearUsingLocale(?, 'en_US', 'H1 ''%@', 'H2 ''%@', ?)"
        #expect(try database.text(english, ["2011-06-30", "short"]) == "H1 '11")
        #expect(try database.text(english, ["2011-07-01", "short"]) == "H2 '11")
        #expect(try database.text(english, ["2002-12-31", "SHORT"]) == "H2 '02")
        #expect(try database.text(english, ["2011-01-01", "Long"]) == "H1 '2011")
        let japanese = "SELECT ObjcGetYearAndHalfYearUsingLocale(?, 'ja_JP', '%@ 年 上半期', '%@ 年 下半期', 'long')"
        #expect(try database.text(japanese, ["2011-06-30"]) == "2011 年 上半期")
        #expect(try database.text(japanese, ["1984-08-01"]) == "1984 年 下半期")
    }

    @Test(
        "half-year formats read as Objective-C's stringWithFormat: with the year: %% is %, other % sequences stay",
        arguments: [
            ("H1 %@", "H1 11"), ("%@ 50%%", "11 50%"), ("%%", "%"), ("%%%@%%", "%11%"), ("%%@", "%@"), ("%@%@", "1111"),
            ("100%", "100%"), ("%", "%"), ("%d %s %1$@ %", "%d %s %1$@ %"), ("% %@", "% 11"), ("%é%@", "%é11"),
            ("%%%", "%%"),
        ])
    func halfYearPercentSequences(format: String, expected: String) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(
            try database.text(
                "SELECT ObjcGetYearAndHalfYearUsingLocale('2011-03-01', 'en_US', ?, 'H2', 'short')",
                [.text(format)]) == expected)
        #expect(
            try database.text(
                "SELECT ObjcGetYearAndHalfYearUsingLocale('2011-09-01', 'en_US', 'H1', ?, 'short')",
                [.text(format)]) == expected)
    }

    @Test("an empty result is NULL, as ESLocale gave: an empty format, an empty h1Format or h2Format")
    func emptyResults() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_format_date('', '2011-01-02', 'en_US')") == "NULL")
        #expect(try database.text("SELECT ObjcFormatAnsiDateUsingLocale('', '2011-01-02', 'en_US')") == "NULL")
        #expect(
            try database.text("SELECT ObjcFormatAnsiDateUsingLocale('', '1500-01-02', 'ar_SA')") == "NULL",
            "through DateFormatter")
        #expect(
            try database.text("SELECT dbb_format_date('''''', '2011-01-02', 'en_US')") == "'",
            "'' is a quote, not empty")
        let halfYear = "SELECT ObjcGetYearAndHalfYearUsingLocale(?, 'en_US', '', 'H2 %@', 'long')"
        #expect(try database.text(halfYear, ["2011-06-30"]) == "NULL")
        #expect(try database.text(halfYear, ["2011-07-01"]) == "H2 2011")
        #expect(
            try database.text("SELECT ObjcGetYearAndHalfYearUsingLocale('2011-07-01', 'en_US', 'H1', '', 'long')")
                == "NULL")
    }

    @Test("week alignment: en_US weeks start on Sunday, ru_RU weeks on Monday")
    func weekAlignment() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_align('2011-01-01', 'week', 'en_US', 'start')") == "2010-12-26")
        #expect(try database.text("SELECT dbb_align('2011-01-01', 'week', 'en_US', 'end')") == "2011-01-01")
        #expect(try database.text("SELECT dbb_week_start('2011-01-01', 'en_US')") == "2010-12-26")
        #expect(try database.text("SELECT dbb_align('2012-05-22', 'week', 'ru_RU', 'start')") == "2012-05-21")
        #expect(try database.text("SELECT dbb_align('2012-05-22', 'week', 'ru_RU', 'end')") == "2012-05-27")
        #expect(try database.text("SELECT dbb_week_start('2012-05-22', 'ru_RU')") == "2012-05-21")
        #expect(try database.text("SELECT dbb_week_start('2012-05-22', 'fa_IR')") == "2012-05-19", "a Saturday")
    }

    @Test(
        "month, quarter, half-year and year alignment at both edges",
        arguments: [
            ("day", "2012-02-15", "2012-02-15"), ("month", "2012-02-01", "2012-02-29"),
            ("quarter", "2012-01-01", "2012-03-31"), ("halfyear", "2012-01-01", "2012-06-30"),
            ("half-year", "2012-01-01", "2012-06-30"), ("YEAR", "2012-01-01", "2012-12-31"),
        ])
    func periodAlignment(unit: String, start: String, end: String) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let sql = "SELECT dbb_align('2012-02-15', ?, 'de_DE', ?)"
        #expect(try database.text(sql, [.text(unit), "start"]) == start)
        #expect(try database.text(sql, [.text(unit), "END"]) == end)
        #expect(try database.text("SELECT dbb_align('2011-11-30', 'halfyear', 'en_US', 'end')") == "2011-12-31")
        #expect(try database.text("SELECT dbb_align('2011-08-10', 'quarter', 'en_US', 'start')") == "2011-07-01")
    }

    @Test(
        "range alignment picks ESLocale's resolution and widens to whole periods",
        arguments: [
            ("2012-05-02", "2012-05-24", DBBDateUnit.week, "2012-04-29", "2012-05-26"),
            ("2011-10-02", "2012-03-30", .quarter, "2011-10-01", "2012-03-31"),
            ("2011-10-01", "2012-04-01", .halfYear, "2011-07-01", "2012-06-30"),
            ("2010-05-20", "2011-05-15", .halfYear, "2010-01-01", "2011-06-30"),
            ("2010-05-20", "2011-05-19", .year, "2010-01-01", "2011-12-31"),
            ("2012-01-31", "2012-02-28", .month, "2012-01-01", "2012-02-29"),
            ("2012-05-02", "2012-05-04", .day, "2012-05-02", "2012-05-04"),
        ])
    func rangeAlignment(start: String, end: String, unit: DBBDateUnit, alignedStart: String, alignedEnd: String) throws
    {
        let calendar = try DBBLocaleCalendar(localeIdentifier: "en_US")
        let result = calendar.alignRange(from: try day(start), to: try day(end))
        #expect(result.resolution == unit)
        #expect(result.start.description == alignedStart)
        #expect(result.end.description == alignedEnd)
    }

    private func day(_ text: String) throws -> DBBDay {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return try #require(DBBDay(year: parts[0], month: parts[1], day: parts[2]))
    }
}
