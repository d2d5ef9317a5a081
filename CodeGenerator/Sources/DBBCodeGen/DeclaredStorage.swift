import DBBMacroKit
import SwiftSyntax

/// The storage DBBBuilder's `DBBPropertyPersistence(type:)` declares (`.string`,
/// `.dbbObjectArray(objectType: Meeting.self)`), checked against the property's Swift type:
/// `@DBBTable` infers the storage from the type, so the two must agree.
enum DeclaredStorage: Equatable {
    case bool, int, float, string, date, binary
    case boolArray, intArray, floatArray, stringArray, dateArray
    case object(String)
    case objectArray(String)

    /// Reads `.string`, `DBBStorageType.string`, `.dbbObject(objectType: Project.self)`.
    init?(_ expression: ExprSyntax) {
        var expression = expression
        var objectType: String?
        if let call = expression.as(FunctionCallExprSyntax.self) {
            guard call.arguments.count == 1, let argument = call.arguments.first,
                argument.label?.text == "objectType",
                let type = argument.expression.as(MemberAccessExprSyntax.self), type.declName.baseName.text == "self",
                let base = type.base
            else { return nil }
            objectType = base.trimmedDescription.split(separator: ".").last.map(String.init)
            expression = call.calledExpression
        }
        guard let member = expression.as(MemberAccessExprSyntax.self),
            member.base.map({ ["DBBStorageType", "DBBBuilder.DBBStorageType"].contains($0.trimmedDescription) })
                ?? true
        else { return nil }
        switch (member.declName.baseName.text, objectType) {
        case ("bool", nil): self = .bool
        case ("int", nil): self = .int
        case ("float", nil): self = .float
        case ("string", nil): self = .string
        case ("date", nil): self = .date
        case ("binary", nil): self = .binary
        case ("boolArray", nil): self = .boolArray
        case ("intArray", nil): self = .intArray
        case ("floatArray", nil): self = .floatArray
        case ("stringArray", nil): self = .stringArray
        case ("dateArray", nil): self = .dateArray
        case ("dbbObject", let type?): self = .object(type)
        case ("dbbObjectArray", let type?): self = .objectArray(type)
        default: return nil
        }
    }

    /// Whether values live in a join table, as DBBBuilder lays them out.
    var isJoin: Bool {
        switch self {
        case .bool, .int, .float, .string, .date: false
        default: true
        }
    }

    /// As the source spells it: `.dbbObject(objectType: Person.self)`.
    var spelling: String {
        switch self {
        case .object(let type): ".dbbObject(objectType: \(type).self)"
        case .objectArray(let type): ".dbbObjectArray(objectType: \(type).self)"
        default: ".\(self)"
        }
    }

    /// The scalar type names of each storage.
    private static let scalars: [DeclaredStorage: Set<String>] = [
        .bool: ["Bool"],
        .int: ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"],
        .float: ["Double", "Float"], .string: ["String"], .date: ["Date"],
    ]
    private static let known: Set<String> = scalars.values.reduce(["Data"]) { $0.union($1) }

    /// Whether a property of `type` can hold this storage; `true` too when the type does not
    /// tell (a type alias, a type of the application's: the compiler decides).
    func agrees(with type: PropertyType) -> Bool {
        let wrapped = type.unwrapped
        switch self {
        case .bool, .int, .float, .string, .date:
            guard case .named(let name) = wrapped else { return false }
            return !Self.known.contains(name) || Self.scalars[self]!.contains(name)
        case .boolArray, .intArray, .floatArray, .stringArray, .dateArray:
            let element: DeclaredStorage = [
                .boolArray: .bool, .intArray: .int, .floatArray: .float, .stringArray: .string, .dateArray: .date,
            ][self]!
            guard case .array(.named(let name)) = wrapped else { return false }
            return !Self.known.contains(name) || Self.scalars[element]!.contains(name)
        case .binary:
            return wrapped == .named("Data")
        case .object(let target):
            // A reference is optional: the key-path mapping and the macro store `Target?`.
            return type == .optional(.named(target))
        case .objectArray(let target):
            return wrapped == .array(.named(target))
        }
    }
}

extension DeclaredStorage: Hashable {}

// MARK: - The Swift type of a property

extension PropertyType {
    /// The type a stored property's declaration shows: its annotation, or the type of its
    /// initial value as `@DBBTable` reads it (`0`, `""`, `Date()`), and `[Meeting]()`.
    /// `nil` when neither tells, or the spelling is not one the generator reads.
    static func declared(_ annotation: TypeSyntax?, initializer: ExprSyntax?) -> PropertyType? {
        if let annotation { return parse(annotation.trimmedDescription) }
        guard let value = initializer else { return nil }
        if let literal = DBBTableRules.literalType(value) { return parse(literal.trimmedDescription) }
        // `[Meeting]()`, `Array<Date>()`: DBBBuilder's classes start their arrays so.
        if let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty {
            if let array = call.calledExpression.as(ArrayExprSyntax.self), array.elements.count == 1,
                let element = array.elements.first
            {
                return parse(element.expression.trimmedDescription).map { .array($0) }
            }
            if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self) {
                return parse(generic.trimmedDescription)
            }
        }
        return nil
    }
}
