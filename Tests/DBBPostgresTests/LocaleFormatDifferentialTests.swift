#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBLocale
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// `dbb_format_date` and `ObjcFormatAnsiDateUsingLocale` in PostgreSQL against the SQLite
/// functions (`DateFormatter`): names and digits of every locale, every numeric field on every
/// kind of year boundary, text dates, literal text and quotes, NULLs and errors.
@Suite("Date formats on PostgreSQL equal the SQLite functions")
struct LocaleFormatDifferentialTests {
    typealias Probe = LocaleFunctionsDifferentialTests

    /// Every named field in every width the server writes, with numbers in the locale's digits.
    static let namesPattern =
        "GGGG G QQQQ QQQ qqqq qqq MMMM MMM MMMMM LLLL LLL LLLLL EEEE EEE EEEEE cccc ccc ccccc eeee a d HH:mm yyyy"

    /// Every numeric field in every width the server writes.
    static let numbersPattern =
        "y yy yyy yyyy Y YY YYY YYYY Q QQ q qq M MM L LL w ww W d dd D DD DDD F e ee c cc "
        + "h hh H HH K KK k kk m mm s ss S SS SSS SSSS SSSSSSSSS"

    /// Seconds since 2001 of 2001-01-07 (a Sunday) 00:00 and then every 32 days and 3 hours 7
    /// minutes, 24 times: every month, weekday, quarter, both halves of the day, and each
    /// digit in the day, the hour and the minute.
    static let nameDates: [Double] = (0..<24).map { (step: Int) -> Double in
        let seconds: Int = 6 * 86_400 + step * (32 * 86_400 + 3 * 3_600 + 7 * 60)
        return Double(seconds)
    }

