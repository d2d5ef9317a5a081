import DBBBuilder
import Foundation

/// A row of the differential test (``TypedReportDifferentialTests``): numbers with negatives
/// and `NULL`s, Int64's extremes (in `big`, which no query sums), hostile texts, and dates over
/// decades, around New Years and the days clocks change.
@DBBTable
final class Sample: DBBTableObject {
    /// -1000…1000: summed, so that no sum can overflow.
    var amount = 0
    /// Any Int64, the extremes included: compared, never summed.
    var big = 0
    var score: Int?
    /// -1e6…1e6 with fractions, `-0.0` among them.
    var ratio = 0.0
    var weight: Double?
    /// Quotes, `%`, `_`, `\`, GLOB's `*?[`, non-ASCII, empty, `NULL`.
    var label: String?
    /// One of ``DifferentialFixture/kinds``: few values, case differing.
    var kind = ""
    var flag = false
    var day: Date?
}

/// SplitMix64: the same numbers for the same seed on every platform and run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `true` with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// One of `choices`.
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
}

/// The rows of the differential test, made from a seed.
enum DifferentialFixture {
    /// The seed: `DBB_DIFF_SEED` when set (to try others), else a fixed one.
    static let seed: UInt64 = ProcessInfo.processInfo.environment["DBB_DIFF_SEED"].flatMap { UInt64($0) } ?? 52

    static let kinds = ["a", "b", "c", "A"]

    /// Texts that have broken SQL before: quotes, LIKE's and GLOB's wildcards, escapes,
    /// placeholders, non-ASCII (combining marks, astral characters), white space, empty.
    static let hostileTexts = [
        "O'Brien", "'; DROP TABLE \"Sample\"; --", "100%", "a_b", "%", "_", "\\", "\\%", "a\\", "[x]", "*?", "]^-",
        "$1", "?1", ":name", "ü", "Ünïcödé", "日本語", "e\u{301}", "é", "😀x", "", " ", "tab\tnew\nline", "A", "a",
        "ß", "SS", "x' OR '1'='1",
    ]

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `count` readings, unsaved.
    static func samples(_ count: Int, _ random: inout SeededRandom, _ manager: DBBManager) -> [Sample] {
        (0..<count).map { _ in
            let sample = Sample(dbManager: manager)
            sample.amount = Int.random(in: -1000...1000, using: &random)
            sample.big =
                random.chance(15)
                ? random.pick([Int.min, Int.min + 1, Int.max, Int.max - 1, 0, -1, 1])
                : Int(truncatingIfNeeded: random.next())
            sample.score = random.chance(25) ? nil : Int.random(in: -50...50, using: &random)
            sample.ratio =
                random.chance(3)
                ? -0.0 : (Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &random)) / 1000)
            sample.weight =
                random.chance(30)
                ? nil
                : random.chance(5)
                    ? random.pick([0.0, -0.0, Double.leastNonzeroMagnitude, 1e-300])
                    : Double.random(in: -10...10, using: &random)
            sample.label = random.chance(15) ? nil : label(&random)
            sample.kind = random.pick(kinds)
            sample.flag = random.chance(50)
            sample.day = random.chance(8) ? nil : day(&random)
            return sample
        }
    }

    private static func label(_ random: inout SeededRandom) -> String {
        if random.chance(60) { return random.pick(hostileTexts) }
        let pieces = ["a", "B", "%", "_", "\\", "'", "ü", "x", "Z", "日", "e\u{301}", "*", "["]
        return (0..<Int.random(in: 1...5, using: &random)).map { _ in random.pick(pieces) }.joined()
    }

    /// A date: anywhere from 1970 to 2040; or in the two weeks around a New Year; or within a
    /// day of a change of clocks in Europe or the US — at any second, fractions included.
    private static func day(_ random: inout SeededRandom) -> Date {
        let year = Int.random(in: 1970...2040, using: &random)
        let base: Date
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            base = utc.date(from: DateComponents(year: year, month: 1, day: 1))!
            return base + Double.random(in: 0..<(366 * 86_400), using: &random)
        case 1:
            base = utc.date(from: DateComponents(year: year, month: 12, day: 25))!
            return base + Double.random(in: 0..<(14 * 86_400), using: &random)
        default:
            // Europe: last Sundays of March and October; US: second Sunday of March, first of November.
            let (month, sunday) = random.pick([(3, -1), (10, -1), (3, 2), (11, 1)])
            let sundays = sundays(year: year, month: month)
            return sundays[sunday < 0 ? sundays.count - 1 : sunday - 1]
                + Double.random(in: -86_400...86_400, using: &random)
        }
    }

    /// The Sundays, 00:00 UTC, of a month.
    private static func sundays(year: Int, month: Int) -> [Date] {
        let first = utc.date(from: DateComponents(year: year, month: month, day: 1))!
        let skip = (8 - utc.component(.weekday, from: first)) % 7
        return stride(from: skip, to: utc.range(of: .day, in: .month, for: first)!.count, by: 7).map {
            first + Double($0 * 86_400)
        }
    }
}
