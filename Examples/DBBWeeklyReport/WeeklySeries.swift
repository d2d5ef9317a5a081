/// One grouping's rows of the weekly report: a week's label, its first day and its value per
/// visit, in the order of the weeks.
public struct WeeklySeries: Sendable, Equatable {
    /// How the days were grouped.
    public var grouping: WeeklyGrouping
    /// The weeks, earliest first.
    public var weeks: [Week]

    /// A series of `weeks` grouped by `grouping`.
    public init(grouping: WeeklyGrouping, weeks: [Week]) {
        self.grouping = grouping
        self.weeks = weeks
    }

    /// The name the chart and the tables show: a locale identifier, or `strftime`.
    public var name: String { grouping.name }

    /// One row of the report.
    public struct Week: Sendable, Equatable, Codable {
        /// The week's label: `dbb_week`'s `2010-51`, or `strftime`'s `2010-50`.
        public var week: String
        /// The week's first day as `yyyy-MM-dd`: for a locale's week the day it starts (which
        /// may lie before the report's first day), for `strftime`'s the first day with rows.
        public var start: String
        /// `SUM(value) / SUM(visits)` over the week's days in the report.
        public var valuePerVisit: Double

        /// A row of the report.
        public init(week: String, start: String, valuePerVisit: Double) {
            self.week = week
            self.start = start
            self.valuePerVisit = valuePerVisit
        }
    }
}

extension WeeklySeries.Week {
    /// A week whose value per visit is `value / visits` (0 for no visits), divided here for the
    /// `strftime` weeks' SQL: one division in Swift gives both backends the same `Double`
    /// (PostgreSQL's `numeric` division did not), as the typed report's `.double(_:)` does.
    init(week: String, start: String, value: Int, visits: Int) {
        self.init(week: week, start: start, valuePerVisit: visits == 0 ? 0 : Double(value) / Double(visits))
    }
}
