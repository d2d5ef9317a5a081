import DBBWeeklyReport
import Testing

/// The bars of a weekly chart as its markup has them (the page as served, or the DOM Chromium
/// built from it), and the check that they draw a report's rows.
struct ChartBar: Equatable {
    let series: String
    let week: String
    let start: String
    let days: Int
    let value: Double
    let x: Double
    let y: Double
    let width: Double
    let height: Double
    let color: String
}

extension ChartBar {
    /// Every `<rect class="bar" …>` of `markup`, in order.
    static func all(in markup: String) throws -> [ChartBar] {
        try markup.matches(of: /<rect\b[^>]*\bclass="bar"[^>]*>/).map { match in
            let attributes = Dictionary(
                match.output.matches(of: /([a-z-]+)="([^"]*)"/).map { (String($0.output.1), unescape($0.output.2)) },
                uniquingKeysWith: { first, _ in first })
            func text(_ name: String) throws -> String { try #require(attributes[name], "a bar without \(name)") }
            func number(_ name: String) throws -> Double { try #require(Double(text(name)), "\(name) is a number") }
            return ChartBar(
                series: try text("data-series"), week: try text("data-week"), start: try text("data-start"),
                days: try #require(Int(text("data-days"))), value: try number("data-value"), x: try number("x"),
                y: try number("y"), width: try number("width"), height: try number("height"), color: try text("fill"))
        }
    }

    private static func unescape(_ text: Substring) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Checks that `bars` draw `series` over `days` days: one row per series in its order, a bar
    /// per row of the query with its week, first day and exact value, heights proportional to
    /// the values on one baseline per row, and each row's bars side by side, covering every day
    /// once.
    static func expect(_ bars: [ChartBar], draw series: [WeeklySeries], days: Int) {
        var names: [String] = []
        for bar in bars where names.last != bar.series { names.append(bar.series) }
        #expect(names == series.map(\.name), "one row of bars per series, in order")
        guard let scale = bars.first.map({ $0.height / $0.value }) else {
            Issue.record("no bars")
            return
        }
        for expected in series {
            let row = bars.filter { $0.series == expected.name }
            #expect(row.map(\.week) == expected.weeks.map(\.week), "\(expected.name): its weeks")
            #expect(row.map(\.start) == expected.weeks.map(\.start), "\(expected.name): their first days")
            #expect(row.map(\.value) == expected.weeks.map(\.valuePerVisit), "\(expected.name): the query's values")
            for bar in row {
                #expect(abs(bar.height - bar.value * scale) < 0.02, "\(bar.series) \(bar.week): height ∝ value")
            }
            #expect(Set(row.map { $0.y + $0.height }).count == 1, "\(expected.name): one baseline")
            #expect(row.map(\.days).reduce(0, +) == days, "\(expected.name): every day in one bar")
            let dayWidth = row.first.map { ($0.width + 2) / Double($0.days) } ?? 0
            for (bar, next) in zip(row, row.dropFirst()) {
                #expect(next.x == bar.x + bar.width + 2, "\(expected.name) \(next.week) follows \(bar.week)")
                #expect(next.width + 2 == Double(next.days) * dayWidth, "\(next.week): as wide as its days")
            }
        }
    }
}
