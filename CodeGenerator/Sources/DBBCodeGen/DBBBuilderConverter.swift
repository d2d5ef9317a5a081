import SwiftParser
import SwiftSyntax

/// Rewrites DBBBuilder-style table-object classes — a mapping by hand in `init(dbManager:)`
/// with `addPersistenceMapping`, `attributesDictionary` and a `DBBIndexer`, in DBBBuilder's
/// `type:` form or this package's key-path form — as `@DBBTable` classes that map the same
/// table, columns, join tables and indexes: `dbb-codegen --convert`.
///
/// Each class gets `@DBBTable` (with `tableName:` from a `databaseTableName` override that
/// returns a literal, `indexes:` for an index over several columns) and `final`; each mapped
/// property its markers (`@Column`, `@NotNull`, `@Unique`, `@Indexed`), each stored property the
/// mapping leaves out `@Transient`; `@objc`, `@objcMembers` and `dynamic` go. The init goes when
/// it only maps; otherwise its mapping statements go. A `Keys` type stays. Everything else in the
/// files — comments, other members and declarations, formatting — stays byte for byte.
///
/// A class that cannot be converted safely is left as it was and reported with the reason:
/// a class that is subclassed, or whose mapping spans a superclass chain, a computed key, a
/// mapping built step by step, a property the macro cannot store, a `type:` that disagrees with
/// the property's Swift type. Files are read together, so a subclass in one file keeps its
/// superclass in another as it is. Converting a converted file changes nothing.
public enum DBBBuilderConverter {
    /// Converts the files, read together.
    public static func convert(_ sources: [ConversionSource]) -> [ConversionResult] {
        let files = sources.map { ($0, Parser.parse(source: $0.text)) }
        let context = ConversionContext(files.map { (source: $0.0, tree: $0.1) })
        return files.map { convert($0, $1, context) }
    }

    private static func convert(_ source: ConversionSource, _ tree: SourceFileSyntax, _ context: ConversionContext)
        -> ConversionResult
    {
        let locations = SourceLocationConverter(fileName: source.path, tree: tree)
        func issue(_ node: Syntax, _ className: String, _ reason: String) -> ConversionIssue {
            let location = locations.location(for: node.positionAfterSkippingLeadingTrivia)
            return ConversionIssue(
                path: source.path, line: location.line, column: location.column, className: className, reason: reason)
        }
        func unchanged(_ issues: [ConversionIssue]) -> ConversionResult {
            ConversionResult(
                path: source.path, original: source.text, converted: source.text, convertedClasses: [], issues: issues)
        }
        if tree.hasError {
            let error = ErrorFinder.first(in: tree) ?? Syntax(tree)
            return unchanged([issue(error, "", "the file does not parse here: fix it, then convert it")])
        }
        let finder = ClassFinder()
        finder.walk(tree)
        var plans: [SyntaxIdentifier: ClassPlan] = [:]
        var converted: [String] = []
        var issues: [ConversionIssue] = []
        for (decl, scope) in finder.classes {
            let name = decl.name.text
            switch ClassPlanner.plan(decl, scope: scope + [name], context: context) {
            case .untouched:
                continue
            case .convert(let plan):
                plans[decl.id] = plan
                converted.append(name)
            case .refuse(let problems):
                issues += problems.map { issue($0.node, name, $0.reason) }
            }
        }
        guard !plans.isEmpty else { return unchanged(issues) }
        let lineBreak: Trivia = source.text.contains("\r\n") ? .carriageReturnLineFeed : .newline
        let text = ConversionRewriter(plans: plans, lineBreak: lineBreak).rewrite(tree).description
        // A converter's mistake must never reach a file: what it writes parses.
        guard !Parser.parse(source: text).hasError else {
            return unchanged(
                issues + [
                    issue(
                        Syntax(tree), "",
                        "the converted text does not parse, so nothing was changed (a bug of dbb-codegen: please "
                            + "report it with this file)")
                ])
        }
        return ConversionResult(
            path: source.path, original: source.text, converted: text, convertedClasses: converted, issues: issues)
    }

    /// Every class declaration of a file with the path of the types around it.
    private final class ClassFinder: TypeScopeVisitor {
        var classes: [(ClassDeclSyntax, [String])] = []

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            classes.append((node, scope))
            return super.visit(node)
        }
    }

    /// The first place a file does not parse: a missing token, or unexpected text.
    private enum ErrorFinder {
        static func first(in tree: SourceFileSyntax) -> Syntax? {
            for token in tree.tokens(viewMode: .all) {
                if token.presence == .missing { return Syntax(token) }
                var ancestor = token.parent
                while let node = ancestor {
                    if node.is(UnexpectedNodesSyntax.self) { return Syntax(token) }
                    ancestor = node.parent
                }
            }
            return nil
        }
    }
}
