import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The marker attributes of one property declaration: `@Column("…")`, `@Unique`, `@NotNull`,
/// `@Indexed`, `@Transient`, `@JSON` (also spelled with the module, `@DBBBuilder.Column`).
struct Markers {
    var column: AttributeSyntax?
    var unique: AttributeSyntax?
    var notNull: AttributeSyntax?
    var indexed: AttributeSyntax?
    var transient: AttributeSyntax?
    var json: AttributeSyntax?

    static let names: Set<String> = ["Column", "Unique", "NotNull", "Indexed", "Transient", "JSON"]

    init(_ attributes: AttributeListSyntax) {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            switch Self.markerName(attribute) {
            case "Column": column = attribute
            case "Unique": unique = attribute
            case "NotNull": notNull = attribute
            case "Indexed": indexed = attribute
            case "Transient": transient = attribute
            case "JSON": json = attribute
            default: continue
            }
        }
    }

    /// The marker an attribute is, without a module prefix (`DBBBuilder.Column` is `Column`).
    static func markerName(_ attribute: AttributeSyntax) -> String {
        let name = attribute.attributeName.trimmedDescription
        return name.hasPrefix("DBBBuilder.") ? String(name.dropFirst("DBBBuilder.".count)) : name
    }

    /// The markers that give a column something, by name: meaningless on a property with no column.
    var columnMarkers: [(String, AttributeSyntax)] {
        [("Column", column), ("Unique", unique), ("NotNull", notNull), ("Indexed", indexed), ("JSON", json)]
            .compactMap { name, attribute in attribute.map { (name, $0) } }
    }

    /// The name of `@Column("name")`: its first argument when that is a non-empty string literal.
    var columnName: ExprSyntax? {
        guard let expression = column?.arguments?.as(LabeledExprListSyntax.self)?.first?.expression,
            let text = Self.literalText(expression), !text.isEmpty
        else { return nil }
        return expression.trimmed
    }

    /// `@Indexed` or `@Indexed(unique: true)`.
    var index: MappedProperty.IndexMarker? {
        guard let indexed else { return nil }
        let unique = indexed.arguments?.as(LabeledExprListSyntax.self)?.contains {
            $0.label?.text == "unique"
                && $0.expression.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true)
        }
        return MappedProperty.IndexMarker(unique: unique ?? false)
    }

    /// The text of a string literal without interpolation.
    static func literalText(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let string = segment.as(StringSegmentSyntax.self) else { return nil }
            text += string.content.text
        }
        return text
    }
}

/// `@Column`, `@Unique`, `@NotNull`, `@Indexed`, `@Transient` and `@JSON`: they generate nothing
/// themselves; `@DBBTable` reads them. Used elsewhere than on a stored property of a class, they
/// say so.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // On a variable of a class marked @DBBTable, the class's macro reads it; anywhere else it
        // would be silently ignored.
        let inTable =
            context.lexicalContext.first?.as(ClassDeclSyntax.self)?.attributes.contains { element in
                guard case .attribute(let attribute) = element else { return false }
                return ["DBBTable", "DBBBuilder.DBBTable"].contains(attribute.attributeName.trimmedDescription)
            } ?? false
        if !declaration.is(VariableDeclSyntax.self) || !inTable {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.markerOutside(Markers.markerName(node))))
        }
        return []
    }
}
