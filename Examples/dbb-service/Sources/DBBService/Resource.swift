import DBBBuilder
import Foundation

/// One kind of record the API serves (people, companies…): its table-object class, the JSON
/// body a create or replace sends, the JSON it answers, and what its list can filter and sort
/// by. ``ResourceRoutes`` turns it into endpoints.
protocol Resource: Sendable {
    associatedtype Model: DBBTableObject
    associatedtype Body: RequestBody
    associatedtype Representation: Encodable & Sendable

    /// The path of the collection: `people`.
    static var path: String { get }
    /// A record's name in messages: `person`.
    static var name: String { get }
    /// The list's filters: query parameter → condition on the model.
    static var filters: [String: Filter] { get }
    /// The properties a list may sort by, besides `id`, `createdTime` and `modifiedTime`.
    static var sortable: Set<String> { get }
    /// Checks `body` and copies it into `model` (new, or fetched for a replace), fetching the
    /// records its ids name.
    /// - Throws: ``APIError`` naming the field that is invalid or names no record.
    static func apply(_ body: Body, to model: Model, manager: DBBManager) async throws
    static func represent(_ model: Model) -> Representation
}

/// A list filter: the condition it adds (one `?`), and how its query value is read.
struct Filter: Sendable {
    let condition: String
    let expected: String
    let parse: @Sendable (Substring) -> SQLiteValue?

    static func text(_ condition: String) -> Filter {
        Filter(condition: condition, expected: "text without NUL characters") {
            $0.contains("\0") ? nil : .text(String($0).precomposedStringWithCanonicalMapping)
        }
    }

    static func integer(_ condition: String) -> Filter {
        Filter(condition: condition, expected: "a whole number") { Int64($0).map(SQLiteValue.integer) }
    }

    static func number(_ condition: String) -> Filter {
        Filter(condition: condition, expected: "a decimal number") { text in
            guard text.allSatisfy({ "0123456789.-+eE".contains($0) }) else { return nil }
            return Double(text).flatMap { $0.isFinite ? .real($0) : nil }
        }
    }

    /// A date-time compared with a `Date` property (stored as seconds since 2001).
    static func date(_ condition: String) -> Filter {
        Filter(condition: condition, expected: "an ISO 8601 date-time such as \(ISODate.example)") { text in
            ISODate.parse(String(text)).map { .real($0.timeIntervalSinceReferenceDate) }
        }
    }
}

/// Records a body names by id: fetched in one query per field, each missing id named.
enum References {
    /// The record `id` names, `nil` for `nil`.
    /// - Throws: ``APIError`` (422) naming `field` when there is no such record.
    static func one<T: DBBTableObject>(_ type: T.Type, _ id: Int64?, field: String, manager: DBBManager) async throws
        -> T?
    {
        guard let id else { return nil }
        return try await all(type, [id], field: field, indexed: false, manager: manager).first
    }

    /// The records `ids` name, in their order; a missing one is named `field[index]`, or `field`
    /// when not `indexed` (a to-one reference).
    static func all<T: DBBTableObject>(
        _ type: T.Type, _ ids: [Int64], field: String, indexed: Bool = true, manager: DBBManager
    ) async throws -> [T] {
        guard !ids.isEmpty else { return [] }
        let found = try await T.instances(ids: ids, manager: manager)
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try ids.enumerated().map { index, id in
            guard let record = byID[id] else {
                let name = indexed ? "\(field)[\(index)]" : field
                throw APIError(
                    .unprocessableContent, "\(name): \(String(describing: T.self).lowercased()) \(id) does not exist",
                    field: name)
            }
            return record
        }
    }
}

/// Checks of a body's values, each naming its field.
public enum Check {
    /// The largest number of items of an array field (nicknames, tags, participants): each is
    /// a join row, written one by one.
    public static let maximumItems = 100

    /// The most characters (Unicode scalars) of a name: at most 1,000 bytes of UTF-8, so that a
    /// name fits the database's indexes — PostgreSQL refuses an index entry over about 2,700
    /// bytes (a person's two names share one index).
    public static let maximumNameLength = 250

    /// `value` without invisible characters (zero-width spaces, soft hyphens, byte-order marks),
    /// trimmed of spaces and in Unicode's composed form — so that "dup", "dup\u{200B}" and a
    /// decomposed "Ü" are not three names — refused when nothing is left, or when more than
    /// ``maximumNameLength`` characters are.
    static func notBlank(_ value: String, _ field: String) throws -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: value.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint })
        let text = String(scalars).trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !text.isEmpty else {
            throw APIError(.unprocessableContent, "\(field): must not be empty or invisible", field: field)
        }
        let length = text.unicodeScalars.count
        guard length <= maximumNameLength else {
            throw APIError(
                .unprocessableContent, "\(field): \(length) characters; at most \(maximumNameLength)", field: field)
        }
        return text
    }

    /// `items`, refused when there are more than ``maximumItems``.
    static func items<T>(_ items: [T], _ field: String) throws -> [T] {
        guard items.count <= maximumItems else {
            throw APIError(
                .unprocessableContent, "\(field): \(items.count) items; at most \(maximumItems)", field: field)
        }
        return items
    }

    static func range<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ field: String) throws -> T {
        guard range.contains(value) else {
            throw APIError(
                .unprocessableContent, "\(field): \(value) is outside \(range.lowerBound)…\(range.upperBound)",
                field: field)
        }
        return value
    }
}
