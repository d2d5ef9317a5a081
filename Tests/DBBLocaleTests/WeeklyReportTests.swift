import DBBLocale
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("The seed's weekly 'value per visit' report across a year end")
struct WeeklyReportTests {
    /// 21 days from Sunday 2010-12-26 to Saturday 2011-01-15; day i has Value i+1 and
    /// Visits 1 (even i) or 2 (odd i). `asNumbers` stores Date as seconds since 2001 (REAL).
    private func makeUsage(asNumbers: Bool) throws -> SQLiteTestDatabase {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let db = database.connection
        try db.execute("CREATE TABLE Usage (FacetId VARCHAR, Value INTEGER, Visits INTEGER, Date DATETIME)")
        let first = try #require(DBBDay(year: 2010, month: 12, day: 26))
        try db.transaction {
            for i in 0..<21 {
                let day = first.adding(days: i)
                let date: SQLiteValue =
                    asNumbers ? .real(day.date.timeIntervalSinceReferenceDate) : .text(day.description)
                try db.execute(
                    "INSERT INTO Usage VALUES (?, ?, ?, ?)",
                    [.text(i % 3 == 0 ? "search" : "browse"), .integer(Int64(i + 1)), .integer(Int64(1 + i % 2)), date])
            }
        }
        return database
    }

    private func report(_ database: SQLiteTestDatabase, week: String) throws -> [String] {
        try database.connection.fetchAll(
            """
            SELECT \(week) AS week, SUM(Value), SUM(Visits), SUM(Value) / SUM(Visits)
            FROM Usage WHERE Date BETWEEN ? AND ? GROUP BY week ORDER BY week
            """, [.text("2010-12-26"), .text("2011-01-15")]
        ) {
            "\($0.string(at: 0)!) \($0.int(at: 1))/\($0.int(at: 2)) = \($0.int(at: 3))"
        }
    }

    @Test("en_US weeks start on Sunday: the week of New Year is week 1 of 2011")
    func american() throws {
        let database = try makeUsage(asNumbers: false)
        #expect(
            try report(database, week: "dbb_week(Date, 'en_US')") == [
                "2011-01 28/10 = 2", "2011-02 77/11 = 7", "2011-03 126/10 = 12",
            ])
        #expect(
            try report(database, week: "ObjcFormatAnsiDateUsingLocale('YYYY-ww', Date, 'en_US')")
                == (try report(database, week: "dbb_week(Date, 'en_US')")))
    }

    @Test("ru_RU weeks start on Monday with 4-day first weeks: New Year falls in 2010-52")
    func russian() throws {
        let database = try makeUsage(asNumbers: false)
        #expect(
            try report(database, week: "dbb_week(Date, 'ru_RU')") == [
                "2010-51 1/1 = 1", "2010-52 35/11 = 3", "2011-01 84/10 = 8", "2011-02 111/9 = 12",
            ])
    }

    @Test("SQLite's strftime('%Y-%W') splits the New Year week in two, as the seed complains")
    func strftimeContrast() throws {
        let database = try makeUsage(asNumbers: false)
        #expect(
            try report(database, week: "strftime('%Y-%W', Date)") == [
                "2010-51 1/1 = 1", "2010-52 20/8 = 2", "2011-00 15/3 = 5", "2011-01 84/10 = 8", "2011-02 111/9 = 12",
            ])
    }

    @Test("the same report over a table-object date column (REAL seconds since 2001)")
    func numericDates() throws {
        let database = try makeUsage(asNumbers: true)
        let rows = try database.connection.fetchAll(
            """
            SELECT dbb_week(Date, 'en_US') AS week, SUM(Value), SUM(Visits) FROM Usage GROUP BY week ORDER BY week
            """
        ) { "\($0.string(at: 0)!) \($0.int(at: 1))/\($0.int(at: 2))" }
        #expect(rows == ["2011-01 28/10", "2011-02 77/11", "2011-03 126/10"])
        let starts = try database.connection.fetchAll(
            """
            SELECT DISTINCT dbb_week_start(Date, 'ru_RU') FROM Usage ORDER BY 1
            """
        ) { $0.string(at: 0)! }
        #expect(starts == ["2010-12-20", "2010-12-27", "2011-01-03", "2011-01-10"])
    }
}
