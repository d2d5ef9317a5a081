import DBBMacroKit
import SwiftSyntax

/// The members of a class declaration the converter reads: its properties, its
/// `init(dbManager:)`, its `databaseTableName` override, and the calls that map it.
struct ClassShape {
    let decl: ClassDeclSyntax
    /// The properties by name (without backticks), stored and computed.
    private(set) var properties: [String: Property] = [:]
    /// The property declarations in the class's order.
    private(set) var declarations: [VariableDeclSyntax] = []
    /// `var (a, b) = …`: declarations the converter does not split.
    private(set) var tuplePatterns: [VariableDeclSyntax] = []
    /// `init(dbManager:)` and its member.
    private(set) var initializer: (member: MemberBlockItemSyntax, decl: InitializerDeclSyntax)?
    /// `override class var databaseTableName: String { "Name" }`: the member, and the name
    /// when the body is a literal.
    private(set) var tableNameOverride: (member: MemberBlockItemSyntax, name: String?)?
    /// Members inside `#if`, which the converter does not read.
    private(set) var conditionalMembers: [IfConfigDeclSyntax] = []

    /// One property (one binding of a declaration).
    struct Property {
        let name: String
        let variable: VariableDeclSyntax
        let binding: PatternBindingSyntax
        /// The type annotation: the binding's, or in `var a, b: Int` the one `a` shares with `b`.
        let annotation: TypeSyntax?

        var isStatic: Bool {
            variable.modifiers.contains { [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind) }
        }
        var isLazy: Bool { variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) } }
        var isComputed: Bool { DBBTableRules.isComputed(binding) }
        var isLet: Bool { variable.bindingSpecifier.tokenKind == .keyword(.let) }
        /// `weak` or `unowned`, when the declaration says so.
        var ownership: String? {
            variable.modifiers.first { [.keyword(.weak), .keyword(.unowned)].contains($0.name.tokenKind) }?.name.text
        }
        /// Whether the table could get a column for it: an instance property with storage.
        var isStored: Bool { !isStatic && !isLazy && !isComputed }
        var isTransient: Bool { variable.attributes.contains { ClassShape.attributeName($0) == "Transient" } }
        /// The type its declaration shows, if the generator can read it.
        var type: PropertyType? { .declared(annotation, initializer: binding.initializer?.value) }
    }

    init(_ decl: ClassDeclSyntax) {
        self.decl = decl
        for member in decl.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                declarations.append(variable)
                for (binding, annotation) in Self.annotations(variable) {
                    guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
                        tuplePatterns.append(variable)
                        continue
                    }
                    let property = Property(
                        name: ConversionContext.unescaped(identifier.text), variable: variable, binding: binding,
                        annotation: annotation)
                    properties[property.name] = property
                    if property.name == "databaseTableName", property.isStatic {
                        tableNameOverride = (member, Self.literalBody(binding))
                    }
                }
            } else if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                let parameters = initializer.signature.parameterClause.parameters
                if parameters.count == 1, parameters.first?.firstName.text == "dbManager" {
                    self.initializer = (member, initializer)
                }
            } else if let conditional = member.decl.as(IfConfigDeclSyntax.self) {
                conditionalMembers.append(conditional)
            }
        }
    }

    /// Each binding with its type annotation: its own, or in `var a, b: Int` the next one's.
    static func annotations(_ variable: VariableDeclSyntax) -> [(PatternBindingSyntax, TypeSyntax?)] {
        var shared: TypeSyntax?
        return variable.bindings.reversed().map { binding in
            if let type = binding.typeAnnotation?.type {
                shared = type
            } else if binding.initializer != nil {
                shared = nil
            }
            return (binding, binding.typeAnnotation?.type ?? (binding.initializer == nil ? shared : nil))
        }.reversed()
    }

    /// The text of `{ "Name" }`, `{ return "Name" }` or `{ get { "Name" } }`.
    private static func literalBody(_ binding: PatternBindingSyntax) -> String? {
        let statements: CodeBlockItemListSyntax
        switch binding.accessorBlock?.accessors {
        case .getter(let body):
            statements = body
        case .accessors(let accessors):
            guard accessors.count == 1, let getter = accessors.first, getter.accessorSpecifier.text == "get",
                let body = getter.body
            else { return nil }
            statements = body.statements
        case nil:
            return nil
        }
        guard statements.count == 1, let item = statements.first?.item else { return nil }
        let expression = item.as(ReturnStmtSyntax.self)?.expression ?? item.as(ExprSyntax.self)
        return expression?.as(StringLiteralExprSyntax.self).flatMap(ConversionContext.literalText)
    }

    /// The attributes by name, without a module prefix.
    var attributeNames: [String] { decl.attributes.map(Self.attributeName) }

    var isFinal: Bool { decl.modifiers.contains { $0.name.tokenKind == .keyword(.final) } }
    var isOpen: Bool { decl.modifiers.contains { $0.name.tokenKind == .keyword(.open) } }

    /// The superclass's simple name (`DBBTableObject` for `DBBBuilder.DBBTableObject`).
    var superclass: String? { decl.inheritanceClause?.inheritedTypes.first.map { Self.simpleName($0.type) } }

    /// An attribute's name without a module prefix (`DBBBuilder.DBBTable` is `DBBTable`).
    static func attributeName(_ element: AttributeListSyntax.Element) -> String {
        guard case .attribute(let attribute) = element else { return "" }
        let name = attribute.attributeName.trimmedDescription
        return name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The last component of a type's name, without generic arguments.
    static func simpleName(_ type: TypeSyntax) -> String {
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        if let identifier = type.as(IdentifierTypeSyntax.self) { return identifier.name.text }
        return type.trimmedDescription
    }

    /// The `addPersistenceMapping` calls in the class's own members (not in nested types).
    var mappingCalls: [FunctionCallExprSyntax] {
        let finder = CallFinder(viewMode: .sourceAccurate)
        finder.walk(decl.memberBlock)
        return finder.calls
    }

    /// The references to `attributesDictionary` in the class's own members.
    var attributeReferences: [Syntax] {
        let finder = CallFinder(viewMode: .sourceAccurate)
        finder.walk(decl.memberBlock)
        return finder.attributeReferences
    }

    private final class CallFinder: SyntaxVisitor {
        var calls: [FunctionCallExprSyntax] = []
        var attributeReferences: [Syntax] = []

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let callee = node.calledExpression
            let name =
                callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                ?? callee.as(DeclReferenceExprSyntax.self)?.baseName.text
            if name == "addPersistenceMapping" { calls.append(node) }
            return .visitChildren
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            if node.baseName.text == "attributesDictionary" { attributeReferences.append(Syntax(node)) }
            return .visitChildren
        }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
}
