import Foundation

/// One property to generate: its name, type, the default written in the source (if any),
/// and the input line it came from.
public struct PropertyDeclaration: Hashable, Sendable {
    public let name: String
    public let type: PropertyType
    /// The default value as written (`0`, `"none"`), or `nil` to use the type's.
    public let defaultValue: String?
    public let line: Int
    /// Whether the value is stored as JSON (`@JSON`): any `Codable` type, in one column.
    public let isJSON: Bool

    public init(name: String, type: PropertyType, defaultValue: String?, line: Int, isJSON: Bool = false) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.line = line
        self.isJSON = isJSON
    }

    /// The same declaration, stored as JSON.
    func asJSON() -> PropertyDeclaration {
        PropertyDeclaration(name: name, type: type, defaultValue: defaultValue, line: line, isJSON: true)
    }

    /// Whether the default names a case of the type (`= .draft`): the type is an enum, not
    /// a table object, whatever its name.
    var defaultIsCase: Bool {
        guard let value = defaultValue?.trimmingCharacters(in: .whitespaces), value.hasPrefix(".") else { return false }
        return DeclarationParser.isIdentifier(String(value.dropFirst()))
    }
}

/// Every line of an input that could not be read.
public struct DeclarationErrors: Error, Sendable, CustomStringConvertible {
    public let errors: [CodeGenError]
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

/// A line the generator cannot use, with its number.
public struct CodeGenError: Error, Sendable, CustomStringConvertible {
    public let line: Int
    public let text: String
    public let reason: String

    public init(line: Int, text: String, reason: String) {
        self.line = line
        self.text = text
        self.reason = reason
    }

    public var description: String {
        line > 0 ? "line \(line): \(reason): \(text.trimmingCharacters(in: .whitespaces))" : reason
    }
}
