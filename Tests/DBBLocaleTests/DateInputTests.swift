import DBBLocale
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Date arguments: text forms, numbers, and what does not parse")
struct DateInputTests {
    @Test(
        "accepted text forms give the UTC day",
        arguments: [
            ("2011-01-02", "2011-01-02"),
            ("  2011-01-02  ", "2011-01-02"),
            ("2011-01-02 23:59", "2011-01-02"),
            ("2011-01-02 23:59:59", "2011-01-02"),
            ("2011-01-02 23:59:59.999", "2011-01-02"),
            ("2011-01-02T10:00:00Z", "2011-01-02"),
            ("2011-01-02T23:30:00-02:00", "2011-01-03"),
            ("2011-01-02T01:30:00+03:00", "2011-01-01"),
            ("2011-01-02T01:30:00+0300", "2011-01-01"),
            ("2011-01-02T01:30+03", "2011-01-01"),
            ("2012-02-29", "2012-02-29"),
        ])
    func textForms(text: String, day: String) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_align(?, 'day', 'en_US', 'start')", [.text(text)]) == day)
        #expect(try database.text("SELECT dbb_format_date('yyyy-MM-dd', ?, 'en_US')", [.text(text)]) == day)
    }

    @Test("a format writes the day of the nearest millisecond, as DateFormatter does, with or without a time field")
    func formatRoundsToTheMillisecond() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        for (date, day) in [
            ("'2011-01-02 23:59:59.9995'", "2011-01-03"), ("'2011-01-02 23:59:59.9994'", "2011-01-02"),
            ("315705599.9995", "2011-01-03"), ("315705599.999", "2011-01-02"),
        ] {
            let pattern = try database.text("SELECT dbb_format_date('yyyy-MM-dd', \(date), 'en_US')")
            let withTime = try database.text("SELECT dbb_format_date('yyyy-MM-dd HH:mm:ss.SSS', \(date), 'en_US')")
            #expect(pattern == day, "\(date)")
            #expect(withTime.hasPrefix(day), "\(date): \(withTime)")
        }
    }

    @Test(
        "text that is not a date gives NULL",
        arguments: [
            "", "   ", "2011", "2011-1-2", "11-01-02", "2011-13-01", "2011-02-29", "2011-00-10", "2011-01-32",
            "2011-01-02 24:00", "2011-01-02 10:60", "2011-01-02T10", "2011-01-02 10:00:00 junk",
            "2011/01/02", "0000-01-01", "yesterday", "2011-01-02T10:00+3:00", "٢٠١١-٠١-٠٢",
        ])
    func unparseable(text: String) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        for sql in [
            "SELECT dbb_week(?, 'en_US')", "SELECT dbb_format_date('yyyy', ?, 'en_US')",
            "SELECT dbb_week_start(?, 'en_US')", "SELECT ObjcGetYearAndQuarterUsingLocale(?, 'en_US')",
        ] {
            #expect(try database.text(sql, [.text(text)]) == "NULL", "\(sql) with '\(text)'")
        }
    }

    @Test("numbers are seconds since 2001-01-01 UTC, as table objects store a Date")
    func numbers() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let sunday = try #require(DBBDay(year: 2011, month: 1, day: 2)).date
        let seconds = sunday.timeIntervalSinceReferenceDate
        #expect(try database.text("SELECT dbb_week(?, 'en_US')", [.real(seconds)]) == "2011-02")
        #expect(try database.text("SELECT dbb_week(?, 'en_US')", [.integer(Int64(seconds) + 86_399)]) == "2011-02")
        #expect(try database.text("SELECT dbb_format_date('yyyy-MM-dd', 0, 'en_US')") == "2001-01-01")
        #expect(try database.text("SELECT dbb_format_date('yyyy-MM-dd', -0.5, 'en_US')") == "2000-12-31")
        #expect(try database.text("SELECT dbb_week(1e300, 'en_US')") == "NULL")
        #expect(try database.text("SELECT dbb_week(-1e12, 'en_US')") == "NULL")

        // A table-object date column: REAL seconds since 2001.
        let db = database.connection
        try db.execute("CREATE TABLE meeting (startTime REAL)")
        try db.execute("INSERT INTO meeting VALUES (?)", [.real(seconds)])
        #expect(try db.fetchValue("SELECT dbb_week(startTime, 'en_US') FROM meeting", as: String.self) == "2011-02")
    }

    @Test("dates before 1600 go through Foundation's calendar and still agree with DateFormatter")
    func earlyDates() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text("SELECT dbb_format_date('yyyy-MM-dd', '1500-06-01', 'en_US')") == "1500-06-01")
        #expect(try database.text("SELECT dbb_align('1500-06-01', 'quarter', 'en_US', 'end')") == "1500-06-30")
        let formatter = DateFormatter()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.locale = Locale(identifier: "en_US")
        formatter.calendar = calendar
        formatter.locale = Locale(identifier: "en_US")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "YYYY-ww"
        let date = try #require(calendar.date(from: DateComponents(year: 1500, month: 6, day: 1)))
        #expect(try database.text("SELECT dbb_week('1500-06-01', 'en_US')") == formatter.string(from: date))
    }
}
