import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@DBBTable`: from a table-object class's stored properties, the members DBBBuilder's
/// mapping otherwise asks for by hand — the mapping itself (``DBBTableObject/generatedMapping``),
/// `required init(dbManager:)`, the column keys, and the accessors that read a row into the
/// object and hand its values to a statement with plain property code.
public struct TableMacro: MemberMacro, MemberAttributeMacro {
    /// `@_DBBStored(position)` on each mapped property that can have storage of its own (see
    /// ``StoredMacro``): `position` is its place in the mapping's `order`, the bit its setter marks.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self), let variable = member.as(VariableDeclSyntax.self),
            MappedProperty.ownStorageType(of: variable) != nil, let name = StoredMacro.storedName(variable),
            let position = mappedNames(of: classDecl).firstIndex(of: name)
        else { return [] }
        return ["@_DBBStored(\(raw: position))"]
    }

    /// The names of the properties the mapping maps, sorted: its `order` (as
    /// ``readProperties(of:in:)`` finds them when the class has no errors).
    static func mappedNames(of classDecl: ClassDeclSyntax) -> [String] {
        var names: [String] = []
        for member in classDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let skipped =
                variable.modifiers.contains {
                    [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
                } || Markers(variable.attributes).transient != nil
            if skipped { continue }
            for binding in variable.bindings where !isComputed(binding) {
                if let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier {
                    names.append(MappedProperty.unescaped(identifier.text))
                }
            }
        }
        return names.sorted()
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: TableDiagnostic.notAClass))
            return []
        }
        let className = classDecl.name.text
        // After an error, an initializer that stops the program: without it, Swift adds errors
        // of its own that follow from the missing expansion ("class has no initializers").
        let failed = declaresInitWithManager(classDecl) ? [] : [failedInit(className)]
        guard classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else {
            context.diagnose(Diagnostic(node: classDecl.classKeyword, message: TableDiagnostic.notFinal(className)))
            return failed
        }
        guard let clause = classDecl.inheritanceClause, !clause.inheritedTypes.isEmpty else {
            context.diagnose(Diagnostic(node: classDecl.name, message: TableDiagnostic.noSuperclass(className)))
            return failed
        }
        if let generics = classDecl.genericParameterClause {
            context.diagnose(Diagnostic(node: generics, message: TableDiagnostic.generic(className)))
            return failed
        }
        guard let (properties, transients) = readProperties(of: classDecl, in: context) else { return failed }
        let arguments = TableArguments(node)
        var members: [DeclSyntax] = []
        if !declaresInitWithManager(classDecl) {
            guard let initializer = makeInit(properties, transients, in: context) else { return failed }
            members.append(initializer)
        }
        if let table = arguments.tableName {
            members.append("public override class var databaseTableName: String { \(table) }")
        }
        members.append(makeMapping(className, properties, extraIndexes: arguments.indexes))
        if !declaresMember(named: "Keys", in: classDecl) { members.append(makeKeys(properties)) }
        if !declaresMember(named: "Columns", in: classDecl) { members.append(makeColumns(className, properties)) }
        members.append(contentsOf: makeAccessors(properties))
        return members
    }

    // MARK: - Reading the declaration

    /// The mapped properties in name order (the column order of DBBBuilder's tables), or `nil`
    /// when a diagnostic was emitted.
    static func readProperties(of classDecl: ClassDeclSyntax, in context: some MacroExpansionContext)
        -> (properties: [MappedProperty], transients: [TransientProperty])?
    {
        var properties: [MappedProperty] = []
        var transientsToStart: [TransientProperty] = []
        var failed = false
        for member in classDecl.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let markers = Markers(variable.attributes)
            let isStatic = variable.modifiers.contains {
                [.keyword(.static), .keyword(.class)].contains($0.name.tokenKind)
            }
            let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
            for binding in variable.bindings {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
                    if !isStatic {
                        context.diagnose(Diagnostic(node: binding.pattern, message: TableDiagnostic.tuplePattern))
                        failed = true
                    }
                    continue
                }
                // The name as Swift code writes it (`default` in backticks) and as the table
                // and the mapping's keys spell it (without).
                let code = identifier.text
                let name = MappedProperty.unescaped(code)
                if markers.transient != nil, !isStatic, !isLazy, !isComputed(binding), binding.initializer == nil {
                    transientsToStart.append(
                        TransientProperty(
                            code: code, name: name, type: binding.typeAnnotation?.type.trimmed, node: Syntax(binding)))
                }
                let skippedBecause: String? =
                    if isStatic { "is static" } else if isLazy { "is lazy" } else if isComputed(binding) {
                        "is computed"
                    } else if markers.transient != nil { "is @Transient" } else { nil }
                if let skippedBecause {
                    for (marker, attribute) in markers.columnMarkers {
                        context.diagnose(
                            Diagnostic(
                                node: attribute,
                                message: TableDiagnostic.markerOnSkipped(marker, name, skippedBecause)))
                        failed = true
                    }
                    continue
                }
                if variable.bindingSpecifier.tokenKind == .keyword(.let) {
                    context.diagnose(
                        Diagnostic(
                            node: variable.bindingSpecifier, message: TableDiagnostic.letProperty(name),
                            fixIt: FixIt(
                                message: TableFixIt("write 'var'"),
                                changes: [
                                    .replace(
                                        oldNode: Syntax(variable.bindingSpecifier),
                                        newNode: Syntax(variable.bindingSpecifier.with(\.tokenKind, .keyword(.var))))
                                ])))
                    failed = true
                    continue
                }
                if let ownership = variable.modifiers.first(where: {
                    [.keyword(.weak), .keyword(.unowned)].contains($0.name.tokenKind)
                }) {
                    context.diagnose(
                        Diagnostic(node: ownership, message: TableDiagnostic.weakReference(name, ownership.name.text)))
                    failed = true
                    continue
                }
                let spelled = binding.typeAnnotation?.type.trimmed
                let isJSON = markers.json != nil
                if !isJSON, let spelled, let reason = MappedProperty.unstorableReason(spelled) {
                    context.diagnose(
                        Diagnostic(
                            node: binding.typeAnnotation?.type ?? TypeSyntax(spelled),
                            message: TableDiagnostic.unstorable(name, spelled.trimmedDescription, reason)))
                    failed = true
                    continue
                }
                if spelled == nil, binding.initializer == nil {
                    context.diagnose(Diagnostic(node: binding, message: TableDiagnostic.untypedStored(name)))
                    failed = true
                    continue
                }
                if let column = markers.column, markers.columnName == nil {
                    context.diagnose(Diagnostic(node: column, message: TableDiagnostic.columnName(name)))
                    failed = true
                    continue
                }
                let type = spelled ?? binding.initializer.flatMap { MappedProperty.literalType($0.value) }
                if type == nil, !isJSON, binding.accessorBlock == nil {
                    context.diagnose(Diagnostic(node: binding.pattern, message: TableDiagnostic.untracked(name)))
                }
                if !isJSON, let type, case .join = MappedProperty.storage(of: type) {
                    for (marker, attribute) in markers.columnMarkers where marker != "Column" {
                        context.diagnose(
                            Diagnostic(node: attribute, message: TableDiagnostic.markerOnJoin(marker, name)))
                        failed = true
                    }
                }
                if isJSON {
                    // JSON compares as text on SQLite and by value in PostgreSQL's jsonb: no
                    // constraint or index means the same on both.
                    for (marker, attribute) in [("Unique", markers.unique), ("Indexed", markers.indexed)] {
                        guard let attribute else { continue }
                        context.diagnose(
                            Diagnostic(node: attribute, message: TableDiagnostic.markerOnJSON(marker, name)))
                        failed = true
                    }
                }
                properties.append(
                    MappedProperty(
                        name: name, code: code, type: type, columnName: markers.columnName,
                        isUnique: markers.unique != nil, isNotNull: markers.notNull != nil, isJSON: isJSON,
                        index: markers.index,
                        hasInitialValue: binding.initializer != nil
                            || spelled.map { MappedProperty.optionalWrapped($0) != nil } == true,
                        node: Syntax(binding), hasOwnStorage: MappedProperty.ownStorageType(of: variable) != nil))
            }
        }
        if failed || !checkColumns(properties, in: context) { return nil }
        return (properties.sorted { $0.name < $1.name }, transientsToStart)
    }

    /// A `@Transient` stored property without an initial value: the generated
    /// `init(dbManager:)` starts it at its type's zero.
    struct TransientProperty {
        let code: String
        let name: String
        let type: TypeSyntax?
        let node: Syntax
    }

    /// Whether a binding is computed (a getter, or `get`/`set` accessors) rather than stored
    /// (possibly with `willSet`/`didSet`).
    static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        switch binding.accessorBlock?.accessors {
        case nil: false
        case .getter: true
        case .accessors(let accessors):
            accessors.contains { !["willSet", "didSet"].contains($0.accessorSpecifier.text) }
        }
    }

    /// Refuses two properties on one column, and a column DBBTableObject manages.
    static func checkColumns(_ properties: [MappedProperty], in context: some MacroExpansionContext) -> Bool {
        var owners: [String: String] = [:]
        var passed = true
        for property in properties {
            let column = property.columnName.flatMap(Markers.literalText) ?? property.name
            let managed = ["id", "idnum", "createdtime", "modifiedtime"]
            if managed.contains(property.name.lowercased()) {
                context.diagnose(Diagnostic(node: property.node, message: TableDiagnostic.reserved(property.name)))
                passed = false
            } else if managed.contains(column.lowercased()) {
                context.diagnose(
                    Diagnostic(
                        node: property.node, message: TableDiagnostic.reservedColumn(column, property.name)))
                passed = false
            }
            if let first = owners[column.lowercased()] {
                context.diagnose(
                    Diagnostic(
                        node: property.node, message: TableDiagnostic.duplicateColumn(column, first, property.name)))
                passed = false
            }
            owners[column.lowercased()] = property.name
        }
        return passed
    }

    /// Whether the class writes `init(dbManager:)` itself.
    static func declaresInitWithManager(_ classDecl: ClassDeclSyntax) -> Bool {
        classDecl.memberBlock.members.contains { member in
            guard let initializer = member.decl.as(InitializerDeclSyntax.self) else { return false }
            let parameters = initializer.signature.parameterClause.parameters
            return parameters.count == 1 && parameters.first?.firstName.text == "dbManager"
        }
    }

    // MARK: - Generating

    /// `required init(dbManager:)`: the properties without a value get their type's zero.
    static func makeInit(
        _ properties: [MappedProperty], _ transients: [TransientProperty], in context: some MacroExpansionContext
    ) -> DeclSyntax? {
        var assignments: [String] = []
        var failed = false
        let unstarted =
            properties.filter { !$0.hasInitialValue }.map { ($0.code, $0.name, $0.type, $0.node) }
            + transients.map { ($0.code, $0.name, $0.type, $0.node) }
        for (code, name, type, node) in unstarted {
            if let type, MappedProperty.optionalWrapped(type) != nil { continue }
            guard let type, let zero = MappedProperty.zeroValue(type) else {
                context.diagnose(
                    Diagnostic(node: node, message: TableDiagnostic.noInitialValue(name, type?.trimmedDescription)))
                failed = true
                continue
            }
            assignments.append("self.\(code) = \(zero)")
        }
        if failed { return nil }
        let body = (assignments + ["super.init(dbManager: dbManager)"]).joined(separator: "\n")
        return """
            /// Creates an object of the manager's database (generated by `@DBBTable`).
            public required init(dbManager: DBBManager) {
            \(raw: body)
            }
            """
    }

    /// The `init(dbManager:)` of a class the macro refused (its errors say why): it compiles
    /// whatever the properties are, and stops the program if it is ever run.
    static func failedInit(_ className: String) -> DeclSyntax {
        """
        /// Not generated: `@DBBTable` reported errors on `\(raw: className)`.
        public required init(dbManager: DBBManager) {
            fatalError("@DBBTable could not expand \(raw: className): see the compiler's errors")
        }
        """
    }

    /// `generatedMapping`: each property's key path and column, the column attributes of the
    /// markers, and the indexes of `@Indexed` and of the macro's `indexes:` argument.
    static func makeMapping(_ className: String, _ properties: [MappedProperty], extraIndexes: ExprSyntax?)
        -> DeclSyntax
    {
        let entries = properties.map { property in
            let column = property.columnName.map { ", columnName: \($0.trimmedDescription)" } ?? ""
            let label = property.isJSON ? "json: " : ""
            return "\"\(property.name)\": DBBPropertyPersistence(\(label)\\\(className).\(property.code)\(column)),"
        }
        let attributes = properties.compactMap { property -> String? in
            let names = (property.isNotNull ? [".notNull"] : []) + (property.isUnique ? [".unique"] : [])
            return names.isEmpty ? nil : "\"\(property.name)\": [\(names.joined(separator: ", "))],"
        }
        let indexList = properties.compactMap { property in
            property.index.map {
                "DBBIndexer(columnsToIndex: [\"\(property.name)\"]\($0.unique ? ", unique: true" : ""))"
            }
        }
        let extra = extraIndexes.map { " + \($0.trimmedDescription)" } ?? ""
        return """
            /// The mapping of the class's properties (generated by `@DBBTable`).
            public override class var generatedMapping: DBBGeneratedMapping? {
                DBBGeneratedMapping(
                    properties: [\(raw: entries.isEmpty ? ":" : "\n" + entries.joined(separator: "\n") + "\n")],
                    order: [\(raw: properties.map { "\"\($0.name)\"" }.joined(separator: ", "))],
                    attributes: [\(raw: attributes.isEmpty ? ":" : "\n" + attributes.joined(separator: "\n") + "\n")],
                    indexers: [\(raw: indexList.joined(separator: ", "))]\(raw: extra)
                )
            }
            """
    }

    /// Whether the class declares a member `name` itself — a nested type or a property (then
    /// the macro writes no type of that name).
    static func declaresMember(named name: String, in classDecl: ClassDeclSyntax) -> Bool {
        classDecl.memberBlock.members.contains { member in
            let decl = member.decl
            if let variable = decl.as(VariableDeclSyntax.self) {
                return variable.bindings.contains {
                    $0.pattern.as(IdentifierPatternSyntax.self).map { MappedProperty.unescaped($0.identifier.text) }
                        == name
                }
            }
            return decl.as(EnumDeclSyntax.self)?.name.text == name || decl.as(StructDeclSyntax.self)?.name.text == name
                || decl.as(ClassDeclSyntax.self)?.name.text == name
                || decl.as(TypeAliasDeclSyntax.self)?.name.text == name
        }
    }

    /// `Keys`: each property's name, as DBBBuilder's classes spell them for query options
    /// (`sortColumns: [Person.Keys.lastName]`).
    static func makeKeys(_ properties: [MappedProperty]) -> DeclSyntax {
        let keys = properties.map { "public static let \($0.code) = \"\($0.name)\"" }
        return """
            /// The names of the class's properties, for query options (generated by `@DBBTable`).
            public enum Keys {
            \(raw: keys.joined(separator: "\n"))
            }
            """
    }

    /// `Columns`: each property's column key, for typed conditions and sorting.
    static func makeColumns(_ className: String, _ properties: [MappedProperty]) -> DeclSyntax {
        let keys = properties.map { property in
            "public static let \(property.code) = DBBColumnKey(\\\(className).\(property.code))"
        }
        return """
            /// The column keys of the class's properties (generated by `@DBBTable`).
            public enum Columns {
            \(raw: keys.joined(separator: "\n"))
            }
            """
    }

    /// `readColumns(_:)` and `writeColumns(_:)`: the column properties in column order; a
    /// property of a known column type with a plain assignment, one whose spelling does not
    /// tell (an enum, a custom `DBBColumnValue`) through an overload, one marked `@JSON` through
    /// the JSON accessors (join properties take no column and are loaded apart).
    static func makeAccessors(_ properties: [MappedProperty]) -> [DeclSyntax] {
        var reads: [String] = []
        var writes: [String] = []
        for property in properties {
            switch property.storage {
            case .knownColumn(let type):
                let target = property.hasOwnStorage ? MappedProperty.storageName(property.name) : property.code
                reads.append("if let value = try row.next(\(type.trimmedDescription).self) { self.\(target) = value }")
                writes.append("row.add(self.\(target))")
            case .unknown:
                reads.append("try row.decode(&self.\(property.code))")
                writes.append("row.add(self.\(property.code))")
            case .json:
                reads.append("try row.decodeJSON(&self.\(property.code))")
                writes.append("row.addJSON(self.\(property.code))")
            case .join:
                continue
            }
        }
        return [
            """
            /// Reads the row's columns into the properties (generated by `@DBBTable`).
            public override func readColumns(_ row: inout DBBRowDecoder) throws {
            \(raw: reads.joined(separator: "\n"))
            }
            """,
            """
            /// Hands the properties' values to a statement, in column order (generated by `@DBBTable`).
            public override func writeColumns(_ row: inout DBBRowEncoder) {
            \(raw: writes.joined(separator: "\n"))
            }
            """,
        ]
    }
}

/// A fix-it's title.
struct TableFixIt: FixItMessage {
    let message: String
    init(_ message: String) { self.message = message }
    var fixItID: MessageID { MessageID(domain: "DBBBuilderMacros", id: message) }
}

/// The arguments of `@DBBTable(tableName:indexes:)`.
struct TableArguments {
    var tableName: ExprSyntax?
    var indexes: ExprSyntax?

    init(_ node: AttributeSyntax) {
        guard let list = node.arguments?.as(LabeledExprListSyntax.self) else { return }
        for argument in list {
            switch argument.label?.text {
            case "tableName": tableName = argument.expression.trimmed
            case "indexes": indexes = argument.expression.trimmed
            default: continue
            }
        }
    }
}
