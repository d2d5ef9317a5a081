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
                + "in a property of its own, or mark '\(name)' `@Transient`")
    }

    static func noInitialValue(_ name: String) -> TableDiagnostic {
        error(
            "noInitialValue",
            "property '\(name)' has no initial value, and @DBBTable cannot tell one for its type: give it one "
                + "(`var \(name): Date = .distantPast`), make it optional, or write `required init(dbManager:)` yourself"
        )
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

    static func reserved(_ name: String) -> TableDiagnostic {
        error(
            "reserved",
            "'\(name)' is a column DBBTableObject manages (id, createdTime, modifiedTime): rename the property, "
                + "or map it to another column with @Column(\"…\")")
    }
}
