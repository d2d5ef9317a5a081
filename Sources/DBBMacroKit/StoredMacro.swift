import SwiftSyntax
import SwiftSyntaxMacros

/// `@_DBBStored`, which `@DBBTable` puts on each column property of a trivial type (integers,
/// `Double`, `Float`, `Bool`, `Date`, and their optionals): the property keeps its name, type
/// and initial value, and reads and writes `_dbb_<name>`, storage that skips Swift's run-time
/// exclusivity check. Every access to that storage is a plain load or store inside these
/// accessors (there is no `_modify`), so no two accesses can overlap, and the check has nothing
/// to catch; the generated row accessors read and write it directly.
public struct StoredMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let name = storedName(declaration) else { return [] }
        let storage = MappedProperty.storageName(name)
        return [
            """
            @storageRestrictions(initializes: \(raw: storage))
            init(initialValue) {
                \(raw: storage) = initialValue
            }
            """,
            "get { \(raw: storage) }",
            "set { \(raw: storage) = newValue }",
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let variable = declaration.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
            let name = storedName(declaration), let type = MappedProperty.trivialType(of: variable)
        else { return [] }
        _ = binding
        return ["@exclusivity(unchecked) private var \(raw: MappedProperty.storageName(name)): \(type)"]
    }

    /// The name of the single stored property `declaration` declares.
    static func storedName(_ declaration: some DeclSyntaxProtocol) -> String? {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1 else { return nil }
        return variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self).map {
            MappedProperty.unescaped($0.identifier.text)
        }
    }
}
