import SwiftDiagnostics
import SwiftSyntax

/// What `@DBBTable` and its markers tell the developer: each message names the declaration and
/// says what to write instead.
struct TableDiagnostic: DiagnosticMessage {
    let message: String
    let id: String
    let severity: DiagnosticSeverity

    var diagnosticID: MessageID { MessageID(domain: "DBBBuilderMacros", id: id) }

    static func error(_ id: String, _ message: String) -> TableDiagnostic {
        TableDiagnostic(message: message, id: id, severity: .error)
    }

    static let notAClass = error(
        "notAClass", "@DBBTable applies to a class: write `@DBBTable final class Name: DBBTableObject { … }`")

    static func notFinal(_ name: String) -> TableDiagnostic {
        error(
            "notFinal",
            "@DBBTable class '\(name)' must be final (a subclass's properties would not be read or written by the "
                + "code generated for this one): write `final class \(name)`")
    }

    static func letProperty(_ name: String) -> TableDiagnostic {
        error(
            "letProperty",
            "property '\(name)' is a 'let', which a fetch cannot set: write `var \(name)`, or mark it `@Transient` "
                + "to keep it out of the table")
    }

    static func unstorable(_ name: String, _ type: String, _ reason: String) -> TableDiagnostic {
        error(
            "unstorable",
            "property '\(name)' of type '\(type)' is \(reason), which no column stores: store it as a String or Data "
                + "in a property of its own, mark it `@JSON` if the type is Codable, or mark '\(name)' `@Transient`")
    }

    static func markerOnJSON(_ marker: String, _ name: String) -> TableDiagnostic {
        error(
            "markerOnJSON",
            "@\(marker) on '\(name)', which is stored as JSON: SQLite compares its text and PostgreSQL's jsonb its "
                + "value, so no constraint or index means the same on both; remove @\(marker), or index a property "
                + "of its own holding the value to look up")
    }

    static func noInitialValue(_ name: String, _ type: String?) -> TableDiagnostic {
        let example = type.map { "`var \(name): \($0) = …`" } ?? "`var \(name): Type = …`"
        return error(
            "noInitialValue",
            "property '\(name)' has no initial value, and @DBBTable cannot tell one for its type: give it one "
                + "(\(example)), make it optional, or write `required init(dbManager:)` yourself")
    }

    static let tuplePattern = error(
        "tuplePattern",
        "@DBBTable maps properties declared one name at a time: write `var x = 1` and `var y = 2` instead of a "
            + "tuple pattern, or mark the declaration `@Transient`")

    static func weakReference(_ name: String, _ ownership: String) -> TableDiagnostic {
        error(
            "weakReference",
            "property '\(name)' is '\(ownership)': an object a fetch loads for it would be freed at once, and the "
                + "next save would clear the reference; remove '\(ownership)' (a reference between table objects is "
                + "stored as an id, not kept alive by the row), or mark it `@Transient`")
    }

    static func markerOnJoin(_ marker: String, _ name: String) -> TableDiagnostic {
        error(
            "markerOnJoin",
            "@\(marker) on '\(name)', which is stored in a join table of its own, not in a column: remove @\(marker) "
                + "(only @Column applies to it, naming its join table)")
    }

    static func noSuperclass(_ name: String) -> TableDiagnostic {
        error(
            "noSuperclass",
            "@DBBTable class '\(name)' must subclass DBBTableObject: write `final class \(name): DBBTableObject`")
    }

    static func generic(_ name: String) -> TableDiagnostic {
        error(
            "generic",
            "@DBBTable class '\(name)' is generic, which the macro does not map (each specialization would need a "
                + "table of its own): write a non-generic class")
    }

    static func untracked(_ name: String) -> TableDiagnostic {
        TableDiagnostic(
            message: "the type of property '\(name)' is neither written nor shown by a literal, so @DBBTable cannot "
                + "note its assignments: after a partial fetch, setting it to the value a new object has is not "
                + "saved. Write its type (`var \(name): Type = …`)",
            id: "untracked", severity: .warning)
    }

    static func untypedStored(_ name: String) -> TableDiagnostic {
        error("untyped", "property '\(name)' needs a type annotation or an initial value")
    }

    static func markerOutside(_ marker: String) -> TableDiagnostic {
        error(
            "markerOutside",
            "@\(marker) marks a stored property of a @DBBTable class: put it on a `var` of the class, and "
                + "@DBBTable on the class")
    }

    static func markerOnSkipped(_ marker: String, _ name: String, _ why: String) -> TableDiagnostic {
        error("markerOnSkipped", "@\(marker) on '\(name)', which \(why) and so has no column: remove @\(marker)")
    }

    static func columnName(_ name: String) -> TableDiagnostic {
        error(
            "columnName",
            "@Column on '\(name)' takes the column's name as a non-empty string literal: `@Column(\"item_name\")`")
    }

    static func duplicateColumn(_ column: String, _ first: String, _ second: String) -> TableDiagnostic {
        error(
            "duplicateColumn",
            "properties '\(first)' and '\(second)' both map to column '\(column)': give one another @Column name")
    }

    /// A property named like a column DBBTableObject manages, in any case: the mapping refuses
    /// the name itself, whatever its column (`TableMapping`).
    static func reserved(_ name: String) -> TableDiagnostic {
        error(
            "reserved",
            "'\(name)' is named like a column DBBTableObject manages (id, idNum, createdTime, modifiedTime, in any "
                + "case): rename the property (e.g. '\(name)Value'); @Column does not help, the name itself is refused")
    }

    static func reservedColumn(_ column: String, _ property: String) -> TableDiagnostic {
        error(
            "reserved",
            "@Column(\"\(column)\") on '\(property)' names a column DBBTableObject manages (id, idNum, createdTime, "
                + "modifiedTime): give @Column another name")
    }
}
