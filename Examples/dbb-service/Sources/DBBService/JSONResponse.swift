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
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.string(from: date)
    }

    static let example = "2026-11-23T09:30:00Z"
}
