import DBBLocale
import DBBSQLite
import DBBTestSupport
import Testing

@Suite("Bad arguments: SQL errors that name the function and the argument")
struct BadInputTests {
    /// The whole message of the error `sql` raises.
    private func message(_ database: SQLiteTestDatabase, _ sql: String, _ arguments: [SQLiteValue] = []) -> String? {
        do {
            _ = try database.connection.fetchValue(sql, arguments, as: String.self)
            return nil
        } catch let error as SQLiteError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test(
        "a NULL argument other than a dbb_ function's date is refused, naming its position and name",
        arguments: [
            ("SELECT dbb_format_date(NULL, '2011-01-01', 'en_US')", "dbb_format_date: argument 1 (format) is NULL"),
            (
                "SELECT ObjcFormatAnsiDateUsingLocale('YYYY', NULL, 'en_US')",
                "ObjcFormatAnsiDateUsingLocale: argument 2 (date) is NULL"
            ),
            (
                "SELECT ObjcGetYearAndQuarterUsingLocale(NULL, 'en_US')",
                "ObjcGetYearAndQuarterUsingLocale: argument 1 (date) is NULL"
            ),
            (
                "SELECT ObjcGetYearAndHalfYearUsingLocale(NULL, 'en_US', 'H1', 'H2', 'short')",
                "ObjcGetYearAndHalfYearUsingLocale: argument 1 (date) is NULL"
            ),
            ("SELECT dbb_format_date('YYYY', '2011-01-01', NULL)", "dbb_format_date: argument 3 (locale) is NULL"),
            ("SELECT dbb_format_date('YYYY', NULL, NULL)", "dbb_format_date: argument 3 (locale) is NULL"),
            ("SELECT dbb_week('2011-01-01', NULL)", "dbb_week: argument 2 (locale) is NULL"),
            ("SELECT dbb_week(NULL, NULL)", "dbb_week: argument 2 (locale) is NULL"),
            ("SELECT dbb_week_start(NULL, NULL)", "dbb_week_start: argument 2 (locale) is NULL"),
            ("SELECT dbb_align('2011-01-01', NULL, 'en_US', 'start')", "dbb_align: argument 2 (unit) is NULL"),
            ("SELECT dbb_align(NULL, 'week', 'en_US', NULL)", "dbb_align: argument 4 (edge) is NULL"),
            ("SELECT dbb_align('2011-01-01', 'week', 'en_US', NULL)", "dbb_align: argument 4 (edge) is NULL"),
            (
                "SELECT ObjcGetYearAndQuarterUsingLocale('2011-01-01', NULL)",
                "ObjcGetYearAndQuarterUsingLocale: argument 2 (locale) is NULL"
            ),
            (
                "SELECT ObjcGetYearAndHalfYearUsingLocale('2011-01-01', 'en_US', NULL, 'H2', 'short')",
                "ObjcGetYearAndHalfYearUsingLocale: argument 3 (h1Format) is NULL"
            ),
            (
                "SELECT ObjcGetYearAndHalfYearUsingLocale('2011-01-01', 'en_US', 'H1', 'H2', NULL)",
                "ObjcGetYearAndHalfYearUsingLocale: argument 5 (yearMode) is NULL"
            ),
        ])
    func nullArguments(sql: String, expected: String) throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(message(database, sql) == expected)
    }

