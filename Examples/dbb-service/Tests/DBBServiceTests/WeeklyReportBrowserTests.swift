import DBBTestSupport
import DBBWeeklyReport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import DBBService

/// The weekly report page in a real browser: headless Chromium loads it from the running
/// service, and the bars it drew are checked against the query, in its DOM and in its pixels.
/// Skipped where Chromium (or python3, which decodes the screenshot) is missing, unless
/// `DBB_REQUIRE_CHROMIUM` is set.
@Suite("The weekly report page in Chromium")
struct WeeklyReportBrowserTests {
    @Test("Chromium draws one bar per row of the query, each as tall as its value")
    func chromiumDrawsTheQuery() async throws {
        let directory = try TemporaryDirectory("dbb-service-chromium")
        guard let chromium = try Chromium(directory: directory.url), let python = try Self.python() else { return }
        guard let harness = try ServiceHarness(.sqlite) else { return }
        let (app, manager) = try await harness.instance(live: true)
        let expected = try WeeklyReport.comparison(
            locales: ["en_US", "ru_RU", "de_DE"], in: manager, from: "2010-12-13", to: "2011-01-16")
        try await app.test(.live) { client in
            let url = "http://127.0.0.1:\(try #require(client.port))\(WeeklyReportPageTests.query)"
            // The DOM the browser built: the bars, their values and their geometry.
            let dom = try await chromium.dom(url)
            let bars = try ChartBar.all(in: dom)
            ChartBar.expect(bars, draw: expected, days: 35)
            #expect(bars.count == expected.map(\.weeks.count).reduce(0, +))
            let size = try #require(dom.firstMatch(of: /<svg[^>]*\bwidth="(\d+)" height="(\d+)"/))
            let (width, height) = (Int(size.output.1)!, Int(size.output.2)!)

            // The pixels it drew: down the middle of each bar, a run of the bar's colour as
            // tall as the bar (within antialiasing), so heights in pixels follow the values.
            let png = try await chromium.screenshot(
                url, width: width + 2 * WeeklyReportPage.chartLeft, height: height + 64)
            let screenshot = try Screenshot(png: png, python: python)
            let (left, top) = (WeeklyReportPage.chartLeft, 16)
            var runs: [(ChartBar, Int)] = []
            for bar in bars {
                let run = screenshot.longestRun(
                    of: bar.color, x: left + Int(bar.x + bar.width / 2), top: top + Int(bar.y) - 4,
                    bottom: top + Int(bar.y + bar.height) + 4)
                #expect(abs(Double(run) - bar.height) <= 2, "\(bar.series) \(bar.week): \(run) px for \(bar.height)")
                runs.append((bar, run))
            }
            let pixelsPerUnit = Double(runs[0].1) / runs[0].0.value
            for (bar, run) in runs {
                #expect(
                    abs(Double(run) - bar.value * pixelsPerUnit) <= 3,
                    "\(bar.series) \(bar.week): \(run) px, not proportional to \(bar.value)")
            }
            let (tallest, shortest) = (runs.max { $0.0.value < $1.0.value }!, runs.min { $0.0.value < $1.0.value }!)
            #expect(tallest.1 > shortest.1, "the largest value has the tallest bar on screen")
        }
    }

    /// python3, or `nil` (a skip) where it is missing; with `DBB_REQUIRE_CHROMIUM`, an error.
    static func python() throws -> URL? {
        if let python = Screenshot.python() { return python }
        if ProcessInfo.processInfo.environment["DBB_REQUIRE_CHROMIUM"] != nil {
            throw Screenshot.Failure(description: "python3 not found on PATH, and DBB_REQUIRE_CHROMIUM is set")
        }
        print("Skipping the browser test: python3 not found (apt-get install python3)")
        return nil
    }
}
