import DBBBuilder
import Foundation

/// The seed's `Usage` table: a year of visits per facet and day, which the weekly "value per
/// visit" report reads (see ``WeeklyReport``). The demo and the example service both fill it
/// through this type.
public enum UsageData {
    /// Whether the database has the `Usage` table already. (Its names are unquoted in every
    /// statement, so PostgreSQL folds them all to lower case alike.)
    public static func exists(_ manager: DBBManager, postgres: Bool) throws -> Bool {
        let sql =
            postgres
            ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'usage'"
            : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'Usage'"
        return try manager.query(sql)[0].decode(Int.self, at: 0) > 0
    }

    /// A deterministic year of visits, 2010-07-01 … 2011-06-30: one row per facet per day.
    public static func fill(_ manager: DBBManager, postgres: Bool) throws {
        // The seed's DATETIME column holds text dates; PostgreSQL has no such type.
        try manager.execute(
            "CREATE TABLE IF NOT EXISTS Usage (FacetId VARCHAR, Value INTEGER, Visits INTEGER, Date \(postgres ? "TEXT" : "DATETIME"))"
        )
        var state: UInt64 = 2011
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: 2010, month: 7, day: 1))!
        var sql = "INSERT INTO Usage (FacetId, Value, Visits, Date) VALUES "
        var rows: [String] = []
        for offset in 0..<365 {
            let date = calendar.date(byAdding: .day, value: offset, to: start)!
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            let weekend = parts.weekday == 1 || parts.weekday == 7
            for facet in ["search", "browse", "ads"] {
                let visits = (weekend ? 40 : 100) + next(30)
                rows.append("('\(facet)', \(visits * (2 + next(4))), \(visits), '\(text)')")
            }
        }
        sql += rows.joined(separator: ", ")
        try manager.execute(sql)
    }

    /// The seed's weekly "value per visit" query: `week` is the SQL of a row's week, `start`
    /// that of the week's first day (an aggregate); the two `?` are the first and last day.
    public static func weeklyQuery(week: String, start: String) -> String {
        """
        SELECT \(week) AS week, \(start) AS start, SUM(Value) * 1.0 / SUM(Visits) AS ratio
        FROM Usage WHERE Date BETWEEN ? AND ? GROUP BY week ORDER BY week
        """
    }
}
