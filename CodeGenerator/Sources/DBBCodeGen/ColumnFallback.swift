@_spi(DBBBackend) import DBBBuilder
import DBBFormat
import Foundation

/// The Swift type of a column that no catalog row describes (a file DBBBuilder wrote on iOS,
/// a table of other SQL), from its declared type, by the rules registration judges columns by
/// (the backend's ``DBBDialect``): DBBBuilder's own spelling first (`Boolean`, `Integer`,
/// `Real`, `Text`; `bigint`, `double precision`, `text`, `numeric`, `uuid`, `jsonb`), then any
/// type whose column gives an `Int`, `Double` or `String` back as stored (`VARCHAR(20)`,
/// `integer`).
enum ColumnFallback {
    /// Storage types of a column of the object's table, in the order a declared type is tried:
    /// `Integer` before `Boolean` where both are `bigint` (PostgreSQL), `Text` as `String`.
    private static let columnStorages: [(DBBStorageType, String)] = [
        (.int, "Int"), (.float, "Double"), (.string, "String"), (.bool, "Bool"), (.decimal, "Decimal"),
        (.uuid, "UUID"), (.json, StoredJSON.typeName),
    ]

    /// The element types of a join table's value column, in the same order.
    private static let joinStorages: [(DBBStorageType, String)] = [
        (.intArray, "Int"), (.floatArray, "Double"), (.stringArray, "String"), (.boolArray, "Bool"),
        (.dateArray, "Date"), (.decimalArray, "Decimal"), (.uuidArray, "UUID"), (.binary, "Data"),
    ]

    /// The type of a column declared `declared`, `nil` when no property type holds it in the
    /// object's table (a `BLOB`: `Data` lives in a join table). `isJSON` for PostgreSQL's `jsonb`.
    static func columnType(_ declared: String, _ dialect: any DBBDialect) -> (name: String, isJSON: Bool)? {
        if let exact = columnStorages.first(where: { dialect.columnType($0.0).lowercased() == declared.lowercased() }) {
            return (exact.1, exact.0.description == "json")
        }
        // A column of both kinds of numbers (SQLite's NUMERIC affinity) reads as Double.
        let holding = columnStorages.prefix(3).filter { dialect.holds($0.0, declaredType: declared) }
        return holding.count > 1 ? ("Double", false) : holding.first.map { ($0.1, false) }
    }

    /// The element type of a join table's value column declared `declared` (`Data` for a
    /// `BLOB`), or `nil`.
    static func elementType(_ declared: String, _ dialect: any DBBDialect) -> String? {
        if let exact = joinStorages.first(where: { dialect.columnType($0.0).lowercased() == declared.lowercased() }) {
            return exact.1
        }
        return joinStorages.prefix(3).first { dialect.holds($0.0, declaredType: declared) }?.1
    }

    /// Whether a column's name says it holds a date or time (`startDate`, `created_at`,
    /// `timestamp`): a real there may be seconds since 2001, which only a catalog can tell.
    static func soundsLikeDate(_ column: String) -> Bool {
        let lower = column.lowercased()
        return ["date", "time", "day", "timestamp"].contains { lower.hasSuffix($0) || lower.hasPrefix($0) }
            || column.hasSuffix("At") || lower.hasSuffix("_at")
    }

    // MARK: - Defaults

    /// A `DEFAULT` constant as a Swift literal of `type` (`5`, `"none"`, `true`,
    /// `Date(timeIntervalSinceReferenceDate: 0)`), or `nil` when it is none of that type.
    static func literal(_ constant: DefaultConstant, for type: PropertyType) -> String? {
        guard case .named(let name) = type else { return nil }
        let text: String
        switch constant {
        case .null: return nil
        case .boolean(let value): return name == "Bool" ? String(value) : nil
        case .number(let value), .text(let value): text = value
        }
        switch name {
        case "Bool":
            return ["0": "false", "1": "true", "t": "true", "f": "false"][text.lowercased()]
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
            guard let value = Int64(text), name.hasPrefix("Int") || value >= 0 else { return nil }
            return String(value)
        case "Double", "Float":
            guard let value = Double(text), value.isFinite else { return nil }
            return text.contains(".") || text.lowercased().contains("e") ? text : "\(text).0"
        case "String":
            return SwiftText.literal(text)
        case "Date":
            guard let seconds = Double(text), seconds.isFinite else { return nil }
            return "Date(timeIntervalSinceReferenceDate: \(text))"
        case "Decimal":
            guard Decimal(string: text) != nil else { return nil }
            return "Decimal(string: \(SwiftText.literal(text)))!"
        case "UUID":
            guard UUID(uuidString: text) != nil else { return nil }
            return "UUID(uuidString: \(SwiftText.literal(text)))!"
        case "URL":
            guard URL(string: text) != nil else { return nil }
            return "URL(string: \(SwiftText.literal(text)))!"
        default:
            return nil
        }
    }
}
