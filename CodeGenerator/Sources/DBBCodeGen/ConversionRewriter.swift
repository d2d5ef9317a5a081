import SwiftSyntax

/// Applies the ``ClassPlan`` of each class to the tree it was read from; every other node
/// (comments, other members and declarations, formatting) comes out as it went in.
final class ConversionRewriter: SyntaxRewriter {
    private let plans: [SyntaxIdentifier: ClassPlan]
    /// The file's line break (`\n`, or `\r\n` in a file that uses it), for the lines it adds.
    private let lineBreak: Trivia

    init(plans: [SyntaxIdentifier: ClassPlan], lineBreak: Trivia) {
        self.plans = plans
        self.lineBreak = lineBreak
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: ClassDeclSyntax) -> DeclSyntax {
        guard let plan = plans[node.id] else { return super.visit(node) }
        let removed = RemovedCode(claimed: plan.claimed, lineBreak: lineBreak)
        var block = node.memberBlock
        let members = removed.list(
            Array(node.memberBlock.members), removing: plan.removedMembers, closing: &block.rightBrace
        ) { member -> [MemberBlockItemSyntax] in
            if let variable = member.decl.as(VariableDeclSyntax.self), plan.stripped.contains(variable.id) {
                let declarations = split(variable)
                return declarations.enumerated().map { index, declaration in
                    MemberBlockItemSyntax(
                        decl: DeclSyntax(property(declaration.variable, binding: declaration.binding, plan)),
                        semicolon: index == declarations.count - 1 ? member.semicolon : nil)
                }
            }
            if let initializer = member.decl.as(InitializerDeclSyntax.self), var body = initializer.body,
                body.statements.contains(where: { plan.removedStatements.contains($0.id) })
            {
                let statements = removed.list(
                    Array(body.statements), removing: plan.removedStatements, closing: &body.rightBrace
                ) { [$0] }
                body.statements = CodeBlockItemListSyntax(statements)
                return [member.with(\.decl, DeclSyntax(initializer.with(\.body, body)))]
            }
            return [rewrite(member, detach: true).cast(MemberBlockItemSyntax.self)]
        }
        block.members = MemberBlockItemListSyntax(members)
        var edit = DeclarationHead.Edit()
        edit.removesAttribute = { ["objc", "objcMembers"].contains($0.attributeName.trimmedDescription) }
        edit.addsFinal = plan.addsFinal
        edit.attributes = [plan.tableAttribute]
        edit.attributesOnOwnLine = true
        edit.lineBreak = lineBreak
        return DeclSyntax(DeclarationHead.apply(edit, to: node.with(\.memberBlock, block), keyword: \.classKeyword))
    }

    /// `var a = 0, b = ""` as `var a = 0` and `var b = ""` on lines of their own (so that each
    /// gets its markers, and `@DBBTable` its own storage), each with the binding it came from;
    /// `var a, b: Int` gives `a` the type it shares.
    private func split(_ variable: VariableDeclSyntax) -> [(
        variable: VariableDeclSyntax, binding: SyntaxIdentifier
    )] {
        let bindings = ClassShape.annotations(variable)
        guard bindings.count > 1 else { return [(variable, variable.bindings.first!.id)] }
        let indentation = DeclarationHead.indentation(of: variable.leadingTrivia)
        return bindings.enumerated().map { index, item in
            let (original, annotation) = item
            var binding = original.with(\.trailingComma, nil)
            if binding.typeAnnotation == nil, let annotation {
                binding.pattern.trailingTrivia = []
                binding.typeAnnotation = TypeAnnotationSyntax(
                    colon: .colonToken(trailingTrivia: .space), type: annotation.trimmed)
            }
            if index > 0 { binding.leadingTrivia = [] }
            if index < bindings.count - 1 {
                // A comment after the comma stays on the line.
                let comments = (original.trailingComma?.trailingTrivia ?? []).filter(\.isComment)
                binding.trailingTrivia = comments.isEmpty ? [] : Trivia(pieces: [.spaces(1)] + comments)
            }
            var declaration = variable.with(\.bindings, PatternBindingListSyntax([binding]))
            if index > 0 { declaration.leadingTrivia = lineBreak + indentation }
            return (declaration, original.id)
        }
    }

