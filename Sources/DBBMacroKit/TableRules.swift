import SwiftSyntax

/// The rules `@DBBTable` reads a class by, for tools that write `@DBBTable` classes
/// (`dbb-codegen --convert`): a tool that asks here cannot disagree with the macro.
public enum DBBTableRules {
    /// Why a property of the spelled type can never be stored in a column or join table (a
    /// dictionary, a tuple, a function, `URL`…), or `nil` when the macro maps it.
    public static func unstorableReason(_ type: TypeSyntax) -> String? { MappedProperty.unstorableReason(type) }

    /// The type the macro reads from an initial value (`0` is `Int`, `""` `String`, `Date()`
    /// `Date`), or `nil` when the value does not show one.
    public static func literalType(_ value: ExprSyntax) -> TypeSyntax? { MappedProperty.literalType(value) }

    /// `T` of `T?`, `T!` or `Optional<T>`; `nil` for a type that is not optional.
    public static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? { MappedProperty.optionalWrapped(type) }

    /// Whether a binding is computed (a getter, `get`/`set`) rather than stored (possibly with
    /// `willSet`/`didSet`): the macro maps stored properties only.
    public static func isComputed(_ binding: PatternBindingSyntax) -> Bool { TableMacro.isComputed(binding) }

    /// The markers the macro reads on a property: `Column`, `Unique`, `NotNull`, `Indexed`, `Transient`.
    public static var markerNames: Set<String> { Markers.names }
}
