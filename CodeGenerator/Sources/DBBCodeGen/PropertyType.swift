import DBBFormat
import Foundation

/// The Swift type of a table-object property, as the generator understands it.
public indirect enum PropertyType: Hashable, Sendable, CustomStringConvertible {
    /// A plain type name: `String`, `Int`, `Date`, or a table-object class such as `Person`.
    case named(String)
    /// `T?`
    case optional(PropertyType)
    /// `[T]`
    case array(PropertyType)
    /// `[K: V]`: stored only as JSON (`@JSON`).
    case dictionary(PropertyType, PropertyType)

    /// The types stored in a column of the object's table.
    static let columnTypes = DBBFormat.columnTypeNames

    public var description: String {
        switch self {
        case .named(let name): name
        case .optional(let wrapped): "\(wrapped)?"
        case .array(let element): "[\(element)]"
        case .dictionary(let key, let value): "[\(key): \(value)]"
        }
    }

    /// The type without one level of `Optional`.
    var unwrapped: PropertyType {
        if case .optional(let wrapped) = self { wrapped } else { self }
    }

    var isOptional: Bool {
        if case .optional = self { true } else { false }
    }

    /// Why a DBBPropertyPersistence cannot map this type, or `nil` when it can: scalars
    /// (`Decimal`, `UUID` and `URL` among them) and their optionals, `Data` and `Data?`, arrays
    /// of scalars (optional or not), optional references to table objects and arrays of them.
    /// (An enum is written with its default case, `= .draft`, and a value stored as JSON is
    /// marked `@JSON`: ``DeclarationParser`` lets both through.)
    var unstorableReason: String? {
        switch self {
        case .named(let name):
            if Self.columnTypes.contains(name) || name == "Data" { return nil }
            return Self.isClassName(name)
                ? "a reference to \(name) must be optional (\(name)?) or an array ([\(name)]); an enum is written "
                    + "with its default case (= .someCase), a Codable value marked @JSON"
                : "\(name) cannot be stored (use Bool, integers, Double, Float, String, Date, Decimal, UUID, URL, "
                    + "Data, arrays of those, enums, or table objects; mark a Codable value @JSON)"
        case .dictionary, .optional(.dictionary):
            return "\(self) is a dictionary, which no column stores: mark it @JSON to store it as JSON"
        case .optional(.named(let name)):
            if Self.columnTypes.contains(name) || name == "Data" || Self.isClassName(name) { return nil }
            return "\(name) cannot be stored"
        case .array(.named(let name)), .optional(.array(.named(let name))):
            if Self.columnTypes.contains(name) || Self.isClassName(name) { return nil }
            return "arrays of \(name) cannot be stored"
        default:
            return "\(self) cannot be stored (nested optionals and arrays are not supported)"
        }
    }

    /// A name that can only be a table-object class: capitalized, not a known Swift or
    /// Foundation value type.
    static func isClassName(_ name: String) -> Bool {
        let notClasses: Set<String> = [
            "Data", "URL", "UUID", "Decimal", "Character", "CGFloat", "CGPoint", "CGSize",
            "CGRect", "NSNumber", "Any", "AnyObject", "Dictionary", "Set", "Array", "Optional",
        ]
        guard let first = name.first, first.isUppercase, !notClasses.contains(name), !columnTypes.contains(name) else {
            return false
        }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// The default value a generated non-optional property starts with.
    var defaultValue: String? {
        switch self {
        case .optional: nil
        case .array: "[]"
        case .named(let name):
            switch name {
            case "Bool": "false"
            case "String": "\"\""
            case "Double", "Float": "0"
            case "Date": "Date()"
            case "Data": "Data()"
            case "UUID": "UUID()"
            case "Decimal": "0"
            // No obvious start: DeclarationParser asks for one.
            case "URL": nil
            default: "0"
            }
        case .dictionary: "[:]"
        }
    }

    /// Parses Swift type syntax: `String?`, `[Int]`, `[Person]?`, `Int!`, `Array<Date>`,
    /// `Optional<Data>`, `Dictionary<String, Int>`, `Swift.String`. `nil` when it is not type syntax.
    public static func parse(_ text: String) -> PropertyType? {
        var text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.hasSuffix("?") || text.hasSuffix("!") {
            text.removeLast()
            return parse(text).map { .optional($0) }
        }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = String(text.dropFirst().dropLast())
            // A dictionary (stored only as JSON): its key a plain name.
            if let colon = inner.firstIndex(of: ":") {
                guard let key = parse(String(inner[..<colon])), case .named = key,
                    let value = parse(String(inner[inner.index(after: colon)...]))
                else { return nil }
                return .dictionary(key, value)
            }
            return parse(inner).map { .array($0) }
        }
        // `Dictionary<String, Int>`, as a mapping records a dictionary's type.
        if text.hasPrefix("Dictionary<"), text.hasSuffix(">") {
            let inner = text.dropFirst("Dictionary<".count).dropLast()
            var depth = 0
            guard
                let comma = inner.firstIndex(where: { character in
                    if character == "<" || character == "[" { depth += 1 }
                    if character == ">" || character == "]" { depth -= 1 }
                    return character == "," && depth == 0
                }),
                let key = parse(String(inner[..<comma])), case .named = key,
                let value = parse(String(inner[inner.index(after: comma)...]))
            else { return nil }
            return .dictionary(key, value)
        }
        for (prefix, make) in [("Array<", { PropertyType.array($0) }), ("Optional<", { PropertyType.optional($0) })]
        where text.hasPrefix(prefix) && text.hasSuffix(">") {
            return parse(String(text.dropFirst(prefix.count).dropLast())).map(make)
        }
        if text.hasPrefix("Swift.") { text.removeFirst(6) }
        if text.hasPrefix("Foundation.") { text.removeFirst(11) }
        guard let first = text.first, first.isLetter || first == "_",
            text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return .named(text)
    }
}