    /// A stored property: without `@objc` and `dynamic`, with its markers or `@Transient`, and
    /// the comments of its mapping entry.
    private func property(_ variable: VariableDeclSyntax, binding: SyntaxIdentifier, _ plan: ClassPlan)
        -> VariableDeclSyntax
    {
        var edit = DeclarationHead.Edit()
        edit.removesAttribute = { $0.attributeName.trimmedDescription == "objc" }
        edit.removesModifier = { $0.name.tokenKind == .keyword(.dynamic) }
        edit.attributes = plan.transients.contains(binding) ? ["@Transient"] : plan.markers[binding] ?? []
        var result = DeclarationHead.apply(edit, to: variable, keyword: \.bindingSpecifier)
        guard let comments = plan.carried[binding] else { return result }
        var above = comments.above
        if !comments.after.isEmpty {
            if result.trailingTrivia.contains(where: \.isComment) {
                above += comments.after
            } else {
                result.trailingTrivia = Trivia(
                    pieces: [.spaces(1)] + comments.after.flatMap { [$0, .spaces(1)] }.dropLast())
            }
        }
        if !above.isEmpty {
            let indentation = DeclarationHead.indentation(of: result.leadingTrivia)
            result.leadingTrivia += Trivia(pieces: above.flatMap { [$0] + lineBreak.pieces + indentation.pieces })
        }
        return result
    }
}

/// Removing members or statements without losing comments: a removed node's comments stay in
/// its place, each on a line of its own at its indentation — but the doc comments of a removed
/// declaration (they documented it) and the comments that moved with a mapping entry.
struct RemovedCode {
    let claimed: Set<TriviaSite>
    let lineBreak: Trivia

    /// `items` without those in `removing`, the others transformed; what the removed leave is
    /// put before the next item, or before `closing`.
    func list<Item: SyntaxProtocol>(
        _ items: [Item], removing: Set<SyntaxIdentifier>, closing: inout TokenSyntax, _ transform: (Item) -> [Item]
    ) -> [Item] {
        var kept: [Item] = []
        var left: Trivia = []
        var firstRemovedLeading: Trivia?
        for item in items {
            if removing.contains(item.id) {
                if kept.isEmpty, firstRemovedLeading == nil { firstRemovedLeading = item.leadingTrivia }
                left += remainder(of: item)
                continue
            }
            var new = transform(item)
            if kept.isEmpty, let leading = firstRemovedLeading, left.isEmpty {
                // The first item after the brace keeps the layout the first one had.
                new[0].leadingTrivia =
                    Trivia(pieces: Array(leading.prefix { !$0.isComment }))
                    + new[0].leadingTrivia.droppingLeadingWhitespace
            } else if !left.isEmpty {
                new[0].leadingTrivia = join(left, new[0].leadingTrivia)
            }
            left = []
            kept += new
        }
        if !left.isEmpty { closing.leadingTrivia = join(left, closing.leadingTrivia) }
        return kept
    }

    /// The comments `node` leaves behind when it is removed; empty when it leaves none.
    func remainder(of node: some SyntaxProtocol) -> Trivia {
        var comments: [TriviaPiece] = []
        for (position, token) in node.tokens(viewMode: .sourceAccurate).enumerated() {
            for (index, piece) in token.leadingTrivia.enumerated() where piece.isComment {
                if position == 0 && piece.isDocComment { continue }
                if claimed.contains(TriviaSite(token: token.id, leading: true, piece: index)) { continue }
                comments.append(piece)
            }
            for (index, piece) in token.trailingTrivia.enumerated() where piece.isComment {
                if claimed.contains(TriviaSite(token: token.id, leading: false, piece: index)) { continue }
                comments.append(piece)
            }
        }
        guard !comments.isEmpty else { return [] }
        let leading = node.leadingTrivia
        let breaks = leading.prefix { !$0.isComment }.reduce(0) { count, piece in
            switch piece {
            case .newlines(let n), .carriageReturnLineFeeds(let n), .carriageReturns(let n): count + n
            default: count
            }
        }
        let indentation = DeclarationHead.indentation(of: leading)
        var result = Trivia(pieces: Array(repeating: lineBreak.pieces, count: max(breaks, 1)).flatMap { $0 })
        for (index, comment) in comments.enumerated() {
            if index > 0 { result += lineBreak }
            result += indentation + [comment]
        }
        return result
    }

    /// What removed code left, then the next token's own trivia: on a new line.
    private func join(_ left: Trivia, _ next: Trivia) -> Trivia {
        next.first?.isNewline == true ? left + next : left + lineBreak + next
    }
}

extension Trivia {
    /// Without the spaces, tabs and line breaks it starts with.
    fileprivate var droppingLeadingWhitespace: Trivia {
        Trivia(pieces: Array(drop { $0.isWhitespace }))
    }
}
