import DBBWeeklyReport
import Foundation

/// The weekly report as an HTML page: a heading, the chart inline (``WeeklyChart``), and a
/// table of the same numbers, one row per week of each grouping. Every text is escaped.
struct WeeklyReportPage {
    let series: [WeeklySeries]
    let from: String
    let to: String

    /// The chart's left edge on the page, in CSS pixels (the body's padding): where a test
    /// finds the bars in a screenshot.
    static let chartLeft = 24

    var html: String {
        let chart = WeeklyChart(series: series, from: from, to: to)
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(Markup.escape("\(chart.title), \(from) … \(to)"))</title>
            <style>
            body { margin: 0; padding: 16px \(Self.chartLeft)px; font-family: sans-serif; color: #222; }
            figure { margin: 0 0 24px 0; }
            svg { display: block; }
            table { border-collapse: collapse; }
            th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; }
            </style>
            </head>
            <body>
            <figure>

            """
        html += chart.svg
        html += """
            <figcaption>Value per visit (SUM(value) / SUM(visits) of the seed's Usage objects) by week, \
            \(Markup.escape(from)) … \(Markup.escape(to)). The table below has the same numbers.</figcaption>
            </figure>
            <table id="weekly-report-table">
            <caption>Value per visit by week</caption>
            <thead><tr><th scope="col">Grouping</th><th scope="col">Week</th><th scope="col">First day</th>\
            <th scope="col">Value per visit</th></tr></thead>
            <tbody>

            """
        for series in series {
            for week in series.weeks {
                let cells = [series.name, week.week, week.start].map { "<td>\(Markup.escape($0))</td>" }.joined()
                html += "<tr data-series=\"\(Markup.escape(series.name))\">\(cells)"
                html += "<td class=\"number\" data-value=\"\(week.valuePerVisit)\">"
                html += "\(Markup.escape(String(format: "%.3f", week.valuePerVisit)))</td></tr>\n"
            }
        }
        html += "</tbody>\n</table>\n</body>\n</html>\n"
        return html
    }

}
