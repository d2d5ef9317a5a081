import DBBFormat
import SwiftSyntax

/// One stored property of a `@DBBTable` class as the macro reads it from the declaration: its
/// name, its type when the source spells it (or a literal shows it), and its markers.
struct MappedProperty {
    /// The name as the table and the mapping's keys spell it (no backticks).
    let name: String
    /// The name as Swift code writes it (`` `default` `` in backticks).
    let code: String
    /// The type written in the annotation, or inferred from a literal initial value; `nil` when
    /// neither tells (the generated code then lets the compiler pick the overload).
    let type: TypeSyntax?
    /// The column (or join-table) name of `@Column("…")`; `nil` for the property's name.
    let columnName: ExprSyntax?
    let isUnique: Bool
    let isNotNull: Bool
    /// `@JSON`: the value is stored as its JSON text, whatever its type.
    let isJSON: Bool
    /// `@Indexed`: `nil` when absent, else whether the index is `UNIQUE`.
    let index: IndexMarker?
    /// Whether the declaration gives the property a value (`= …`), or it is an optional, which
    /// Swift starts at `nil`.
    let hasInitialValue: Bool
    /// The declaration, for diagnostics.
    let node: Syntax
    /// Whether `@DBBTable` turned the property into accessors of storage of its own
    /// (`@_DBBStored`): the row accessors then read and write that storage.
    let hasOwnStorage: Bool

    struct IndexMarker {
        let unique: Bool
    }

    /// How the property is stored, as far as its spelled type tells.
    enum Storage {
        /// A column of a type the macro knows (`Int`, `String?`, `Date`…): read with a plain assignment.
        case knownColumn(TypeSyntax)
        /// A join table (`Data`, an array): loaded with the fetch's join queries, not by the row.
        case join
        /// `@JSON`: a column of JSON text, read and written through `decodeJSON` and `addJSON`.
        case json
        /// Not known from the spelling (a type alias, a custom `DBBColumnValue`, a reference to
        /// another table object): the generated code passes the property to an overloaded
        /// method, and the compiler's choice decides.
        case unknown
    }

    var storage: Storage {
        if isJSON { return .json }
        guard let type else { return .unknown }
        return Self.storage(of: type)
    }

    /// The storage `@_DBBStored` gives a property (of its name without backticks).
    static func storageName(_ name: String) -> String { "_dbb_\(unescaped(name))" }

    /// A name without the backticks that let Swift code use a keyword as a name.
    static func unescaped(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count >= 2 ? String(name.dropFirst().dropLast()) : name
    }

    /// The types whose values are plain bits (no reference counting): their accessors can
    /// read and write storage without Swift's run-time exclusivity check.
    static let trivialTypes: Set<String> = columnTypes.subtracting(["String", "Swift.String", "URL", "Foundation.URL"])

