#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBLocale
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// The locale functions installed in PostgreSQL against the SQLite functions, function by
/// function: the same results for every locale Foundation knows, on every kind of year boundary,
/// for numeric and text dates, and the same NULLs and errors.
@Suite("Locale functions on PostgreSQL equal the SQLite functions")
struct LocaleFunctionsDifferentialTests {
    /// The years whose last week, and the next year's first, the tests cover: 1970–2030, which
    /// holds each of the 14 kinds of year boundary (the weekday of January 1 and whether the year
    /// before is a leap year) at least twice, and the century years around 1900, 2000 and 2100
    /// (not leap, leap, not leap), where the two-digit year wraps.
    static let boundaryYears: [Int] = [1899, 1900, 1901] + Array(1970..<2030) + [2098, 2099, 2100]

    /// Seconds since 2001: every December 25 – January 7 after each of ``boundaryYears`` at a
    /// time of day that moves with the day (midnight, just before midnight, noon), their leap
    /// days, and seeded random instants of 1900–2100.
    static let dates: [Double] = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var dates: [Double] = []
        func add(_ year: Int, _ month: Int, _ day: Int, _ seconds: Double) {
            let midnight = calendar.date(from: DateComponents(year: year, month: month, day: day))!
            dates.append(midnight.timeIntervalSinceReferenceDate + seconds)
        }
        var kinds: Set<[Int]> = []
        for year in boundaryYears {
            for day in 25...31 { add(year, 12, day, [0, 86_399.999, 43_200][day % 3]) }
            for day in 1...7 { add(year + 1, 1, day, [0, 86_399.999, 43_200][day % 3]) }
            let january = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
            kinds.insert([calendar.component(.weekday, from: january), isLeap(year) ? 1 : 0])
        }
        precondition(kinds.count == 14, "every kind of year boundary")
        for year in boundaryYears where isLeap(year) { add(year, 2, 29, 3_600) }
        precondition(dates.count == boundaryCount)
        var random = SeededRandom(seed: 16_2026)
        for _ in 0..<500 {
            add(
                Int(random.next(upTo: 201)) + 1900, Int(random.next(upTo: 12)) + 1, Int(random.next(upTo: 28)) + 1,
                Double(random.next(upTo: 86_400_000)) / 1000)
        }
        return dates
    }()

    /// The year-boundary days and leap days that ``dates`` starts with.
    static let boundaryCount = boundaryYears.count * 14 + boundaryYears.filter(isLeap).count

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// Text dates in every form the functions read, and some they do not.
    static let texts = [
        "2011-01-02", " 2011-01-02 ", "2011-01-02 13:45", "2011-01-02T13:45:00", "2011-01-02 23:59:59.9995",
        "2011-01-01T23:30:00-02:00", "2011-01-02T00:30:00+0300", "2011-01-02T00:30:00+03", "2011-01-02T00:30:00Z",
        "2012-02-29 12:00:00.25", "2010-12-31T23:59:59.123456789+14:00", "1999-12-31 00:00:00-14:00",
        "2011-02-29", "2011-13-01", "2011-01-02 24:00", "2011-01-02T10:00:00+15:00", "2011-01-02 ", "2011-1-2",
        "20110102", "2011-01-02T10:00:00+05:", "2011-01-02 10:00:60", "", "yesterday", "2011-01-02 10:00 Z",
        // The shapes the PostgreSQL function reads without its regular expression, valid and not.
        "2011-01-02 13:45:07", "2011-01-02 23:59:59.999", "2011-01-02T00:00:00.000", "2012-02-29 00:00:00",
        "2011-02-29 10:00:00", "2011-00-10", "0000-01-01", "2011-01-32", "2011-01-02 24:00:00", "2011-01-02T10:60:00",
        "2011-01-02 10:00:60.000", "2011-01-02 10:00:00.00", "2011-01-02X10:00:00", "2011/01/02",
    ]

    static let alignments = ["day", "week", "month", "quarter", "halfyear", "year"].flatMap { unit in
        ["start", "end"].map { (unit, $0) }
    }

    @Test("every locale × every kind of year boundary: week, week start, week alignment equal SQLite's")
    func everyLocale() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        let locales = try server.manager.query("SELECT identifier FROM dbb_locale_rules ORDER BY identifier")
            .map { try $0.decode(String.self, at: 0) }
        #expect(locales.count > 500 && locales.contains("ru_RU") && locales.contains("en_US"))
        for manager in [sqlite, server.manager] { try Self.fill(manager, boundariesOnly: true) }

        // The server runs every locale. The SQLite functions see a locale's weeks only through
        // its week rules (Foundation's first weekday and minimum days), so one locale stands
        // for all with the same rules there: the debug build's Swift would take minutes for
        // every locale; a sample of others is run as themselves.
        let functions = ["dbb_week(d, ?)", "dbb_week_start(d, ?)", "dbb_align(d, 'week', ?, 'end')"]
        var expectedByRules: [[Int]: [DBBValue]] = [:]
        var random = SeededRandom(seed: 2_026)
        var compared = 0
        var differences: [String] = []
        for locale in locales {
            let arguments: DBBArguments = Array(repeating: locale, count: functions.count)
            let calendar = try DBBLocaleCalendar(localeIdentifier: locale)
            let rules = [calendar.firstWeekday, calendar.minimumDaysInFirstWeek]
            let sample = random.next(upTo: 25) == 0
            let expected: [DBBValue]
            if let known = expectedByRules[rules], !sample {
                expected = known
            } else {
                expected = try sqlite.query(
                    Self.aggregated(functions, from: "probe", server: false), arguments: arguments)[0].values
                if let known = expectedByRules[rules], known != expected {
                    differences.append("SQLite's own \(locale) ≠ its rules' locale")
                }
                expectedByRules[rules] = expected
            }
            let actual = try server.manager.query(
                Self.aggregated(functions, from: "probe", server: true), arguments: arguments)[0].values
            for (index, function) in functions.enumerated() where expected[index] != actual[index] {
                differences.append("\(function) in \(locale)")
            }
            compared += functions.count * Self.boundaryCount
        }
        print(
            "Locale functions on PostgreSQL: \(compared) results compared (\(locales.count) locales × \(Self.boundaryCount) dates × "
                + "\(functions.count) functions; \(expectedByRules.count) week rules), \(differences.count) differ")
        #expect(differences.isEmpty, "\(differences.prefix(20))")
    }

    @Test("every unit and edge of dbb_align, quarters and half-years, dbb_date and dbb_unixepoch, for numbers and text")
    func everyFunction() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        for manager in [sqlite, server.manager] { try Self.fill(manager) }
        var functions = Self.alignments.map { "dbb_align(d, '\($0.0)', 'ru_RU', '\($0.1)')" }
        functions += [
            "ObjcGetYearAndQuarterUsingLocale(d, 'en_US')",
            "ObjcGetYearAndHalfYearUsingLocale(d, 'en_US', 'H1 ''%@', '%%@ H2 %@ %d 50%%', 'short')",
            "ObjcGetYearAndHalfYearUsingLocale(d, 'de_DE', '%@/1', '%@/2', ' LONG ')",
            "ObjcGetYearAndHalfYearUsingLocale(d, 'de_DE', '', '%@', 'long')",
            "dbb_date(d)", "dbb_unixepoch(d)", "dbb_week(d, ' EN-us ')", "dbb_week_start(d, 'de-de')",
            "dbb_align(d, ' Half_Year ', 'en_US', ' End')",
        ]
        var compared = 0
        var differences: [String] = []
        for table in ["probe", "texts"] {
            for function in functions {
                // Row by row, so that numbers compare exactly.
                let (count, difference) = try Self.compareRows(
                    "SELECT \(function) FROM \(table) ORDER BY id", sqlite, server.manager)
                if let difference { differences.append("\(function) on \(table) \(difference)") }
                compared += count
            }
        }
        print(
            "Locale functions on PostgreSQL: \(compared) results of \(functions.count) functions compared, \(differences.count) differ"
        )
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test("NULLs and errors: a NULL date, a date that is no date, an unknown locale, unit, edge or year mode")
    func nullsAndErrors() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        // A week that starts before 0001-01-01 starts in year 0000 (the days differ before 1582: Julian on SQLite).
        #expect(
            try server.manager.query(
                "SELECT dbb_week_start('0001-01-01', 'en_US'), dbb_align('0001-01-01', 'week', 'en_US', 'start')")[0]
                .values == [.text("0000-12-31"), .text("0000-12-31")])
        // Another role reads the rules too.
        try server.manager.execute("CREATE ROLE dbb_reader_\(getpid()) LOGIN PASSWORD 'r'")
        try server.manager.execute(
            "SET ROLE dbb_reader_\(getpid()); CREATE TEMP TABLE probe_role AS SELECT dbb_week(0, 'ru_RU') AS w; RESET ROLE"
        )
        #expect(try server.manager.query("SELECT w FROM probe_role")[0].values == [.text("2001-01")])
        for call in [
            "dbb_week(NULL, 'en_US')", "dbb_week_start(NULL, 'en_US')", "dbb_align(NULL, 'week', 'en_US', 'start')",
            "dbb_date(NULL)", "dbb_unixepoch(NULL)", "dbb_week(1e15, 'en_US')", "dbb_week('nonsense', 'en_US')",
            "dbb_date(-1e12)", "dbb_unixepoch('10000-01-01')",
            "ObjcGetYearAndQuarterUsingLocale('2011-02-30', 'en_US')",
        ] {
            #expect(try sqlite.query("SELECT \(call)")[0].values == [.null], "\(call) on SQLite")
            #expect(try server.manager.query("SELECT \(call)")[0].values == [.null], "\(call) on PostgreSQL")
        }
        for call in [
            "dbb_week(0, 'xx_YY')", "dbb_week(0, NULL)", "dbb_week_start(0, 'en_USSR')",
            "dbb_align(0, 'fortnight', 'en_US', 'start')", "dbb_align(0, 'week', 'en_US', 'middle')",
            "dbb_align(0, NULL, 'en_US', 'start')", "ObjcGetYearAndQuarterUsingLocale(NULL, 'en_US')",
            "ObjcGetYearAndHalfYearUsingLocale(0, 'en_US', 'H1', 'H2', 'medium')",
            "ObjcGetYearAndHalfYearUsingLocale(NULL, 'en_US', 'H1', 'H2', 'short')",
            "dbb_week(0, '\(String(repeating: "x", count: 100))')",
        ] {
            let expected = try #require(throws: DBBError.self, "\(call) on SQLite") {
                _ = try sqlite.query("SELECT \(call)")
            }
            let actual = try #require(throws: DBBError.self, "\(call) on PostgreSQL") {
                _ = try server.manager.query("SELECT \(call)")
            }
            #expect(actual.message == expected.message, "\(call)")
        }
    }

    /// Runs `sql` on both managers: how many rows it gave on SQLite, and the first row that
    /// differs (`row N: (SQLite's, PostgreSQL's)`), if any.
    static func compareRows(_ sql: String, _ sqlite: DBBManager, _ server: DBBManager) throws -> (
        count: Int, difference: String?
    ) {
        let expected = try sqlite.query(sql).map(\.values)
        let actual = try server.query(sql).map(\.values)
        guard expected != actual else { return (expected.count, nil) }
        let first = zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }
        return (
            expected.count,
            "row \(first?.offset ?? min(expected.count, actual.count)): \(String(describing: first?.element))"
        )
    }

    /// `probe` (the dates, numeric) and `texts` (the text dates) in `manager`'s database.
    static func fill(_ manager: DBBManager, boundariesOnly: Bool = false) throws {
        try manager.execute("CREATE TABLE probe (id integer PRIMARY KEY, d double precision)")
        try manager.execute("CREATE TABLE texts (id integer PRIMARY KEY, d text)")
        let dates = boundariesOnly ? Array(dates.prefix(boundaryCount)) : dates
        for chunk in stride(from: 0, to: dates.count, by: 500) {
            let rows = Array(dates[chunk..<min(chunk + 500, dates.count)].enumerated())
            try manager.execute(
                "INSERT INTO probe (id, d) VALUES " + rows.map { _ in "(?, ?)" }.joined(separator: ", "),
                arguments: rows.flatMap { [chunk + $0.offset, $0.element] as DBBArguments })
        }
        try manager.execute(
            "INSERT INTO texts (id, d) VALUES " + texts.map { _ in "(?, ?)" }.joined(separator: ", "),
            arguments: texts.enumerated().flatMap { [$0.offset, $0.element] as DBBArguments })
    }

    /// A query giving, for each of `calls`, the results of every row of `table` in id order as
    /// one text (NULL as `∅`).
    static func aggregated(_ calls: [String], from table: String, server: Bool) -> String {
        let values = calls.map { "coalesce(CAST(\($0) AS text), '∅')" }
        if server {
            return "SELECT " + values.map { "string_agg(\($0), '|' ORDER BY id)" }.joined(separator: ", ")
                + " FROM \(table)"
        }
        return "SELECT " + values.indices.map { "group_concat(v\($0), '|')" }.joined(separator: ", ")
            + " FROM (SELECT " + values.enumerated().map { "\($0.element) AS v\($0.offset)" }.joined(separator: ", ")
            + " FROM \(table) ORDER BY id)"
    }
}
#endif
