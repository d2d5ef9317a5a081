import DBBLocale
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("dbb_date and dbb_unixepoch: table-object dates for SQLite's own date functions")
struct StoredDateTests {
    /// Seconds since 2001 of 0001-01-01 00:00:00 and of 10000-01-01 00:00:00 (proleptic Gregorian, UTC).
    static let firstInstant = -63_113_904_000.0
    static let endInstant = 252_423_993_600.0

    /// Seconds since 2001 to compare on: whole, fractional, negative (before 2001), both ends of
    /// the years 1...9999, and random ones between.
    static func samples() -> [Double] {
        var random = SeededRandom(label: "StoredDateTests")
        var values: [Double] = [
            0, 1, -1, 0.25, -0.25, 0.5, 0.0005, 0.0015, 0.999, 0.9995, 59.9996, -0.0004, 315_582_300, 315_582_300.25,
            -978_307_200, -978_307_200.5, firstInstant, firstInstant + 0.001, firstInstant + 86_399.5,
            endInstant - 1, endInstant - 0.001, endInstant - 0.5, endInstant - 86_400,
        ]
        for _ in 0..<3_000 {
            let whole = Double(Int64(random.next(upTo: UInt64(endInstant - firstInstant)))) + firstInstant
            let fraction = Double(random.next(upTo: 4)) * 0.25 + Double(random.next(upTo: 1000)) / 1000
            values.append(random.next(upTo: 3) == 0 ? whole : min(whole + fraction, endInstant - 0.001))
        }
        return values
    }

    @Test("on a real file, dbb_date equals datetime(col + 978307200, 'unixepoch'), fraction included")
    func equalsSQLite() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let db = database.connection
        try db.execute("CREATE TABLE Event (startTime Real)")
        let insert = try db.cachedStatement("INSERT INTO Event (startTime) VALUES (?)")
        for value in Self.samples() {
            try insert.bind(value, at: 1)
            try insert.execute()
        }
        let rows = try db.fetchAll(
            """
            SELECT startTime, dbb_date(startTime), datetime(startTime + 978307200, 'unixepoch'),
                   strftime('%Y-%m-%d %H:%M:%f', startTime + 978307200, 'unixepoch'),
                   date(dbb_date(startTime)) = date(startTime + 978307200, 'unixepoch'),
                   strftime('%Y-%W %j %s', dbb_unixepoch(startTime), 'unixepoch')
                       = strftime('%Y-%W %j %s', startTime + 978307200, 'unixepoch'),
                   datetime(dbb_date(startTime)) = datetime(startTime + 978307200, 'unixepoch'),
                   abs(julianday(dbb_date(startTime)) - (startTime / 86400.0 + 2451910.5)) < 1e-7,
                   startTime < (julianday('0400-03-01') - 2451910.5) * 86400
            FROM Event
            """
        ) { row in
            (
                value: row.double(at: 0), ours: row.string(at: 1), whole: row.string(at: 2),
                fraction: row.string(at: 3),
                sameDay: row.int64(at: 4), sameWeek: row.int64(at: 5), readBack: row.int64(at: 6),
                sameJulianDay: row.int64(at: 7), beforeYear400: row.int64(at: 8)
            )
        }
        #expect(rows.count > 3_000)
        for row in rows {
            // SQLite's day-number-to-date step truncates toward zero where it should floor, so
            // before 0400-03-01 it shows the 29th of February of 100, 200 and 300 (not leap years
            // in the proleptic Gregorian calendar) for the 1st of March. There the text of
            // dbb_date is checked by SQLite's other direction, text to day number, which is right.
            if row.beforeYear400 == 1 {
                #expect(row.sameJulianDay == 1, "\(row.value): \(String(describing: row.ours))")
                continue
            }
            let ours = try #require(row.ours, "\(row.value)")
            let expected = try #require(ours.contains(".") ? row.fraction : row.whole)
            #expect(ours == expected, "\(row.value)")
            #expect(
                ours.contains(".") || row.fraction?.hasSuffix(".000") == true,
                "\(row.value): \(String(describing: row.fraction))")
            #expect(row.sameDay == 1 && row.sameWeek == 1 && row.readBack == 1, "\(row.value)")
        }
    }

    @Test("examples: the reference date, fractions, before 2001, the ends of years 1 and 9999")
    func examples() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let cases: [(SQLiteValue, String)] = [
            (.real(0), "2001-01-01 00:00:00"), (.integer(315_668_700), "2011-01-02 13:45:00"),
            (.real(315_668_700.25), "2011-01-02 13:45:00.250"), (.real(-1.5), "2000-12-31 23:59:58.500"),
            (.real(Self.firstInstant), "0001-01-01 00:00:00"),
            (.real(Self.endInstant - 0.001), "9999-12-31 23:59:59.999"),
        ]
        for (value, text) in cases {
            #expect(try database.text("SELECT dbb_date(?)", [value]) == text)
        }
        #expect(try database.text("SELECT dbb_unixepoch(0.5)") == "978307200.5")
        #expect(try database.text("SELECT strftime('%Y-%W', dbb_unixepoch(315668700), 'unixepoch')") == "2011-00")
        #expect(
            try database.text("SELECT dbb_date(?)", [.real(Self.endInstant - 0.0004)]) == "NULL",
            "rounded to the millisecond it is 10000-01-01, which SQLite refuses too")
    }

    @Test("NULL, no date, and instants outside the years 1...9999 give NULL")
    func nulls() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let values: [SQLiteValue] = [
            .null, .real(.nan), .real(.infinity), .real(-.infinity), .real(1e300), .real(Self.firstInstant - 0.001),
            .real(Self.endInstant), .integer(.max), .integer(.min), "not a date", "2011-02-30", "",
        ]
        for value in values {
            #expect(try database.text("SELECT dbb_date(?)", [value]) == "NULL", "\(value)")
            #expect(try database.text("SELECT dbb_unixepoch(?)", [value]) == "NULL", "\(value)")
        }
    }

    @Test("text dates are read as the other functions read them, moved to UTC, and written back in one form")
    func textDates() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let cases: [(String, String)] = [
            ("2011-01-02", "2011-01-02 00:00:00"), (" 2011-01-02 13:45 ", "2011-01-02 13:45:00"),
            ("2011-01-02T13:45:00.25Z", "2011-01-02 13:45:00.250"),
            ("2011-01-02T13:45:00+03:00", "2011-01-02 10:45:00"),
            ("0001-01-01", "0001-01-01 00:00:00"), ("1500-03-01 12:00", "1500-03-01 12:00:00"),
            ("9999-12-31 23:59:59.999", "9999-12-31 23:59:59.999"),
        ]
        for (input, output) in cases {
            #expect(try database.text("SELECT dbb_date(?)", [.text(input)]) == output, "\(input)")
            #expect(
                try database.text(
                    "SELECT datetime(dbb_unixepoch(?), 'unixepoch') = datetime(dbb_date(?))",
                    [.text(input), .text(input)]) == "1", "\(input)")
            if input.trimmingCharacters(in: .whitespaces) == input {
                #expect(
                    try database.text(
                        "SELECT abs(dbb_unixepoch(?) - (julianday(?) - 2440587.5) * 86400) < 0.001",
                        [.text(input), .text(input)]) == "1", "SQLite reads \(input) alike")
            }
        }
        #expect(try database.text("SELECT dbb_date('2011-01-01T00:30:00+01:00')") == "2010-12-31 23:30:00")
        #expect(try database.text("SELECT dbb_date('0001-01-01T00:30:00+01:00')") == "NULL", "before year 1 in UTC")
    }
}
