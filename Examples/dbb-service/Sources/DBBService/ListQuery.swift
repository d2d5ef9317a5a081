import DBBBuilder
import Hummingbird

/// A list request's query parameters as query options: filters, `sort`, `limit`, `offset`.
/// Any other parameter, or a value that does not parse, is refused naming it.
struct ListQuery {
    static let defaultLimit = 50
    static let maximumLimit = 500

    let options: DBBQueryOptions
    let limit: Int
    let offset: Int

    init(_ parameters: Parameters, filters: [String: Filter], sortable: Set<String>) throws {
        var options = DBBQueryOptions()
        var conditions: [String] = []
        var arguments: [SQLiteValue] = []
        var (limit, offset) = (Self.defaultLimit, 0)
        let known = filters.keys + ["sort", "limit", "offset"]
        for (name, value) in try QueryParameters.unique(parameters, known: known, of: "this list") {
            switch name {
            case "limit":
                guard let number = Int(value), (1...Self.maximumLimit).contains(number) else {
                    throw APIError.badRequest("limit", "expected a whole number from 1 to \(Self.maximumLimit)")
                }
                limit = number
            case "offset":
                guard let number = Int(value), number >= 0 else {
                    throw APIError.badRequest("offset", "expected a whole number, 0 or more")
                }
                offset = number
            case "sort":
                options.sorting = try Self.sorting(value, sortable)
            default:
                let filter = filters[name]!
                guard let argument = filter.parse(value) else {
                    throw APIError.badRequest(name, "expected \(filter.expected)")
                }
                conditions.append(filter.condition)
                arguments.append(argument)
            }
        }
        if !conditions.isEmpty {
            options.conditions = conditions
            options.arguments = arguments
        }
        (options.limit, options.offset) = (limit, offset)
        (self.options, self.limit, self.offset) = (options, limit, offset)
    }

    /// `lastName,-age` → `["lastName ASC", "age DESC"]`.
    private static func sorting(_ value: Substring, _ sortable: Set<String>) throws -> [String] {
        let allowed = sortable.union(["id", "createdTime", "modifiedTime"])
        return try value.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let descending = item.hasPrefix("-")
            let name = String(descending ? item.dropFirst() : item)
            guard allowed.contains(name) else {
                throw APIError.badRequest(
                    "sort", "'\(name)' is not sortable (sortable: \(allowed.sorted().joined(separator: ", ")))")
            }
            return "\(name) \(descending ? "DESC" : "ASC")"
        }
    }
}

/// Query parameters, each known and given once.
enum QueryParameters {
    /// `parameters` in order, as strings.
    /// - Throws: ``APIError`` (400) naming a parameter that is not in `known`, or given twice.
    static func unique(_ parameters: Parameters, known: [String], of what: String) throws -> [(String, Substring)] {
        var seen: Set<String> = []
        return try parameters.map { name, value in
            let name = String(name)
            guard known.contains(name) else {
                let list = known.sorted().joined(separator: ", ")
                throw APIError.badRequest(
                    name.isEmpty ? "query" : name, "not a parameter of \(what) (parameters: \(list))")
            }
            guard seen.insert(name).inserted else { throw APIError.badRequest(name, "given twice") }
            return (name, value)
        }
    }
}