    @Test("unknown locales, units, edges and year modes are refused with the culprit quoted")
    func unknownValues() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let locale = "is not an available locale identifier (e.g. 'en_US', 'ru_RU')"
        #expect(
            message(database, "SELECT dbb_week('2011-01-01', 'xx_YY')")
                == "dbb_week: argument 2 (locale) 'xx_YY' \(locale)")
        #expect(
            message(database, "SELECT dbb_format_date('w', '2011-01-01', '')")
                == "dbb_format_date: argument 3 (locale) '' \(locale)")
        #expect(
            message(database, "SELECT ObjcGetYearAndQuarterUsingLocale('2011-01-01', 'english')")
                == "ObjcGetYearAndQuarterUsingLocale: argument 2 (locale) 'english' \(locale)")
        #expect(
            message(database, "SELECT dbb_align('2011-01-01', 'fortnight', 'en_US', 'start')")
                == "dbb_align: argument 2 (unit) 'fortnight' is not day, week, month, quarter, halfyear or year")
        #expect(
            message(database, "SELECT dbb_align('2011-01-01', 'week', 'en_US', 'middle')")
                == "dbb_align: argument 4 (edge) 'middle' is not start or end")
        #expect(
            message(database, "SELECT ObjcGetYearAndHalfYearUsingLocale('2011-01-01', 'en_US', 'H1', 'H2', 'medium')")
                == "ObjcGetYearAndHalfYearUsingLocale: argument 5 (yearMode) 'medium' is not short or long")
        // The checks do not depend on the date parsing: a bad locale is an error even for a bad date.
        #expect(
            message(database, "SELECT dbb_week('not a date', 'xx')") == "dbb_week: argument 2 (locale) 'xx' \(locale)")
        #expect(message(database, "SELECT dbb_week(NULL, 'xx')") == "dbb_week: argument 2 (locale) 'xx' \(locale)")
        #expect(
            message(database, "SELECT dbb_align(NULL, 'week', 'en_US', 'middle')")
                == "dbb_align: argument 4 (edge) 'middle' is not start or end")
    }

    @Test("a long argument is quoted by its first 80 characters, an ellipsis and its length, in every message")
    func longArguments() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let long = String(repeating: "x", count: 19_990) + "_Ω😀_end"
        let shown = "'" + String(repeating: "x", count: 80) + "…' (19997 characters)"
        let cases = [
            (
                "SELECT dbb_week('2011-01-01', ?)",
                "dbb_week: argument 2 (locale) \(shown) is not an available locale identifier (e.g. 'en_US', 'ru_RU')"
            ),
            (
                "SELECT ObjcFormatAnsiDateUsingLocale('w', '2011-01-01', ?)",
                "ObjcFormatAnsiDateUsingLocale: argument 3 (locale) \(shown) is not an available locale identifier (e.g. 'en_US', 'ru_RU')"
            ),
            (
                "SELECT dbb_align('2011-01-01', ?, 'en_US', 'start')",
                "dbb_align: argument 2 (unit) \(shown) is not day, week, month, quarter, halfyear or year"
            ),
            (
                "SELECT dbb_align('2011-01-01', 'week', 'en_US', ?)",
                "dbb_align: argument 4 (edge) \(shown) is not start or end"
            ),
            (
                "SELECT ObjcGetYearAndHalfYearUsingLocale('2011-01-01', 'en_US', 'H1', 'H2', ?)",
                "ObjcGetYearAndHalfYearUsingLocale: argument 5 (yearMode) \(shown) is not short or long"
            ),
        ]
        for (sql, expected) in cases {
            let actual = try #require(message(database, sql, [.text(long)]))
            #expect(actual == expected)
            #expect(actual.count < 250)
        }
        // Exactly 80 characters are quoted whole; 81 are cut. Characters are Unicode scalars.
        let eighty = String(repeating: "é", count: 80)
        #expect(
            message(database, "SELECT dbb_align('2011-01-01', ?, 'en_US', 'start')", [.text(eighty)])
                == "dbb_align: argument 2 (unit) '\(eighty)' is not day, week, month, quarter, halfyear or year")
        #expect(
            message(database, "SELECT dbb_align('2011-01-01', ?, 'en_US', 'start')", [.text(eighty + "😀")])
                == "dbb_align: argument 2 (unit) '\(eighty)…' (81 characters) is not day, week, month, quarter, halfyear or year"
        )
        #expect(DBBLocaleError.unknownLocale(long).description.hasPrefix(shown + " is not"))
    }

    @Test("identifiers are normalized: en-US, EN_us and keywords are accepted")
    func normalizedIdentifiers() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        for identifier in ["en-US", "EN_us", " en_US\n", "en_US_POSIX", "sr_Latn_RS", "ru"] {
            #expect(message(database, "SELECT dbb_week('2011-01-02', '\(identifier)')") == nil, "\(identifier)")
        }
        #expect(try database.text("SELECT dbb_week('2011-01-02', 'en-US')") == "2011-02")
        #expect(try database.text("SELECT dbb_week_start('2011-01-05', 'en_US@fw=mon')") == "2011-01-03")
    }

    @Test("a wrong argument count is refused by SQLite when the statement is prepared")
    func argumentCounts() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        for (name, count) in DBBLocaleFunctions.signatures {
            let arguments = Array(repeating: "'2011-01-01'", count: count + 1).joined(separator: ", ")
            #expect {
                _ = try database.connection.prepare("SELECT \(name)(\(arguments))")
            } throws: { error in
                (error as? SQLiteError)?.message == "wrong number of arguments to function \(name)()"
            }
        }
    }

    @Test("after an error the connection and the functions keep working")
    func recovery() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        #expect(message(database, "SELECT dbb_week('2011-01-01', 'xx_YY')") != nil)
        #expect(try database.text("SELECT dbb_week('2011-01-02', 'en_US')") == "2011-02")
    }
}
