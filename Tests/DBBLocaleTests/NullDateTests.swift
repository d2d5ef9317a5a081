import DBBLocale
import DBBSQLite
import DBBTestSupport
import Testing

@Suite("NULL dates: NULL from the dbb_ functions, ESLocale's error from ESLocale's names")
struct NullDateTests {
    @Test(
        "a NULL date gives NULL in every dbb_ function",
        arguments: [
            "SELECT dbb_week(?, 'en_US')", "SELECT dbb_week_start(?, 'ru_RU')",
            "SELECT dbb_format_date('YYYY-ww', ?, 'ar_SA')",
            "SELECT dbb_format_date('EEEE', ?, 'en_US')", "SELECT dbb_align(?, 'quarter', 'en_US', 'end')",
        ])
    func nullDate(sql: String) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(try database.text(sql, [.null]) == "NULL")
        // SQLite has no NaN: a NaN bound is stored and passed as NULL.
        #expect(try database.text(sql, [.real(.nan)]) == "NULL")
    }

    /// Rows of `Usage(Value, Date)`: text dates, REAL seconds since 2001 and NULLs.
    private func usage() throws -> SQLiteTestDatabase {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let db = database.connection
        try db.execute("CREATE TABLE Usage (Value INTEGER, Date DATETIME)")
        let sunday = try #require(DBBDay(year: 2011, month: 1, day: 2)).date.timeIntervalSinceReferenceDate
        let rows: [(Int64, SQLiteValue)] = [
            (1, "2011-01-01"), (2, nil), (4, "2011-01-02"), (8, .real(sunday + 3600)), (16, nil), (32, "9999-12-31"),
            (64, "not a date"),
        ]
        for (value, date) in rows { try db.execute("INSERT INTO Usage VALUES (?, ?)", [.integer(value), date]) }
        return database
    }

    @Test("GROUP BY dbb_week over a column with NULLs, on a database file: the NULL dates form one group")
    func groupByOverNulls() throws {
        let database = try usage()
        let weeks = try database.connection.fetchAll(
            """
            SELECT dbb_week(Date, 'en_US') AS week, SUM(Value) FROM Usage GROUP BY week ORDER BY week
            """
        ) { "\($0.string(at: 0) ?? "NULL") \($0.int(at: 1))" }
        // NULL sorts first; the unparseable text joins the NULL dates; 10000-01 sorts as text.
        #expect(weeks == ["NULL 82", "10000-01 32", "2011-01 1", "2011-02 12"])
        let starts = try database.connection.fetchAll(
            """
            SELECT dbb_week_start(Date, 'ru_RU') AS start, COUNT(*) FROM Usage GROUP BY start ORDER BY start
            """
        ) { "\($0.string(at: 0) ?? "NULL") \($0.int(at: 1))" }
        #expect(starts == ["NULL 3", "2010-12-27 3", "9999-12-27 1"])
        let quarters = try database.connection.fetchAll(
            """
            SELECT dbb_align(Date, 'quarter', 'en_US', 'end') AS q, dbb_format_date('QQQ yyyy', Date, 'en_US'), COUNT(*)
            FROM Usage GROUP BY q ORDER BY q
            """
        ) { "\($0.string(at: 0) ?? "NULL") \($0.string(at: 1) ?? "NULL") \($0.int(at: 2))" }
        #expect(quarters == ["NULL NULL 3", "2011-03-31 Q1 2011 3", "9999-12-31 Q4 9999 1"])
    }

    @Test("ESLocale's functions over the same column stop at the first NULL date with ESLocale's error")
    func esLocaleNamesRefuseNull() throws {
        let database = try usage()
        for (sql, expected) in [
            (
                "SELECT ObjcFormatAnsiDateUsingLocale('YYYY-ww', Date, 'en_US') FROM Usage",
                "ObjcFormatAnsiDateUsingLocale: argument 2 (date) is NULL"
            ),
            (
                "SELECT ObjcGetYearAndQuarterUsingLocale(Date, 'en_US') FROM Usage",
                "ObjcGetYearAndQuarterUsingLocale: argument 1 (date) is NULL"
            ),
            (
                "SELECT ObjcGetYearAndHalfYearUsingLocale(Date, 'en_US', 'H1 %@', 'H2 %@', 'short') FROM Usage",
                "ObjcGetYearAndHalfYearUsingLocale: argument 1 (date) is NULL"
            ),
        ] {
            #expect {
                _ = try database.connection.fetchAll(sql) { $0.string(at: 0) }
            } throws: { error in
                (error as? SQLiteError)?.message == expected
            }
        }
        #expect(
            try database.text("SELECT ObjcGetYearAndQuarterUsingLocale(Date, 'en_US') FROM Usage WHERE Value = 32")
                == "Q4 '99")
    }
}
