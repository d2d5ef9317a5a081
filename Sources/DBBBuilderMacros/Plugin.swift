import DBBMacroKit
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

// The macros the declarations in `DBBBuilder/Macros.swift` name (`#externalMacro(module:
// "DBBBuilderMacros", …)`): the compiler finds them by this module's name, and each hands the
// work to its expansion in `DBBMacroKit`, the library the tests use.

/// `@DBBTable`: see `DBBMacroKit.TableMacro`.
public struct TableMacro: MemberMacro, MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try DBBMacroKit.TableMacro.expansion(
            of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        try DBBMacroKit.TableMacro.expansion(
            of: node, attachedTo: declaration, providingAttributesFor: member, in: context)
    }
}

/// `@Column`, `@Unique`, `@NotNull`, `@Indexed`, `@Transient`: see `DBBMacroKit.MarkerMacro`.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try DBBMacroKit.MarkerMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// `@_DBBStored`: see `DBBMacroKit.StoredMacro`.
public struct StoredMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        try DBBMacroKit.StoredMacro.expansion(of: node, providingAccessorsOf: declaration, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try DBBMacroKit.StoredMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// The compiler plugin of DBBBuilder's macros.
@main
struct DBBBuilderMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TableMacro.self, MarkerMacro.self, StoredMacro.self]
}
