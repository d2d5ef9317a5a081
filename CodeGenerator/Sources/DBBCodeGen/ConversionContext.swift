import SwiftSyntax

/// What the converter knows from all the files it is given at once: the string constants a
/// mapping's keys may name (`Keys.firstName`, `Person.Keys.email.rawValue`), and which classes
/// other classes subclass.
struct ConversionContext {
    /// `static let name = "text"` by the path of the type declaring it (`["Person", "Keys"]`),
    /// and file-scope `let name = "text"` under the empty path.
    private var constants: [[String]: [String: String]] = [:]
    /// The raw values of the cases of `enum Name: String`, by the enum's path.
    private var rawValues: [[String]: [String: String]] = [:]
    /// The classes of the input by the simple name of their superclass.
    private var subclasses: [String: [Subclass]] = [:]

    /// A class declaration that names another class as its superclass.
    struct Subclass {
        let name: String
        let path: String
        let line: Int
    }

    init(_ files: [(source: ConversionSource, tree: SourceFileSyntax)]) {
        for (source, tree) in files {
            let collector = Collector(path: source.path, tree: tree)
            collector.walk(tree)
            constants.merge(collector.constants) { $0.merging($1) { first, _ in first } }
            rawValues.merge(collector.rawValues) { $0.merging($1) { first, _ in first } }
            for (superclass, found) in collector.subclasses { subclasses[superclass, default: []] += found }
        }
    }

    /// The classes that name `name` (a simple class name) as their superclass.
    func subclasses(of name: String) -> [Subclass] { subclasses[name] ?? [] }

    /// The text of a string literal without interpolation or escapes, or of a constant the
    /// input declares (`Keys.firstName`, `Self.Keys.firstName`, `Person.Keys.firstName`,
    /// `Keys.firstName.rawValue`), as seen from the type at `scope`; `nil` for anything else.
    func string(_ expression: ExprSyntax, in scope: [String]) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self) { return Self.literalText(literal) }
        var names = Self.memberPath(expression)
        guard names.count >= 1 else { return nil }
        var table = constants
        if names.count >= 3, names.last == "rawValue" {
            names.removeLast()
            table = rawValues
        }
        let name = names.removeLast()
        if names.first == "Self" {
            return table[scope + names.dropFirst()]?[name]
        }
        // From the innermost enclosing type outwards, as Swift looks names up.
        for depth in stride(from: scope.count, through: 0, by: -1) {
            if let value = table[Array(scope.prefix(depth)) + names]?[name] { return value }
        }
        return nil
    }

    /// `A.B.c` as `["A", "B", "c"]`; `nil` parts make it empty.
    static func memberPath(_ expression: ExprSyntax) -> [String] {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return [unescaped(reference.baseName.text)]
        }
        guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base else { return [] }
        let path = memberPath(base)
        return path.isEmpty ? [] : path + [unescaped(member.declName.baseName.text)]
    }

    /// The text of a one-line string literal without interpolation or escapes.
    static func literalText(_ literal: StringLiteralExprSyntax) -> String? {
        guard literal.openingQuote.tokenKind == .stringQuote else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let string = segment.as(StringSegmentSyntax.self) else { return nil }
            text += string.content.text
        }
        return literal.openingPounds == nil && text.contains("\\") ? nil : text
    }

    /// A name without the backticks that let Swift code use a keyword as a name.
    static func unescaped(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count >= 2 ? String(name.dropFirst().dropLast()) : name
    }
}

// MARK: - Collecting

extension ConversionContext {
    /// Walks one file for its string constants, string enums and class declarations.
    private final class Collector: TypeScopeVisitor {
        let path: String
        let locations: SourceLocationConverter
        var constants: [[String]: [String: String]] = [:]
        var rawValues: [[String]: [String: String]] = [:]
        var subclasses: [String: [Subclass]] = [:]

        init(path: String, tree: SourceFileSyntax) {
            self.path = path
            locations = SourceLocationConverter(fileName: path, tree: tree)
        }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            if let superclass = node.inheritanceClause?.inheritedTypes.first?.type {
                let line = locations.location(for: node.name.positionAfterSkippingLeadingTrivia).line
                subclasses[ClassShape.simpleName(superclass), default: []].append(
                    Subclass(name: node.name.text, path: path, line: line))
            }
            return super.visit(node)
        }

        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            let isString =
                node.inheritanceClause?.inheritedTypes.first.map {
                    ["String", "Swift.String"].contains($0.type.trimmedDescription)
                } ?? false
            if isString {
                var values: [String: String] = [:]
                for member in node.memberBlock.members {
                    for element in member.decl.as(EnumCaseDeclSyntax.self)?.elements ?? [] {
                        let name = unescaped(element.name.text)
                        if let raw = element.rawValue?.value {
                            if let literal = raw.as(StringLiteralExprSyntax.self), let text = literalText(literal) {
                                values[name] = text
                            }
                        } else {
                            values[name] = name
                        }
                    }
                }
                rawValues[scope + [node.name.text], default: [:]].merge(values) { first, _ in first }
            }
            return super.visit(node)
        }

        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            let isStatic = node.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
            let atFileScope = node.parent?.parent?.parent?.is(SourceFileSyntax.self) ?? false
            guard node.bindingSpecifier.tokenKind == .keyword(.let), isStatic || atFileScope else {
                return .skipChildren
            }
            for binding in node.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                    let literal = binding.initializer?.value.as(StringLiteralExprSyntax.self),
                    let text = literalText(literal)
                else { continue }
                constants[isStatic ? scope : [], default: [:]][unescaped(name)] = text
            }
            return .skipChildren
        }

        // Constants inside functions and closures are not the input's names.
        override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
}
