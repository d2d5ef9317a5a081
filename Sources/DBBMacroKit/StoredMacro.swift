import SwiftSyntax
import SwiftSyntaxMacros

/// `@_DBBStored(position)`, which `@DBBTable` puts on each mapped stored property whose type
/// it can spell: the property keeps its name, type and initial value, reads and writes storage
/// of its own, `_dbb_<name>`, and its setter marks it set (`markAssigned(position)`), so that a
/// property a partial fetch left out is written when set, to its default value too. The row
/// accessors read and write the storage directly, without marks.
///
/// The storage of a trivial type (integers, `Double`, `Float`, `Bool`, `Date`, their optionals)
/// skips Swift's run-time exclusivity check: every access to it is a plain load or store inside
/// these accessors (there is no `_modify`), so no two accesses can overlap. Other types keep
/// the check, and get a `_modify` that changes them in place (`tags.append(…)` copies nothing).
public struct StoredMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let name = storedName(declaration),
            let type = MappedProperty.ownStorageType(of: variable)
        else { return [] }
        let storage = MappedProperty.storageName(name)
        let mark = position(node).map { "\nself.markAssigned(\($0))" } ?? ""
        var accessors: [AccessorDeclSyntax] = [
            """
            @storageRestrictions(initializes: \(raw: storage))
            init(initialValue) {
                \(raw: storage) = initialValue
            }
            """,
            "get { \(raw: storage) }",
            "set {\n\(raw: storage) = newValue\(raw: mark)\n}",
        ]
        if !MappedProperty.isTrivial(type) {
            accessors.append("_modify {\nyield &\(raw: storage)\(raw: mark)\n}")
        }
        return accessors
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let name = storedName(declaration),
            let type = MappedProperty.ownStorageType(of: variable)
        else { return [] }
        let storage = MappedProperty.storageName(name)
        // `Optional<T>`, not `T?`: storage spelled `T?` starts at `nil` by itself, and Swift then
        // drops the property's initial value (`var rating: Double? = 4.5` would start at `nil`).
        let spelled: TypeSyntax = MappedProperty.optionalWrapped(type).map { "Optional<\($0)>" } ?? type
        return MappedProperty.isTrivial(type)
            ? ["@exclusivity(unchecked) private var \(raw: storage): \(spelled)"]
            : ["private var \(raw: storage): \(spelled)"]
    }

    /// The name of the single stored property `declaration` declares.
    static func storedName(_ declaration: some DeclSyntaxProtocol) -> String? {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1 else { return nil }
        return variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self).map {
            MappedProperty.unescaped($0.identifier.text)
        }
    }

    /// The property's position in the mapping, the attribute's one argument.
    static func position(_ node: AttributeSyntax) -> Int? {
        node.arguments?.as(LabeledExprListSyntax.self)?.first?.expression.as(IntegerLiteralExprSyntax.self)
            .flatMap { Int($0.literal.text) }
    }
}
