import DBBLocale
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Many connections on many threads at once")
struct ConcurrencyTests {
    static let locales = ["en_US", "ru_RU", "ar_SA", "de_DE", "fa_IR", "ja_JP", "ne_NP", "pt_BR"]
    static let query = """
        SELECT group_concat(r, ',') FROM (
            SELECT dbb_week(d, ?1) || dbb_format_date('MMM yyyy|YYYY-ww', d, ?1) || dbb_align(d, 'quarter', ?1, 'end') AS r
            FROM days ORDER BY d)
        """

    @Test("parallel queries in different locales give what each gives alone")
    func parallelLocales() async throws {
        let database = try SQLiteTestDatabase.withLocaleFunctions()
        let db = database.connection
        try db.execute("CREATE TABLE days (d TEXT)")
        let first = try #require(DBBDay(year: 2010, month: 12, day: 20))
        try db.transaction {
            for offset in 0..<400 {
                try db.execute("INSERT INTO days VALUES (?)", [.text(first.adding(days: offset * 3).description)])
            }
        }
        // Each locale alone, one after the other, on one connection.
        var expected: [String: String] = [:]
        for identifier in Self.locales {
            expected[identifier] = try db.fetchValue(Self.query, [.text(identifier)], as: String.self)
        }

        // 16 tasks, each with its own connection, switching locale on every query.
        let path = database.path
        let results = try await withThrowingTaskGroup(of: [(String, String?)].self) { group in
            for task in 0..<16 {
                group.addTask {
                    let connection = try SQLiteConnection(path: path)
                    try connection.addLocaleFunctions()
                    var results: [(String, String?)] = []
                    for round in 0..<12 {
                        let identifier = Self.locales[(task + round) % Self.locales.count]
                        results.append(
                            (identifier, try connection.fetchValue(Self.query, [.text(identifier)], as: String.self)))
                    }
                    return results
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(results.count == 16 * 12)
        for (identifier, result) in results {
            #expect(result == expected[identifier], "\(identifier)")
        }
        #expect(Set(expected.values).count == Self.locales.count, "the locales differ from each other")
    }
}
