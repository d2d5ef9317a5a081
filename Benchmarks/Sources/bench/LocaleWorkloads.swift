import DBBLocale
import DBBSQLite
import Foundation

/// A file database with `rows` rows of the seed's `Usage(FacetId, Value, Visits, Date)` table,
/// dates as `yyyy-MM-dd` text over three years, deterministic.
func makeUsageDatabase(rows: Int, directory: URL) throws -> (path: String, totalValue: Int) {
    let path = directory.appendingPathComponent("usage-\(rows).sqlite").path
    try? FileManager.default.removeItem(atPath: path)
    let db = try SQLiteConnection(path: path)
    try db.execute("CREATE TABLE Usage (FacetId VARCHAR, Value INTEGER, Visits INTEGER, Date DATETIME)")
    let first = DBBDay(year: 2010, month: 1, day: 1)!
    var total = 0
    var state: UInt64 = 42
    try db.transaction {
        let insert = try db.cachedStatement("INSERT INTO Usage VALUES (?, ?, ?, ?)")
        for _ in 0..<rows {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let value = Int(state >> 50) % 1000
            total += value
            try insert.bind(["search", "browse", "ads"][Int(state >> 40) % 3], at: 1)
            try insert.bind(value, at: 2)
            try insert.bind(1 + Int(state >> 30) % 10, at: 3)
            try insert.bind(first.adding(days: Int(state >> 33) % 1096).description, at: 4)
            try insert.execute()
        }
    }
    return (path, total)
}

/// The seed's weekly report grouped three ways over the same rows.
func weeklyReportWorkload(rows: Int, directory: URL) throws -> Workload {
    let (path, total) = try makeUsageDatabase(rows: rows, directory: directory)
    let db = try SQLiteConnection(path: path)
    try db.addLocaleFunctions()
    func report(_ week: String) -> Contender {
        Contender(name: week) {
            var sum = 0
            try db.forEachRow(
                """
                SELECT SUM(Value), SUM(Visits), \(week) AS week FROM Usage GROUP BY week ORDER BY week
                """
            ) { sum += $0.int(at: 0) }
            return sum
        }
    }
    return Workload(
        name: "Weekly report over \(rows.formatted()) Usage rows",
        summary: "`SELECT SUM(Value), SUM(Visits), <week> AS week FROM Usage GROUP BY week ORDER BY week`",
        goals: [Goal(contender: "dbb_week", baseline: "strftime", maximum: 1.5)],
        contenders: [
            report("strftime('%Y-%W', Date)"),
            report("dbb_week(Date, 'en_US')"),
            report("ObjcFormatAnsiDateUsingLocale('YYYY-ww', Date, 'en_US')"),
        ],
        expectedChecksum: total)
}

/// One call of the format function, against `DateFormatter` doing the same work.
func perCallWorkload(calls: Int, directory: URL) throws -> Workload {
    let (path, _) = try makeUsageDatabase(rows: calls, directory: directory)
    let db = try SQLiteConnection(path: path)
    try db.addLocaleFunctions()
    let dates = try db.fetchAll("SELECT Date FROM Usage") { $0.string(at: 0)! }
    let utc = TimeZone(identifier: "UTC")!
    let parser = DateFormatter()
    parser.locale = Locale(identifier: "en_US_POSIX")
    parser.timeZone = utc
    parser.dateFormat = "yyyy-MM-dd"
    let formatter = DateFormatter()
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US")
    calendar.timeZone = utc
    formatter.calendar = calendar
    formatter.locale = Locale(identifier: "en_US")
    formatter.timeZone = utc
    formatter.dateFormat = "YYYY-ww"
    let parsed = dates.map { parser.date(from: $0)! }
    return Workload(
        name: "Per call: format 'YYYY-ww' in en_US, \(calls.formatted()) calls",
        summary: "The SQL function over a column (row reading included) versus a cached `DateFormatter`.",
        goals: [Goal(contender: "dbb_format_date", baseline: "DateFormatter format only", maximum: 1)],
        contenders: [
            Contender(name: "SQL dbb_format_date('YYYY-ww', Date, 'en_US')") {
                var count = 0
                try db.forEachRow("SELECT dbb_format_date('YYYY-ww', Date, 'en_US') FROM Usage") { row in
                    count += row.withUnsafeUTF8(at: 0) { $0.count == 7 ? 1 : 0 }
                }
                return count
            },
            Contender(name: "SQL SELECT Date (row reading alone)") {
                var count = 0
                try db.forEachRow("SELECT Date FROM Usage") { row in
                    count += row.withUnsafeUTF8(at: 0) { $0.count == 10 ? 1 : 0 }
                }
                return count
            },
            Contender(name: "DateFormatter format only (dates pre-parsed)") {
                parsed.reduce(0) { $0 + (formatter.string(from: $1).utf8.count == 7 ? 1 : 0) }
            },
            Contender(name: "DateFormatter parse + format (ESLocale's way)") {
                dates.reduce(0) { $0 + (formatter.string(from: parser.date(from: $1)!).utf8.count == 7 ? 1 : 0) }
            },
        ],
        expectedChecksum: calls)
}
