import DBBLocale

/// The weekly report as an SVG picture: "value per visit by localized week", one row of bars
/// per series (each locale's weeks, then `strftime`'s) on one axis of days, so that weeks which
/// start on different days, or a week `strftime` cuts in two, sit where their days are.
///
/// Each bar spans the days of its week within the report and is as tall as its value, on one
/// scale for all rows. Bars carry what a program needs to read them back: `class="bar"`,
/// `data-series` (a locale, or `strftime`), `data-week`, `data-start`, `data-days` and
/// `data-value` (the value as Swift prints a `Double`, exactly). The picture has a title, a
/// description and a legend; each row is a list and each bar an item of it with its text, for
/// screen readers. Every text is escaped (see ``Markup``).
///
/// ```swift
/// let series = try WeeklyReport.comparison(
///     locales: ["en_US", "de_DE"], in: manager, from: "2010-12-13", to: "2011-01-16")
/// let svg = WeeklyChart(series: series, from: "2010-12-13", to: "2011-01-16").svg
/// ```
public struct WeeklyChart: Sendable {
    /// The rows of bars, top to bottom.
    public var series: [WeeklySeries]
    /// The report's first day, `yyyy-MM-dd`: the start of the day axis.
    public var from: String
    /// The report's last day, `yyyy-MM-dd`: the end of the day axis.
    public var to: String
    /// The picture's heading.
    public var title = "Value per visit by localized week"
    /// The start of the `id`s of the title and description, unique per page.
    public var idPrefix = "weekly-chart"

    /// A chart of `series` over the days `from` … `to` (`yyyy-MM-dd`, both included).
    public init(series: [WeeklySeries], from: String, to: String) {
        self.series = series
        self.from = from
        self.to = to
    }

    /// The colours of the locales' rows, in order (Okabe and Ito's, told apart also by people
    /// with colour-blindness); after the last, the first again.
    public static let localeColors = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442"]
    /// The colour of `strftime`'s row.
    public static let strftimeColor = "#777777"

    /// The colour of the row of `series` at `index`: `strftime` grey, locales from
    /// ``localeColors`` in their order.
    public func color(at index: Int) -> String {
        guard series[index].grouping != .strftime else { return Self.strftimeColor }
        let locales = series[..<index].count { $0.grouping != .strftime }
        return Self.localeColors[locales % Self.localeColors.count]
    }

    /// The picture, as a standalone SVG document (it can also be put inline into HTML).
    public var svg: String {
        let layout = WeeklyChartLayout(self)
        var out = SVGWriter()
        out.open(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", "\(layout.width)"), ("height", "\(layout.height)"),
                ("viewBox", "0 0 \(layout.width) \(layout.height)"), ("role", "figure"),
                ("aria-labelledby", "\(idPrefix)-title \(idPrefix)-desc"), ("font-family", "sans-serif"),
                ("data-from", from), ("data-to", to), ("data-scale-max", SVGWriter.number(layout.scaleMax)),
            ])
        out.element("title", [("id", "\(idPrefix)-title")], text: title)
        out.element("desc", [("id", "\(idPrefix)-desc")], text: summary)
        out.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        out.element(
            "text", [("x", "\(layout.left)"), ("y", "28"), ("font-size", "18"), ("font-weight", "bold")], text: title)
        out.element(
            "text", [("x", "\(layout.left)"), ("y", "48"), ("font-size", "12"), ("fill", "#333333")],
            text: subtitle)
        drawLegend(&out, layout)
        for index in series.indices { drawRow(&out, layout, index) }
        drawDayAxis(&out, layout)
        out.close("svg")
        return out.text
    }

    /// The line under the title.
    var subtitle: String {
        "\(from) … \(to): each row groups the same days into weeks its own way; bars span their days"
    }

    /// What the picture shows, in words (its `<desc>`).
    var summary: String {
        let rows = series.map { "\($0.name) (\($0.weeks.count) weeks)" }.joined(separator: ", ")
        return "Bar chart of value per visit per week from \(from) to \(to), one row of bars per grouping: \(rows)."
    }
}

// MARK: - Drawing

extension WeeklyChart {
    private func drawLegend(_ out: inout SVGWriter, _ layout: WeeklyChartLayout) {
        out.open("g", [("class", "legend"), ("font-size", "12")])
        for (index, entry) in layout.legend.enumerated() {
            out.element(
                "rect",
                [("x", "\(entry.x)"), ("y", "62"), ("width", "12"), ("height", "12"), ("fill", color(at: index))])
            out.element("text", [("x", "\(entry.x + 16)"), ("y", "72")], text: entry.label)
        }
        out.close("g")
    }

