import SwiftSyntax

/// How one DBBBuilder-style class becomes a `@DBBTable` class: what ``ClassPlanner`` read from
/// its mapping, and what ``ConversionRewriter`` changes. Nodes are named by their identifiers in
/// the tree that was read.
struct ClassPlan {
    /// `tableName:`, from an override of `databaseTableName` that returns a literal.
    var tableName: String?
    /// The indexes over several columns (`indexes:`); one over a single column is `@Indexed`.
    var indexes: [Index] = []
    /// The markers of each mapped property, by its binding (`name = value` of a declaration).
    var markers: [SyntaxIdentifier: [String]] = [:]
    /// The bindings of the stored properties the mapping leaves out: `@Transient`.
    var transients: Set<SyntaxIdentifier> = []
    /// The class and its stored properties' declarations: they lose `@objc` and `dynamic`, and a
    /// declaration of several properties is split into one per property.
    var stripped: Set<SyntaxIdentifier> = []
    /// Members removed: an `init(dbManager:)` that only maps, the `databaseTableName` override.
    var removedMembers: Set<SyntaxIdentifier> = []
    /// Statements removed from an `init(dbManager:)` that does more than map.
    var removedStatements: Set<SyntaxIdentifier> = []
    /// Comments of mapping entries, moved to the property they describe (by its binding).
    var carried: [SyntaxIdentifier: CarriedComments] = [:]
    /// The comment pieces that moved (so that removing their code does not keep them twice).
    var claimed: Set<TriviaSite> = []
    /// Whether `final` must be added.
    var addsFinal = false

    struct Index: Equatable {
        let names: [String]
        let unique: Bool
    }

    /// The comments of a mapping entry: the lines above it, and the one after it.
    struct CarriedComments {
        var above: [TriviaPiece] = []
        var after: [TriviaPiece] = []
    }

    /// The `@DBBTable` attribute of the class, with its arguments.
    var tableAttribute: String {
        var arguments: [String] = []
        if let tableName { arguments.append("tableName: \(SwiftText.literal(tableName))") }
        if !indexes.isEmpty {
            let list = indexes.map { index in
                let names = index.names.map(SwiftText.literal).joined(separator: ", ")
                return "DBBIndexer(columnsToIndex: [\(names)]\(index.unique ? ", unique: true" : ""))"
            }
            arguments.append("indexes: [\(list.joined(separator: ", "))]")
        }
        return arguments.isEmpty ? "@DBBTable" : "@DBBTable(\(arguments.joined(separator: ", ")))"
    }
}

/// One side of one token's trivia, and the position of a piece in it.
struct TriviaSite: Hashable {
    let token: SyntaxIdentifier
    let leading: Bool
    let piece: Int
}

/// Swift spellings the converter and the generator write.
enum SwiftText {
    /// A string literal of `text`: quotes, backslashes and control characters escaped.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