    /// The type of the property `variable` declares when `@DBBTable` gives it storage of its
    /// own, and accessors whose setter marks it set: one stored `var` (no accessors, observers,
    /// wrappers, `lazy` or `static`) whose type is spelled or shown by a literal; `nil` otherwise.
    static func ownStorageType(of variable: VariableDeclSyntax) -> TypeSyntax? {
        guard variable.bindingSpecifier.tokenKind == .keyword(.var), variable.bindings.count == 1,
            let binding = variable.bindings.first, binding.accessorBlock == nil,
            binding.pattern.is(IdentifierPatternSyntax.self),
            !variable.modifiers.contains(where: {
                [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
            }),
            !variable.attributes.contains(where: { element in
                guard case .attribute(let attribute) = element else { return true }
                let name = Markers.markerName(attribute)
                return ["Transient", "JSON"].contains(name) || !(Markers.names.contains(name) || name == "_DBBStored")
            })
        else { return nil }
        return binding.typeAnnotation?.type.trimmed ?? binding.initializer.flatMap({ literalType($0.value) })
    }

    /// Whether values of `type` are plain bits (no reference counting), which their storage
    /// may read and write without Swift's run-time exclusivity check.
    static func isTrivial(_ type: TypeSyntax) -> Bool {
        trivialTypes.contains((optionalWrapped(type) ?? type).trimmedDescription)
    }

    /// The scalar types a column holds, by the names a declaration spells them with (also
    /// qualified by their module).
    static let columnTypes: Set<String> = DBBFormat.columnTypeNames.union(
        DBBFormat.columnTypeNames.map {
            DBBFormat.foundationTypeNames.contains($0) ? "Foundation.\($0)" : "Swift.\($0)"
        })

    static func storage(of type: TypeSyntax) -> Storage {
        if let wrapped = optionalWrapped(type) {
            switch storage(of: wrapped) {
            case .knownColumn: return .knownColumn(type)
            case .join: return .join
            case .unknown, .json: return .unknown
            }
        }
        if type.is(ArrayTypeSyntax.self) { return .join }
        let name = type.trimmedDescription
        if name == "Data" || name == "Foundation.Data" { return .join }
        if columnTypes.contains(name) { return .knownColumn(type) }
        return .unknown
    }

    /// `T` of `T?` or `Optional<T>`.
    static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return implicit.wrappedType }
        if let named = type.as(IdentifierTypeSyntax.self), named.name.text == "Optional",
            let argument = named.genericArgumentClause?.arguments.first
        {
            return argument.argument.as(TypeSyntax.self)
        }
        if let member = type.as(MemberTypeSyntax.self), member.baseType.trimmedDescription == "Swift",
            member.name.text == "Optional", let argument = member.genericArgumentClause?.arguments.first
        {
            return argument.argument.as(TypeSyntax.self)
        }
        return nil
    }

    /// Why a property of this spelled type can never be stored, or `nil` when it may be.
    static func unstorableReason(_ type: TypeSyntax) -> String? {
        var inner = optionalWrapped(type) ?? type
        // `(() -> Void)?` wraps the function type in parentheses: a tuple of one element.
        if let tuple = inner.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
            only.firstName == nil
        {
            inner = only.type
        }
        if inner.is(DictionaryTypeSyntax.self) { return "a dictionary" }
        if inner.is(TupleTypeSyntax.self) { return "a tuple" }
        if inner.is(FunctionTypeSyntax.self) { return "a function" }
        if inner.is(SomeOrAnyTypeSyntax.self) { return "an existential or opaque type" }
        if let array = inner.as(ArrayTypeSyntax.self), optionalWrapped(array.element) != nil {
            return "an array of optionals (a join row holds no NULL)"
        }
        if let named = inner.as(IdentifierTypeSyntax.self), named.name.text == "Set" { return "a Set (unordered)" }
        let element = inner.as(ArrayTypeSyntax.self)?.element ?? inner
        let name: String =
            if let named = element.as(IdentifierTypeSyntax.self) {
                named.name.text
            } else if let member = element.as(MemberTypeSyntax.self),
                ["Foundation", "Swift"].contains(member.baseType.trimmedDescription)
            {
                member.name.text
            } else {
                element.trimmedDescription
            }
        return unstorableNamedTypes[name]
    }

    /// Types a column cannot hold, by name, and what they are: the usual ones a model reaches
    /// for (a type of one's own can conform to `DBBColumnValue`, be an enum with a raw value,
    /// or be marked `@JSON`; these are the library's to say).
    static let unstorableNamedTypes: [String: String] = [
        "Character": "a Character (store it as a String)", "Substring": "a Substring (store a String)",
        "Any": "Any", "AnyObject": "AnyObject", "AnyHashable": "AnyHashable", "NSNumber": "an NSNumber",
        "Range": "a Range", "ClosedRange": "a ClosedRange", "CGFloat": "a CGFloat (store a Double)",
        "NSDecimalNumber": "an NSDecimalNumber (store a Decimal)", "NSURL": "an NSURL (store a URL)",
        "NSUUID": "an NSUUID (store a UUID)",
    ]

    /// The type of a literal initial value: `0` is an `Int`, `""` a `String`, `Date()` a `Date`,
    /// `UUID()` a `UUID`.
    static func literalType(_ value: ExprSyntax) -> TypeSyntax? {
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return literalType(prefix.expression)
        }
        // `URL(string: "…")!`, `UUID(uuidString: "…")!`: a column type's failable initializer, unwrapped.
        if let unwrapped = value.as(ForceUnwrapExprSyntax.self),
            let call = unwrapped.expression.as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
            columnTypes.contains(callee.baseName.text)
        {
            return TypeSyntax(IdentifierTypeSyntax(name: .identifier(callee.baseName.text)))
        }
        // `[String]()`, `[Person]()`: an empty array of a named element type.
        if let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
            let array = call.calledExpression.as(ArrayExprSyntax.self), array.elements.count == 1,
            let element = array.elements.first?.expression.as(DeclReferenceExprSyntax.self)
        {
            return TypeSyntax(
                ArrayTypeSyntax(element: TypeSyntax(IdentifierTypeSyntax(name: .identifier(element.baseName.text)))))
        }
        if let call = value.as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)
        {
            let name = callee.baseName.text
            // `Date()`, `UUID()`, `Data(…)`; and a column type made of literal numbers or
            // booleans (`Decimal(0)`, `Int8(5)`, `Bool(false)`), which no failable initializer
            // takes (`Int("5")`, `Decimal(string:)` and `URL(string:)` give optionals).
            let literalArguments = call.arguments.allSatisfy { argument in
                argument.label == nil
                    && literalType(argument.expression).map {
                        ["Int", "Double", "Bool"].contains($0.trimmedDescription)
                    } == true
            }
            if ["Date", "Data", "UUID"].contains(name)
                || (columnTypes.contains(name) && !["URL", "Date", "UUID"].contains(name) && literalArguments
                    && call.trailingClosure == nil)
            {
                return TypeSyntax(IdentifierTypeSyntax(name: .identifier(name)))
            }
        }
        return nil
    }

    /// A value a property of `type` can start with when the declaration gives none, for the
    /// generated `init(dbManager:)`; `nil` when there is no obvious one.
    static func zeroValue(_ type: TypeSyntax) -> ExprSyntax? {
        if optionalWrapped(type) != nil { return "nil" }
        if type.is(ArrayTypeSyntax.self) { return "[]" }
        if type.is(DictionaryTypeSyntax.self) { return "[:]" }
        switch type.trimmedDescription {
        case "Bool", "Swift.Bool": return "false"
        case "String", "Swift.String": return "\"\""
        case "Data", "Foundation.Data": return "Data()"
        case "Decimal", "Foundation.Decimal": return "0"
        // The numbers; a Date, UUID or URL has no obvious start.
        case let name
        where columnTypes.contains(name)
            && !["Date", "UUID", "URL"].contains(name.split(separator: ".").last.map(String.init) ?? ""):
            return "0"
        default: return nil
        }
    }
}
