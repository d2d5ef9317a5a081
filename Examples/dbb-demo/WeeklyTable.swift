import DBBWeeklyReport
import Foundation

/// The weekly report as the demo prints it: one column per grouping, a week per line.
enum WeeklyTable {
    static func show(_ series: [WeeklySeries], from: String, to: String) {
        print("Weekly value per visit, \(from) … \(to): the seed's query, grouped four ways.")
        print("A US week starts on Sunday; ru_RU and de_DE weeks start on Monday and need 4 days in week 1;")
        print("strftime('%Y-%W') starts on Monday and cuts the New Year week in two.\n")
        let columns = series.map { series in
            series.weeks.map { "\($0.week) (\($0.start.suffix(5)))  \(String(format: "%.3f", $0.valuePerVisit))" }
        }
        let height = columns.map(\.count).max() ?? 0
        let header = series.map { $0.grouping == .strftime ? "strftime('%Y-%W')" : "\($0.name) week" }
        let subheader = series.map { $0.grouping == .strftime ? "(first day)  value/visit" : "(from)  value/visit" }
        let cells = (0..<height).map { index in columns.map { index < $0.count ? $0[index] : "" } }
        Table.print(header, [subheader] + cells)
    }
}
