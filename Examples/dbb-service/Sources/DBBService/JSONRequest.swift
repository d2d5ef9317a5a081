import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The body of a request, read up to a size limit and decoded, every failure named.
enum JSONRequest {
    /// Decodes `T` from the body: too large → 413; declared as something else than JSON → 415;
    /// not JSON, not an object, an unknown key, a missing or mistyped field, a NUL character
    /// (which PostgreSQL cannot store) → 400 naming it.
    static func decode<T: RequestBody>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        if let type = request.headers[.contentType], !isJSON(type) {
            throw APIError(
                .unsupportedMediaType, "Content-Type: expected application/json, not \(type)", field: "Content-Type")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await withDeadline(bodyTimeout) { try await request.body.collect(upTo: limit) }
        } catch is DeadlineExceeded {
            throw APIError(.requestTimeout, "the body did not arrive within \(bodyTimeout)", field: "body")
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "the body is larger than \(limit) bytes", field: "body")
        } catch {
            throw APIError.badRequest("body", "could not be read (\(error))")
        }
        let data = Data(buffer: buffer)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw APIError.badRequest("body", "not valid JSON")
        }
        guard let keys = (object as? [String: Any])?.keys else {
            throw APIError.badRequest("body", "expected a JSON object")
        }
        if let field = nulCharacter(in: object) { throw APIError.badRequest(field, "contains a NUL character") }
        let known = Set(T.CodingKeys.allCases.map(\.stringValue))
        if let unknown = keys.sorted().first(where: { !known.contains($0) }) {
            throw APIError.badRequest(
                unknown, "not a field of this resource (fields: \(known.sorted().joined(separator: ", ")))")
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIError(decoding: error, culprit: { culprit(of: T.self, in: object as? [String: Any] ?? [:]) })
        }
    }

    /// Dates as ISO 8601 text, a bad one named by its field (the decoder's own error for it
    /// carries no path).
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISODate.parse(text) else {
                throw APIError.badRequest(
                    APIError.path(decoder.codingPath), "expected an ISO 8601 date-time such as \(ISODate.example)")
            }
            return date
        }
        return decoder
    }()

    /// How long a body may take to arrive: a client trickling it a byte at a time, each byte
    /// within the idle timeout, is cut off here.
    static let bodyTimeout = Duration.seconds(10)

    private struct DeadlineExceeded: Error {}

    /// `work`'s result, or ``DeadlineExceeded`` once `timeout` has passed (`work` is cancelled).
    private static func withDeadline<T: Sendable>(
        _ timeout: Duration, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw DeadlineExceeded()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// `application/json`, or a `+json` type, with any parameters.
    private static func isJSON(_ contentType: String) -> Bool {
        let media = (contentType.split(separator: ";", omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: .whitespaces).lowercased()
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    /// The path of the first string (value or key) holding U+0000, if any.
    static func nulCharacter(in value: Any, path: String = "") -> String? {
        switch value {
        case let text as String:
            return text.contains("\0") ? (path.isEmpty ? "body" : path) : nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = nulCharacter(in: element, path: "\(path)[\(index)]") { return found }
            }
            return nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let field = path.isEmpty ? key : "\(path).\(key)"
                if key.contains("\0") { return path.isEmpty ? "body" : path }
                if let found = nulCharacter(in: object[key]!, path: field) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    /// The key whose value the decoder could not read when its error names none (a number
    /// too large for its field): the first whose removal makes that error go away.
    private static func culprit<T: RequestBody>(of type: T.Type, in object: [String: Any]) -> String? {
        object.keys.sorted().first { key in
            var rest = object
            rest.removeValue(forKey: key)
            guard let data = try? JSONSerialization.data(withJSONObject: rest) else { return false }
            do {
                _ = try decoder.decode(T.self, from: data)
                return true
            } catch DecodingError.dataCorrupted(let context) {
                return !context.codingPath.isEmpty
            } catch {
                return true
            }
        }
    }
}

/// A JSON request body whose keys are listed (`CodingKeys: CaseIterable`), so that an unknown
/// key is refused rather than ignored.
protocol RequestBody: Decodable, Sendable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension APIError {
    /// A field's path: `participants[2]`, `address.city`.
    static func path(_ keys: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
        (keys + (last.map { [$0] } ?? [])).reduce("") { text, key in
            key.intValue.map { "\(text)[\($0)]" } ?? (text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)")
        }
    }

    /// A decoding failure, naming the field by its path; `culprit` finds the field of an error
    /// that names none.
    init(decoding error: DecodingError, culprit: () -> String?) {
        let path = { (keys: [any CodingKey]) in Self.path(keys) }
        switch error {
        case .keyNotFound(let key, let context):
            self = .badRequest(Self.path(context.codingPath, key), "required")
        case .valueNotFound(let type, let context):
            self = .badRequest(path(context.codingPath), "must not be null (expected \(Self.describe(type)))")
        case .typeMismatch(let type, let context):
            self = .badRequest(path(context.codingPath), "expected \(Self.describe(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self =
                culprit().map { .badRequest($0, "a value this field cannot hold (a number too large?)") }
                ?? .badRequest("body", "could not be read: \(context.debugDescription)")
        case .dataCorrupted(let context):
            self = .badRequest(path(context.codingPath), Self.corruption(context))
        @unknown default:
            self = .badRequest("body", "could not be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is Date.Type: "an ISO 8601 date-time string"
        case is Data.Type: "a base64 string"
        case is Bool.Type: "true or false"
        default: type is any Collection.Type ? "an array" : "\(type)"
        }
    }

    private static func corruption(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription
        if text.contains("fit") || text.contains("Number") { return "a number out of range" }
        if text.contains("Base64") || text.contains("base64") { return "expected a base64 string" }
        return text
    }
}
