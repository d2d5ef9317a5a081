import DBBLocale

/// Where ``WeeklyChart`` puts things, in pixels (the SVG's units): the day axis, one row per
/// series, and each bar's rectangle. Bars sit on whole pixels, so that their edges are sharp.
struct WeeklyChartLayout {
    static let left = 72
    static let right = 24
    /// The top of the first row, below the title and the legend.
    static let rowsTop = 92
    /// A row: its name, room for the values above the bars, the bars, the weeks below them.
    static let rowHeight = 156
    static let plotHeight = 100

    struct Row {
        let top: Int
        /// The y of the bars' bottom (value 0).
        let baseline: Int
        let bars: [Bar]
    }

    struct Bar {
        let week: WeeklySeries.Week
        /// The days of the week that lie within the report.
        let days: Int
        let x: Int
        let width: Int
        let y: Double
        let height: Double
    }

    let first: DBBDay
    /// Days on the axis, and the pixels of one.
    let days: Int
    let dayWidth: Int
    /// The value at the top of every row's bars (a round number), and pixels per unit of value.
    let scaleMax: Double
    let scale: Double
    let rows: [Row]
    let legend: [(x: Int, label: String)]
    let axisTop: Int
    let width: Int
    let height: Int
    var left: Int { Self.left }

    init(_ chart: WeeklyChart) {
        let first = Self.day(chart.from) ?? DBBDay(daysSince1970: 0)
        let last = max(Self.day(chart.to) ?? first, first)
        let days = last.daysSince1970 - first.daysSince1970 + 1
        let dayWidth = max(8, min(24, 840 / days))
        let largest = chart.series.flatMap(\.weeks).map(\.valuePerVisit).max() ?? 0
        let scaleMax = Self.roundUp(largest)
        let scale = Double(Self.plotHeight) / scaleMax
        rows = chart.series.enumerated().map { index, series in
            let top = Self.rowsTop + index * Self.rowHeight
            let baseline = top + 34 + Self.plotHeight
            return Row(
                top: top, baseline: baseline,
                bars: Self.bars(series, from: first, to: last, dayWidth: dayWidth, scale: scale, baseline: baseline))
        }
        var x = Self.left
        var legend: [(x: Int, label: String)] = []
        for series in chart.series {
            let label = Self.label(of: series.grouping)
            legend.append((x, label))
            x += 16 + 7 * label.count + 20
        }
        self.legend = legend
        (self.first, self.days, self.dayWidth, self.scaleMax, self.scale) = (first, days, dayWidth, scaleMax, scale)
        axisTop = Self.rowsTop + chart.series.count * Self.rowHeight
        // Wide enough for the bars, the legend and the subtitle (at about 6.5 pixels a letter).
        width = max(Self.left + days * dayWidth + Self.right, x, Self.left + chart.subtitle.count * 13 / 2 + Self.right)
        height = axisTop + 48
    }

    /// The name of a row in the legend and above its bars.
    static func label(of grouping: WeeklyGrouping) -> String {
        switch grouping {
        case .locale(let identifier): "\(identifier) weeks"
        case .strftime: "strftime('%Y-%W')"
        }
    }

    /// The bars of `series`: each from its week's first day (or the report's) to the next
    /// week's first day, seven days later or the report's end, whichever is first.
    private static func bars(
        _ series: WeeklySeries, from first: DBBDay, to last: DBBDay, dayWidth: Int, scale: Double, baseline: Int
    ) -> [Bar] {
        let starts = series.weeks.map { day($0.start) ?? first }
        return series.weeks.indices.map { index in
            let start = max(starts[index], first)
            var end = starts[index].adding(days: 7)
            if index + 1 < starts.count { end = min(end, starts[index + 1]) }
            end = min(end, last.adding(days: 1))
            let days = max(end.daysSince1970 - start.daysSince1970, 1)
            let height = (series.weeks[index].valuePerVisit * scale * 100).rounded() / 100
            return Bar(
                week: series.weeks[index], days: days,
                x: Self.left + (start.daysSince1970 - first.daysSince1970) * dayWidth + 1,
                width: days * dayWidth - 2, y: Double(baseline) - height, height: height)
        }
    }

    /// `value` rounded up to 1, 2, 2.5 or 5 times a power of ten (1 for nothing to show).
    static func roundUp(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude > value { magnitude /= 10 }
        while magnitude * 10 <= value { magnitude *= 10 }
        return [1, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= value } ?? 10 * magnitude
    }

    /// The day `yyyy-MM-dd` names (the time of a longer text ignored).
    static func day(_ text: String) -> DBBDay? {
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return DBBDay(year: parts[0], month: parts[1], day: parts[2])
    }
}