    @Test("every locale: month, weekday, quarter, AM/PM and era names and the digits equal DateFormatter's")
    func everyLocaleNames() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        for manager in [sqlite, server.manager] {
            try manager.execute("CREATE TABLE names (id integer PRIMARY KEY, d double precision)")
            try manager.execute(
                "INSERT INTO names (id, d) VALUES " + Self.nameDates.map { _ in "(?, ?)" }.joined(separator: ", "),
                arguments: Self.nameDates.enumerated().flatMap { [$0.offset, $0.element] as DBBArguments })
        }
        let locales = try server.manager.query("SELECT identifier FROM dbb_locale_rules ORDER BY identifier")
            .map { try $0.decode(String.self, at: 0) }
        #expect(locales.count > 500)
        // The first has too many names for the server's to_char plan; the others take it
        // (at most three names, ASCII digits), and between them every kind of name.
        let patterns = [Self.namesPattern, "EEEE, d MMMM yyyy 'at' h a", "QQQ LLLL GGGG", "ccc qqqq G HH:mm:ss.SSS"]
        let call = patterns.map { "dbb_format_date(\(PostgresLiteral.quote($0)), d, ?)" }
        var differences: [String] = []
        for locale in locales {
            let arguments: DBBArguments = Array(repeating: locale, count: patterns.count)
            let expected = try sqlite.query(Probe.aggregated(call, from: "names", server: false), arguments: arguments)[
                0
            ].values
            let actual = try server.manager.query(
                Probe.aggregated(call, from: "names", server: true), arguments: arguments)[0].values
            if expected != actual { differences.append("\(locale): \(expected) ≠ \(actual)") }
        }
        print(
            "Date formats on PostgreSQL: \(locales.count * Self.nameDates.count * patterns.count) named results compared "
                + "(\(locales.count) locales × \(Self.nameDates.count) dates × \(patterns.count) patterns), \(differences.count) locales differ"
        )
        #expect(differences.isEmpty, "\(differences.prefix(3))")
    }

    @Test(
        "every numeric field on every kind of year boundary, for each week rule and digits, and a sample of locales as themselves"
    )
    func numbersOnYearBoundaries() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        for manager in [sqlite, server.manager] { try Probe.fill(manager) }
        let locales = try server.manager.query("SELECT identifier FROM dbb_locale_rules ORDER BY identifier")
            .map { try $0.decode(String.self, at: 0) }
        // The numbers depend on the week rules and the digits only: one locale of each kind,
        // and one in 20 of the others.
        var kinds: Set<[String]> = []
        var random = SeededRandom(seed: 17_2026)
        var chosen: [String] = []
        for locale in locales {
            let calendar = try DBBLocaleCalendar(localeIdentifier: locale)
            let kind =
                try ["\(calendar.firstWeekday)", "\(calendar.minimumDaysInFirstWeek)"]
                + DBBLocaleSymbols(localeIdentifier: locale)[.digits]
            if kinds.insert(kind).inserted || random.next(upTo: 20) == 0 { chosen.append(locale) }
        }
        // The last two are what the server writes with to_char (numbers only, ASCII digits).
        let patterns = [
            Self.numbersPattern, "YYYY-ww", "yyyy-MM-dd QQ", "'Week' w 'of' YYYY",
            "yyyy-MM-dd HH:mm:ss.SSS 'h' h hh 'D' D DDD 'Q' Q q 'y' y yy M d H m s L LL", "'FM' 'Month' yyyy''MM 'x\"'",
            // Fields side by side, which to_char must not read as other fields (hostile review: dDDD).
            "dDDD ddDDD yyyyMMdd HHmmss.SSS DDDd MMdd hhmm",
        ]
        let calls = patterns.map { "dbb_format_date(\(PostgresLiteral.quote($0)), d, ?)" }
        var differences: [String] = []
        for locale in chosen {
            let arguments: DBBArguments = Array(repeating: locale, count: calls.count)
            let expected = try sqlite.query(
                Probe.aggregated(calls, from: "probe", server: false), arguments: arguments)[0].values
            let actual = try server.manager.query(
                Probe.aggregated(calls, from: "probe", server: true), arguments: arguments)[0].values
            for (index, pattern) in patterns.enumerated() where expected[index] != actual[index] {
                let pairs = zip(Self.rows(expected[index]), Self.rows(actual[index]))
                let first = pairs.enumerated().first { $0.element.0 != $0.element.1 }
                differences.append(
                    "'\(pattern)' in \(locale), row \(first?.offset ?? -1): \(String(describing: first?.element))")
            }
        }
        let rows = Probe.dates.count
        print(
            "Date formats on PostgreSQL: \(chosen.count * rows * patterns.count) numeric results compared "
                + "(\(chosen.count) locales for \(kinds.count) week rules and digits × \(rows) dates × \(patterns.count) patterns), "
                + "\(differences.count) differ")
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test("text dates, literal text and quotes, both names, empty results")
    func textsAndLiterals() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        for manager in [sqlite, server.manager] { try Probe.fill(manager) }
        let patterns = [
            "yyyy-MM-dd HH:mm:ss.SSS EEEE", "yyyy''MM", "'unclosed yyyy", "d 'o''clock' h a", "ÿ#Ω 'ab''c' - y",
            "''", "'", "", "   ", "dd.MM.yyyy", "'The' EEEE, d MMMM",
        ]
        var calls: [String] = []
        for pattern in patterns {
            for function in ["dbb_format_date", "ObjcFormatAnsiDateUsingLocale"] {
                calls += ["en_US", "ru_RU", "ar_EG"].map {
                    "\(function)(\(PostgresLiteral.quote(pattern)), d, '\($0)')"
                }
            }
        }
        var compared = 0
        var differences: [String] = []
        for table in ["texts", "probe"] {
            for call in calls {
                let (count, difference) = try Probe.compareRows(
                    "SELECT \(call) FROM \(table) ORDER BY id", sqlite, server.manager)
                if let difference { differences.append("\(call) on \(table) \(difference)") }
                compared += count
            }
        }
        print(
            "Date formats on PostgreSQL: \(compared) results of \(calls.count) calls on text and numeric dates compared, "
                + "\(differences.count) differ")
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }

    @Test(
        "instants far from 1970 (years 1 to 9999) write the same time of day and milliseconds, and the same day from 1583 on"
    )
    func farInstants() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        var random = SeededRandom(seed: 2_2026)
        // Seconds since 2001 from year 1 to 9999, with milliseconds and sub-millisecond parts.
        let instants = (0..<2_000).map { _ in
            -63_113_904_000.0 + Double(random.next(upTo: 315_537_897_599_000)) / 1000
                + Double(random.next(upTo: 1_000)) / 1e6
        }
        for manager in [sqlite, server.manager] {
            try manager.execute("CREATE TABLE far (id integer PRIMARY KEY, d double precision)")
            for chunk in stride(from: 0, to: instants.count, by: 500) {
                let rows = Array(instants[chunk..<min(chunk + 500, instants.count)].enumerated())
                try manager.execute(
                    "INSERT INTO far (id, d) VALUES " + rows.map { _ in "(?, ?)" }.joined(separator: ", "),
                    arguments: rows.flatMap { [chunk + $0.offset, $0.element] as DBBArguments })
            }
        }
        // to_char's plan (the first two) and the PL/pgSQL loop (the Arabic digits).
        let calls = [
            "dbb_format_date('HH:mm:ss.SSS', d, 'en_US')", "dbb_format_date('ss.SSS SS S', d, 'de_DE')",
            "dbb_format_date('HH:mm:ss.SSS', d, 'ar_SA')", "dbb_format_date('ss.SSS', d, 'ar_EG')",
        ]
        var differences: [String] = []
        for call in calls {
            if let difference = try Probe.compareRows("SELECT \(call) FROM far ORDER BY id", sqlite, server.manager)
                .difference
            {
                differences.append("\(call) \(difference)")
            }
        }
        let dates =
            "SELECT dbb_format_date('yyyy-MM-dd HH:mm:ss.SSS', d, 'en_US'), dbb_format_date('YYYY-ww W D e', d, 'de_DE')"
            + " FROM far WHERE d >= -13197600000 ORDER BY id"
        if try sqlite.query(dates).map(\.values) != server.manager.query(dates).map(\.values) {
            differences.append("dates from 1583")
        }
        print(
            "Date formats on PostgreSQL: \(instants.count * (calls.count + 1)) results for instants of years 1–9999 compared, "
                + "\(differences.count) differ")
        #expect(differences.isEmpty, "\(differences.prefix(4))")
    }

    @Test("NULLs and errors as on SQLite; a field the server does not write is an error naming it")
    func nullsAndErrors() throws {
        guard let server = try BackendDatabase(.postgresql) else { return }
        let sqlite = try DBBManager.inMemory()
        for call in [
            "dbb_format_date('yyyy', NULL, 'en_US')", "dbb_format_date('yyyy', 1e15, 'en_US')",
            "dbb_format_date('yyyy', 'nonsense', 'en_US')", "dbb_format_date('', 0, 'en_US')",
            "ObjcFormatAnsiDateUsingLocale('yyyy', '2011-02-30', 'en_US')",
        ] {
            #expect(try sqlite.query("SELECT \(call)")[0].values == [.null], "\(call) on SQLite")
            #expect(try server.manager.query("SELECT \(call)")[0].values == [.null], "\(call) on PostgreSQL")
        }
        for call in [
            "dbb_format_date(NULL, 0, 'en_US')", "dbb_format_date('yyyy', 0, NULL)",
            "dbb_format_date('yyyy', 0, 'xx_YY')",
            "ObjcFormatAnsiDateUsingLocale('yyyy', NULL, 'en_US')",
            "ObjcFormatAnsiDateUsingLocale(NULL, NULL, 'en_US')",
            "ObjcFormatAnsiDateUsingLocale('yyyy', 0, 'en_USSR')",
            // SQLite's order: every NULL first, in argument order, then the values (hostile review).
            "ObjcFormatAnsiDateUsingLocale('yyyy', NULL, NULL)", "ObjcFormatAnsiDateUsingLocale('yyyy', NULL, 'xx')",
            "ObjcFormatAnsiDateUsingLocale(NULL, NULL, NULL)",
            "ObjcFormatAnsiDateUsingLocale('yyyy', '2011-01-02', NULL)",
            "dbb_align(0, 'bad', 'xx', 'x')", "dbb_align(0, 'week', 'xx', 'x')",
            "dbb_align('2011-01-02', 'bad', 'xx', NULL)",
        ] {
            let expected = try #require(throws: DBBError.self, "\(call) on SQLite") {
                _ = try sqlite.query("SELECT \(call)")
            }
            let actual = try #require(throws: DBBError.self, "\(call) on PostgreSQL") {
                _ = try server.manager.query("SELECT \(call)")
            }
            #expect(actual.message == expected.message, "\(call)")
        }
        // A NULL date of ESLocale's function is an error in the row that has it, as on SQLite.
        try server.manager.execute("CREATE TABLE maybe (d double precision)")
        try server.manager.execute("INSERT INTO maybe VALUES (0), (NULL)")
        let error = try #require(throws: DBBError.self) {
            _ = try server.manager.query("SELECT ObjcFormatAnsiDateUsingLocale('yyyy', d, 'en_US') FROM maybe")
        }
        #expect(error.message.contains("ObjcFormatAnsiDateUsingLocale: argument 2 (date) is NULL"))
        #expect(
            try server.manager.query("SELECT dbb_format_date('yyyy', d, 'en_US') FROM maybe").map(\.values) == [
                [.text("2001")], [.null],
            ])

        for (pattern, field) in [
            ("yyyy-MM-dd zzz", "'zzz'"), ("HH:mm Z", "'Z'"), ("yyyyy", "'yyyyy'"), ("EEEEEE", "'EEEEEE'"),
            ("B", "'B'"),
        ] {
            let refused = try #require(throws: DBBError.self, "\(pattern)") {
                _ = try server.manager.query("SELECT dbb_format_date(?, 0, 'en_US')", arguments: [pattern])
            }
            #expect(
                refused.message.contains(
                    "argument 1 (format) '\(pattern)' has the field \(field), which the PostgreSQL functions do not write"
                ),
                "\(refused.message)")
            // SQLite's DateFormatter writes it.
            #expect(
                try sqlite.query("SELECT dbb_format_date(?, 0, 'en_US')", arguments: [pattern])[0].values != [.null])
        }
    }
}

extension LocaleFormatDifferentialTests {
    /// The rows of an aggregated result (see `LocaleFunctionsDifferentialTests.aggregated`).
    static func rows(_ value: DBBValue) -> [String] {
        guard case .text(let text) = value else { return ["\(value)"] }
        return text.components(separatedBy: "|")
    }
}

/// A text as an SQL string literal.
enum PostgresLiteral {
    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
#endif