    private func drawRow(_ out: inout SVGWriter, _ layout: WeeklyChartLayout, _ index: Int) {
        let row = layout.rows[index]
        let color = color(at: index)
        let name = series[index].name
        out.open(
            "g",
            [
                ("class", "series"), ("data-series", name), ("data-color", color), ("role", "list"),
                ("aria-label", "\(WeeklyChartLayout.label(of: series[index].grouping)): value per visit by week"),
            ])
        out.element(
            "text",
            [
                ("x", "\(layout.left)"), ("y", "\(row.top + 12)"), ("font-size", "12"), ("font-weight", "bold"),
                ("fill", color),
            ],
            text: WeeklyChartLayout.label(of: series[index].grouping))
        drawValueAxis(&out, layout, row)
        if row.bars.isEmpty {
            out.element(
                "text", [("x", "\(layout.left + 8)"), ("y", "\(row.baseline - 8)"), ("font-size", "12")],
                text: "no rows in these days")
        }
        for bar in row.bars {
            let days = bar.days == 1 ? "1 day" : "\(bar.days) days"
            let text =
                "\(name) week \(bar.week.week) (from \(bar.week.start), \(days) in the report): "
                + "\(SVGWriter.decimal(bar.week.valuePerVisit, 3)) value per visit"
            out.open(
                "rect",
                [
                    ("class", "bar"), ("x", "\(bar.x)"), ("y", SVGWriter.number(bar.y)), ("width", "\(bar.width)"),
                    ("height", SVGWriter.number(bar.height)), ("fill", color), ("shape-rendering", "crispEdges"),
                    ("role", "listitem"), ("aria-label", text), ("data-series", name), ("data-week", bar.week.week),
                    ("data-start", bar.week.start), ("data-days", "\(bar.days)"),
                    ("data-value", "\(bar.week.valuePerVisit)"),
                ])
            out.element("title", [], text: text)
            out.close("rect")
            // Labels only where they fit above and below the bar.
            guard bar.width >= 40 else { continue }
            let middle = "\(bar.x + bar.width / 2)"
            out.element(
                "text",
                [("x", middle), ("y", SVGWriter.number(bar.y - 4)), ("font-size", "10"), ("text-anchor", "middle")],
                text: SVGWriter.decimal(bar.week.valuePerVisit, 2))
            out.element(
                "text",
                [("x", middle), ("y", "\(row.baseline + 14)"), ("font-size", "10"), ("text-anchor", "middle")],
                text: bar.week.week)
        }
        out.close("g")
    }

    private func drawValueAxis(_ out: inout SVGWriter, _ layout: WeeklyChartLayout, _ row: WeeklyChartLayout.Row) {
        let right = layout.left + layout.days * layout.dayWidth
        for step in 0...2 {
            let value = layout.scaleMax * Double(step) / 2
            let y = SVGWriter.number(Double(row.baseline) - value * layout.scale)
            if step > 0 {
                out.element(
                    "line", [("x1", "\(layout.left)"), ("x2", "\(right)"), ("y1", y), ("y2", y), ("stroke", "#dddddd")])
            }
            out.element(
                "text",
                [
                    ("x", "\(layout.left - 6)"), ("y", y), ("font-size", "10"), ("text-anchor", "end"),
                    ("dominant-baseline", "middle"),
                ], text: SVGWriter.decimal(value, 1))
        }
        out.element(
            "line",
            [
                ("x1", "\(layout.left)"), ("x2", "\(layout.left)"),
                ("y1", "\(row.baseline - WeeklyChartLayout.plotHeight)"),
                ("y2", "\(row.baseline)"), ("stroke", "#222222"),
            ])
        out.element(
            "line",
            [
                ("x1", "\(layout.left)"), ("x2", "\(right)"), ("y1", "\(row.baseline)"), ("y2", "\(row.baseline)"),
                ("stroke", "#222222"),
            ])
    }

    private func drawDayAxis(_ out: inout SVGWriter, _ layout: WeeklyChartLayout) {
        let y = layout.axisTop
        out.open("g", [("class", "day-axis"), ("font-size", "10")])
        out.element(
            "line",
            [
                ("x1", "\(layout.left)"), ("x2", "\(layout.left + layout.days * layout.dayWidth)"), ("y1", "\(y)"),
                ("y2", "\(y)"), ("stroke", "#222222"),
            ])
        for offset in 0...layout.days {
            let x = "\(layout.left + offset * layout.dayWidth)"
            let day = layout.first.adding(days: offset)
            let labelled = offset < layout.days && (offset == 0 || day.weekday == 2)
            out.element(
                "line",
                [("x1", x), ("x2", x), ("y1", "\(y)"), ("y2", "\(y + (labelled ? 8 : 4))"), ("stroke", "#222222")])
            if labelled {
                let text = offset == 0 ? day.description : String(day.description.suffix(5))
                out.element("text", [("x", x), ("y", "\(y + 20)")], text: text)
            }
        }
        out.element(
            "text", [("x", "\(layout.left)"), ("y", "\(y + 36)"), ("fill", "#333333")],
            text: "days (labels on Mondays); a bar spans the days of its week within the report")
        out.close("g")
    }
}
