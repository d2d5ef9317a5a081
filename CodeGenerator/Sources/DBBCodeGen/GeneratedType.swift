@_spi(DBBBackend) import DBBBuilder
import DBBFormat

/// A property's type as the generator writes it, and what it had to change of the type the
/// class that wrote the column declared.
struct GeneratedType: Equatable {
    var type: PropertyType
    var isJSON = false
    /// The type names of the writing class that the generated class cannot see (an enum, a
    /// `Codable` struct), replaced by their storage's type or ``StoredJSON``.
    var replaced: [String] = []

    /// The comment that says so, or `nil`.
    var comment: String? {
        replaced.isEmpty ? nil : "was \(replaced.joined(separator: ", ")) in the class that wrote it"
    }
}

extension SchemaCatalog.Entry {
    /// The Swift type of the scalar a storage holds (`int`: `Int`, `stringArray`: `String`), or `nil`.
    static func scalarType(ofStorage storage: String) -> String? {
        switch storage {
        case "bool", "boolArray": "Bool"
        case "int", "intArray": "Int"
        case "float", "floatArray": "Double"
        case "string", "stringArray": "String"
        case "date", "dateArray": "Date"
        case "decimal", "decimalArray": "Decimal"
        case "uuid", "uuidArray": "UUID"
        case "binary": "Data"
        default: nil
        }
    }

    /// The referenced class of a `dbbObject(Person)` or `dbbObjectArray(Person)` storage.
    var referencedClass: String? {
        for prefix in ["dbbObject(", "dbbObjectArray("] where storage.hasPrefix(prefix) && storage.hasSuffix(")") {
            return String(storage.dropFirst(prefix.count).dropLast())
        }
        return nil
    }

    /// The type to generate for this property: the recorded type where the generated class can
    /// spell it; a reference to the class generated for its target table; the raw storage type
    /// (`String`, `Int`) for an enum or a value type of the writing class's own; ``StoredJSON``
    /// for a `Codable` type stored as JSON. `nil` when the recorded type cannot be read.
    func generatedType(className: (String) -> String) -> GeneratedType? {
        guard let recorded = PropertyType.parse(swiftType) else { return nil }
        var replaced: [String] = []
        let known = DBBFormat.columnTypeNames.union(["Data"])
        let isJSON = storage == "json"
        let target = referencedClass.map { name in targetTable.map(className) ?? name }
        let scalar = Self.scalarType(ofStorage: storage)
        func leaf(_ name: String) -> PropertyType {
            if let target { return .named(target) }
            if isJSON {
                if known.contains(name) { return .named(name) }
                replaced.append(name)
                return .named(StoredJSON.typeName)
            }
            if known.contains(name), DeclaredStorageCheck.agrees(name, storage: storage) { return .named(name) }
            guard let scalar else { return .named(name) }
            replaced.append(name)
            return .named(scalar)
        }
        func map(_ type: PropertyType) -> PropertyType {
            switch type {
            case .named(let name): leaf(name)
            case .optional(let wrapped): .optional(map(wrapped))
            case .array(let element): .array(map(element))
            case .dictionary(let key, let value): .dictionary(map(key), map(value))
            }
        }
        let type = map(recorded)
        if type.unstorableReason != nil && !isJSON { return nil }
        return GeneratedType(type: type, isJSON: isJSON, replaced: replaced)
    }
}

/// Whether a known type name is one a storage holds (`Int8` for `int`, `URL` for `string`).
enum DeclaredStorageCheck {
    static func agrees(_ name: String, storage: String) -> Bool {
        let base = storage.hasSuffix("Array") ? String(storage.dropLast(5)) : storage
        switch base {
        case "bool": return name == "Bool"
        case "int": return name.hasPrefix("Int") || name.hasPrefix("UInt")
        case "float": return name == "Double" || name == "Float"
        case "string": return name == "String" || name == "URL"
        case "date": return name == "Date"
        case "decimal": return name == "Decimal"
        case "uuid": return name == "UUID"
        case "binary": return name == "Data"
        default: return false
        }
    }
}
