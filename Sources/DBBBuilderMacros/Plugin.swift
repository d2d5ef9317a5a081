import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin of DBBBuilder's macros (declared in `DBBBuilder/Macros.swift`).
@main
struct DBBBuilderMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TableMacro.self, MarkerMacro.self, StoredMacro.self]
}
