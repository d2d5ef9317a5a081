import DBBLocale
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// JSON out: one encoder configuration for the whole service (dates as ISO 8601 text to the
/// millisecond, keys sorted).
enum JSONResponse {
    static func make(_ status: HTTPResponse.Status, _ value: some Encodable, headers: HTTPFields = [:]) throws
        -> Response
    {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISODate.format(date))
        }
        encoder.outputFormatting = [.sortedKeys]
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(data: try encoder.encode(value)))
        )
    }
}

/// ISO 8601 date-times, read with or without fractional seconds and written to the
/// millisecond: the one format of bodies, responses and query parameters.
enum ISODate {
    /// The date-time `text` names; `nil` for anything else, a day that does not exist
    /// (2020-02-30, which the formatter alone would roll over into March), or a time outside
    /// years 1…9999 in UTC, to the millisecond (`9999-12-31T23:59:59-01:00` is in year 10000
    /// there, and would be answered as `10000-01-01T00:59:59.000Z`, which no client, and not
    /// this parser, reads as a date-time).
    static func parse(_ text: String) -> Date? {
        guard text.count > 10, isDay(text.prefix(10)), text.dropFirst(10).first == "T" else { return nil }
        let formatter = ISO8601DateFormatter()
        var date = formatter.date(from: text)
        if date == nil {
            formatter.formatOptions.insert(.withFractionalSeconds)
            date = formatter.date(from: text)
        }
        guard let date, writable.contains(milliseconds(date)) else { return nil }
        return date
    }

    /// The milliseconds since 2001 that ``format(_:)`` writes with a four-digit year:
    /// 0001-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z.
    private static let writable: ClosedRange<Double> = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        let first = formatter.date(from: "0001-01-01T00:00:00.000Z")!
        let last = formatter.date(from: "9999-12-31T23:59:59.999Z")!
        return milliseconds(first)...milliseconds(last)
    }()

    /// `date` in whole milliseconds since 2001, rounded to the nearest.
    private static func milliseconds(_ date: Date) -> Double {
        (date.timeIntervalSinceReferenceDate * 1000 + 0.5).rounded(.down)
    }

    /// `date` to the millisecond, in UTC. A format style (a value, made once), not an
    /// `ISO8601DateFormatter` made per date: that made an ICU formatter each time, a quarter of
    /// the service's CPU under load.
    static func format(_ date: Date) -> String {
        // Rounded to the nearest millisecond (as the formatter did; the style truncates),
        // then a tenth of one later, so the truncation cannot fall a floating-point step short.
        Date(timeIntervalSinceReferenceDate: milliseconds(date) / 1000 + 0.0001).formatted(writing)
    }

    private static let writing = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static let example = "2026-11-23T09:30:00Z"

    /// Whether `text` is a day as `yyyy-MM-dd` that exists, in years 1…9999.
    static func isDay(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1,
            (1...12).contains(month), day >= 1
        else { return false }
        let length =
            switch month {
            case 2: DBBDay.isLeap(year) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        return day <= length
    }
}
