import SwiftParser
import SwiftSyntax

/// Edits of a declaration's head — its attributes, its modifiers, its keyword — that keep its
/// layout: what is removed leaves its place (its line, its indentation, its comments) to what
/// follows it, and what is added takes the place of the first token.
enum DeclarationHead {
    struct Edit {
        var removesAttribute: (AttributeSyntax) -> Bool = { _ in false }
        var removesModifier: (DeclModifierSyntax) -> Bool = { _ in false }
        /// Adds `final` after the other modifiers.
        var addsFinal = false
        /// Attributes to put first (`@DBBTable`, `@Column("x")`), as Swift spells them.
        var attributes: [String] = []
        /// Whether the new attributes go on a line of their own (a class's) or before the rest
        /// on the same line (a property's).
        var attributesOnOwnLine = false
        /// The file's line break.
        var lineBreak: Trivia = .newline
    }

    /// One token-led element of the head.
    private enum Item {
        case attribute(AttributeListSyntax.Element)
        case modifier(DeclModifierSyntax)
        case keyword(TokenSyntax)

        var leadingTrivia: Trivia {
            get {
                switch self {
                case .attribute(let node): node.leadingTrivia
                case .modifier(let node): node.leadingTrivia
                case .keyword(let node): node.leadingTrivia
                }
            }
            set {
                switch self {
                case .attribute(let node): self = .attribute(node.with(\.leadingTrivia, newValue))
                case .modifier(let node): self = .modifier(node.with(\.leadingTrivia, newValue))
                case .keyword(let node): self = .keyword(node.with(\.leadingTrivia, newValue))
                }
            }
        }

        var trailingTrivia: Trivia {
            switch self {
            case .attribute(let node): node.trailingTrivia
            case .modifier(let node): node.trailingTrivia
            case .keyword(let node): node.trailingTrivia
            }
        }
    }

    static func apply<Decl: WithAttributesSyntax & WithModifiersSyntax>(
        _ edit: Edit, to decl: Decl, keyword: WritableKeyPath<Decl, TokenSyntax>
    ) -> Decl {
        let items: [Item] =
            decl.attributes.map { .attribute($0) } + decl.modifiers.map { .modifier($0) } + [
                .keyword(decl[keyPath: keyword])
            ]
        var kept: [Item] = []
        var carried: Trivia?
        for var item in items {
            let removed: Bool =
                switch item {
                case .attribute(.attribute(let attribute)): edit.removesAttribute(attribute)
                case .modifier(let modifier): edit.removesModifier(modifier)
                default: false
                }
            if removed {
                let comments = Trivia(pieces: item.trailingTrivia.filter(\.isComment).flatMap { [.spaces(1), $0] })
                carried = merge(carried ?? [], item.leadingTrivia) + comments
                continue
            }
            if let trivia = carried {
                item.leadingTrivia = merge(trivia, item.leadingTrivia)
                carried = nil
            }
            kept.append(item)
        }
        if edit.addsFinal, var keywordItem = kept.popLast() {
            let final = DeclModifierSyntax(
                leadingTrivia: keywordItem.leadingTrivia, name: .keyword(.final), trailingTrivia: .space)
            keywordItem.leadingTrivia = []
            kept += [.modifier(final), keywordItem]
        }
        if !edit.attributes.isEmpty {
            let leading = kept[0].leadingTrivia
            let separator: Trivia = edit.attributesOnOwnLine ? edit.lineBreak + indentation(of: leading) : .space
            kept[0].leadingTrivia = edit.attributesOnOwnLine ? separator : []
            let added = edit.attributes.enumerated().map { index, text in
                Item.attribute(
                    .attribute(
                        parsedAttribute(text).with(\.leadingTrivia, index == 0 ? leading : [])
                            .with(
                                \.trailingTrivia,
                                index == edit.attributes.count - 1 && edit.attributesOnOwnLine ? [] : .space)))
            }
            kept = added + kept
        }
        var result = decl
        result.attributes = AttributeListSyntax(
            kept.compactMap { if case .attribute(let node) = $0 { node } else { nil } })
        result.modifiers = DeclModifierListSyntax(
            kept.compactMap { if case .modifier(let node) = $0 { node } else { nil } })
        if case .keyword(let token) = kept.last { result[keyPath: keyword] = token }
        return result
    }

    /// The trivia before a token whose predecessor was removed: the layout of what came first
    /// (its line break and indentation), with the comments of both.
    private static func merge(_ earlier: Trivia, _ later: Trivia) -> Trivia {
        guard earlier.contains(where: { $0.isNewline || $0.isComment }) else { return later }
        return later.contains(where: \.isComment) ? earlier + later : earlier
    }

    /// The spaces and tabs after the last line break of `trivia`: a line's indentation.
    static func indentation(of trivia: Trivia) -> Trivia {
        Trivia(pieces: Array(trivia.reversed().prefix { $0.isSpaceOrTab }.reversed()))
    }

    /// An attribute written as Swift spells it.
    private static func parsedAttribute(_ text: String) -> AttributeSyntax {
        let file = Parser.parse(source: "\(text) var x = 0")
        guard let variable = file.statements.first?.item.as(VariableDeclSyntax.self),
            case .attribute(let attribute) = variable.attributes.first
        else { preconditionFailure("not an attribute: \(text)") }
        return attribute.trimmed
    }
}

extension TriviaPiece {
    var isSpaceOrTab: Bool {
        switch self {
        case .spaces, .tabs: true
        default: false
        }
    }

    var isDocComment: Bool {
        switch self {
        case .docLineComment, .docBlockComment: true
        default: false
        }
    }
}
