import DBBLocale
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// The SQL functions against Foundation itself, for every locale Foundation knows.
///
/// The references (`DateFormatter`, `Calendar`) run for every locale × every day. The SQL
/// side runs for every locale on the probe days (every December 24 – January 7 of nine
/// years and the leap days around them), which pin down a locale's week rules and digits;
/// locales giving identical probe results share a representative whose SQL results over all
/// days stand for the group. That is sound because the functions see a locale only through
/// those rules and digits, and it keeps the suite fast in a debug build.
@Suite("Differential: the SQL functions equal DateFormatter and Calendar in every locale")
struct DifferentialTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let patterns = ["YYYY-ww", "yyyy-MM-dd", "w", "Q yyyy"]
    static let combinedPattern = patterns.joined(separator: "|")

    /// Every December 24 – January 7 from 1900/1901 to 2099/2100, leap days, 1,000 seeded random
    /// days of 1900…2100 and 200 of years 1…9999.
    static let days: [DateComponents] = {
        var days: [DateComponents] = []
        for year in 1900..<2100 {
            for day in 24...31 { days.append(DateComponents(year: year, month: 12, day: day)) }
            for day in 1...7 { days.append(DateComponents(year: year + 1, month: 1, day: day)) }
        }
        for year in stride(from: 1904, through: 2096, by: 4) where year != 1900 {
            days.append(DateComponents(year: year, month: 2, day: 29))
        }
        var random = SeededRandom(seed: 20_110_102)
        for _ in 0..<1000 {
            let year = Int(random.next(upTo: 201)) + 1900
            let month = Int(random.next(upTo: 12)) + 1
            days.append(DateComponents(year: year, month: month, day: Int(random.next(upTo: 28)) + 1))
        }
        for _ in 0..<200 {
            let year = Int(random.next(upTo: 9999)) + 1
            let (month, day) =
                random.next(upTo: 2) == 0 ? (12, 24 + Int(random.next(upTo: 8))) : (1, 1 + Int(random.next(upTo: 7)))
            days.append(DateComponents(year: year, month: month, day: day))
        }
        return days
    }()

    /// Indexes into ``days`` of the probe days: the year ends 2005/06 … 2017/18 (every
    /// first-week layout occurs among them) and the leap days 2008–2016.
    static let probes: [Int] = days.indices.filter { index in
        let day = days[index]
        let yearEnd = day.month == 12 ? day.year! : day.year! - 1
        return day.month == 2
            ? (2008...2016).contains(day.year!)
            : (2005...2017).contains(yearEnd)
                && index < 200 * 15  // the year-end block, not the random days
    }

    static let dates: [Date] = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return days.map { calendar.date(from: $0)! }
    }()

    static func text(_ components: DateComponents) -> String {
        pad(components.year!, 4) + "-" + pad(components.month!, 2) + "-" + pad(components.day!, 2)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The reference, built here from Foundation alone: Gregorian calendar of the locale, UTC.
    static func referenceFormatter(_ pattern: String, _ locale: Locale) -> DateFormatter {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = utc
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.locale = locale
        formatter.timeZone = utc
        formatter.dateFormat = pattern
        return formatter
    }

    /// `YYYY-ww` (ASCII) and `yyyy-MM-dd` of the week start, from `Calendar`; a week start in
    /// 1 BC is year 0000 (astronomical numbering, as the week-year of its week is).
    static func referenceWeek(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear, .weekday], from: date)
        let back = (parts.weekday! - calendar.firstWeekday + 7) % 7
        var start = calendar.dateComponents(
            [.era, .year, .month, .day], from: date.addingTimeInterval(Double(-back) * 86_400))
        if start.era == 0 { start.year = 1 - start.year! }
        return pad(parts.yearForWeekOfYear!, 4) + "-" + pad(parts.weekOfYear!, 2) + " " + text(start)
    }

    /// The SQL results for `identifier` on the probe days or on all days of the `days` table:
    /// the combined pattern, then `dbb_week` and `dbb_week_start`.
    static func sqlResults(_ db: SQLiteConnection, _ identifier: String, probesOnly: Bool) throws -> [String] {
        try db.fetchAll(
            """
            SELECT dbb_format_date(?1, d, ?2), dbb_week(d, ?2) || ' ' || dbb_week_start(d, ?2)
            FROM days WHERE probe >= ?3 ORDER BY n
            """, [.text(combinedPattern), .text(identifier), probesOnly ? 1 : 0]
        ) { row in
            (row.string(at: 0) ?? "NULL") + "#" + (row.string(at: 1) ?? "NULL")
        }
    }

    /// The references for `identifier` on `indexes`, in the shape of ``sqlResults``.
    static func references(_ identifier: String, _ indexes: [Int]) -> [String] {
        let locale = Locale(identifier: identifier)
        let formatter = referenceFormatter(combinedPattern, locale)
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = utc
        return indexes.map { formatter.string(from: dates[$0]) + "#" + referenceWeek(dates[$0], calendar) }
    }

    @Test("every locale, every day: dbb_format_date equals DateFormatter, dbb_week and dbb_week_start equal Calendar")
    func everyLocale() async throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let db = database.connection
        try db.execute("CREATE TABLE days (n INTEGER PRIMARY KEY, d TEXT, probe INTEGER)")
        let probeSet = Set(Self.probes)
        try db.transaction {
            for (n, day) in Self.days.enumerated() {
                try db.execute(
                    "INSERT INTO days VALUES (?, ?, ?)",
                    [.integer(Int64(n)), .text(Self.text(day)), probeSet.contains(n) ? 1 : 0])
            }
        }
        let identifiers = Locale.availableIdentifiers.sorted()
        let allDays = Array(Self.days.indices)
        let path = database.path
        #expect(Self.probes.count >= 200)

        // 1. Every locale through SQL on the probe days, against the references.
        let probed = try await withThrowingTaskGroup(of: [(String, [String], String?)].self) { group in
            for part in 0..<2 {
                group.addTask {
                    let connection = try SQLiteConnection(path: path)
                    try connection.addLocaleFunctions()
                    return try identifiers.enumerated().filter { $0.offset % 2 == part }.map { _, identifier in
                        let actual = try Self.sqlResults(connection, identifier, probesOnly: true)
                        let expected = Self.references(identifier, Self.probes)
                        let mismatch = zip(zip(Self.probes, actual), expected).first { $0.0.1 != $0.1 }
                            .map { "\(identifier) \(Self.text(Self.days[$0.0.0])): \($0.0.1) != \($0.1)" }
                        return (identifier, actual, mismatch)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(probed.count == identifiers.count)
        let probeMismatches = probed.compactMap(\.2)
        #expect(probeMismatches.isEmpty, "\(probeMismatches.prefix(10))")

        // 2. One representative per group of locales with identical probe results: SQL over all days.
        var representative: [[String]: String] = [:]
        for (identifier, actual, _) in probed where representative[actual] == nil {
            representative[actual] = identifier
        }
        var full: [String: [String]] = [:]
        for identifier in Set(representative.values) {
            full[identifier] = try Self.sqlResults(db, identifier, probesOnly: false)
        }
        #expect(full.count < identifiers.count / 4, "few distinct behaviours: \(full.count)")

        // 3. The references of every locale over all days against its representative.
        let groups = probed.map { (identifier: $0.0, representative: representative[$0.1]!) }
        let fullResults = full
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for part in 0..<2 {
                group.addTask {
                    var mismatches: [String] = []
                    for (identifier, chosen) in groups.enumerated().filter({ $0.offset % 2 == part }).map(\.element) {
                        let expected = Self.references(identifier, allDays)
                        let actual = fullResults[chosen]!
                        if let index = allDays.first(where: { actual[$0] != expected[$0] }) {
                            mismatches.append(
                                "\(identifier) (as \(chosen)) \(Self.text(Self.days[index])): \(actual[index]) != \(expected[index])"
                            )
                        }
                    }
                    return mismatches
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("each pattern on its own equals DateFormatter for locales of every kind of week and digits")
    func separatePatterns() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        for identifier in [
            "en_US", "ru_RU", "de_DE", "en_GB", "ar_SA", "fa_IR", "ar_EG", "my_MM", "ne_NP", "he_IL", "pt_BR",
        ] {
            for pattern in Self.patterns {
                let formatter = Self.referenceFormatter(pattern, Locale(identifier: identifier))
                for index in Self.probes {
                    #expect(
                        try database.text(
                            "SELECT dbb_format_date(?, ?, ?)",
                            [
                                .text(pattern), .text(Self.text(Self.days[index])), .text(identifier),
                            ]) == formatter.string(from: Self.dates[index]),
                        "\(identifier) \(pattern) \(Self.text(Self.days[index]))")
                }
            }
        }
    }

    @Test("text patterns (month names, weekdays) go through DateFormatter and match it")
    func textPatterns() throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        for identifier in ["en_US", "ru_RU", "ar_SA", "ja_JP", "fa_IR", "he_IL"] {
            for pattern in ["MMMM yyyy", "EEEE d MMM", "QQQ yy", "yyyy-MM-dd'T'HH:mm"] {
                let formatter = Self.referenceFormatter(pattern, Locale(identifier: identifier))
                let date = try #require(
                    Calendar(identifier: .gregorian).date(
                        from: DateComponents(
                            timeZone: Self.utc, year: 2011, month: 1, day: 2, hour: 13, minute: 45)))
                #expect(
                    try database.text(
                        "SELECT dbb_format_date(?, '2011-01-02 13:45', ?)", [.text(pattern), .text(identifier)])
                        == formatter.string(from: date), "\(identifier) \(pattern)")
            }
        }
    }
}
