import DBBBuilder
import DBBLocale
import Foundation

/// The seed's usage data as ``Usage`` objects: a year of visits per facet and day, which the
/// weekly "value per visit" report reads (see ``WeeklyReport``). The demo and the example
/// service both fill their table through this type.
public enum UsageData {
    /// The first day of the data, a Thursday.
    public static let firstDay = DBBDay(year: 2010, month: 7, day: 1)!
    /// How many days the data spans: 2010-07-01 … 2011-06-30.
    public static let dayCount = 365
    /// The facets of each day, in the order their rows are made.
    public static let facets = ["search", "browse", "ads"]

    /// Saves the year of visits into `manager`'s empty `Usage` table (``Usage`` registered);
    /// does nothing when it has rows. Returns whether it saved them.
    @discardableResult
    public static func fillIfEmpty(_ manager: DBBManager) throws -> Bool {
        guard try manager.count(of: Usage.databaseTableName) == 0 else { return false }
        try Usage.save(objects(manager), manager: manager)
        return true
    }

    /// A deterministic year of visits, one object per facet per day, not saved yet: every call
    /// makes the same values.
    public static func objects(_ manager: DBBManager) -> [Usage] {
        var state: UInt64 = 2011
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var objects: [Usage] = []
        objects.reserveCapacity(dayCount * facets.count)
        for offset in 0..<dayCount {
            let day = firstDay.adding(days: offset)
            let weekend = day.weekday == 1 || day.weekday == 7
            for facet in facets {
                let usage = Usage(dbManager: manager)
                usage.visits = (weekend ? 40 : 100) + next(30)
                (usage.facetID, usage.value, usage.day) = (facet, usage.visits * (2 + next(4)), day.date)
                objects.append(usage)
            }
        }
        return objects
    }

    /// Throws ``OlderTable`` naming the database `name` when it holds the `Usage` table an
    /// older dbb-demo or dbb-service made (text dates, no `id`), which the ``Usage`` class
    /// cannot read: call it before registering ``Usage``. (The older table's name was unquoted,
    /// so PostgreSQL folded it to `usage`; the class's table is `"Usage"`.) Nothing is changed.
    public static func refuseOlderTable(in manager: DBBManager, named name: String = "this database") throws {
        let postgres = manager.databaseSystem == "postgresql"
        let sql =
            postgres
            ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'usage'"
            : """
            SELECT count(*) FROM sqlite_master AS m WHERE m.type = 'table' AND m.name = 'Usage' COLLATE NOCASE
            AND NOT EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'id')
            """
        if try manager.query(sql)[0].decode(Int.self, at: 0) > 0 {
            throw OlderTable(database: name, postgres: postgres)
        }
    }

    /// The database holds the `Usage` table of an older dbb-demo or dbb-service.
    public struct OlderTable: Error, CustomStringConvertible {
        /// The database, as the caller named it.
        public var database: String
        /// Whether the database is on PostgreSQL (the table is `usage` there).
        public var postgres: Bool

        public var description: String {
            let remedy =
                postgres
                ? "drop that table (DROP TABLE usage; dbb-demo --reset does) and start again"
                : "delete the database file (dbb-demo --reset does) and start again"
            return "the Usage table of \(database) was made by an older dbb-demo or dbb-service (text dates, no id "
                + "column), which the Usage class cannot read: \(remedy); the same visits are saved anew"
        }
    }
}
