import DBBMacroKit
import Foundation
import SwiftSyntax

/// Decides whether a class converts, and how: a DBBBuilder-style class (one that calls
/// `addPersistenceMapping`) becomes a ``ClassPlan`` when the `@DBBTable` class would map the
/// same table, columns, join tables and indexes; otherwise every reason why not.
enum ClassPlanner {
    enum Outcome {
        /// Not a DBBBuilder-style class (no mapping of its own, or `@DBBTable` already).
        case untouched
        case convert(ClassPlan)
        case refuse([PlanProblem])
    }

    static func plan(_ decl: ClassDeclSyntax, scope: [String], context: ConversionContext) -> Outcome {
        let shape = ClassShape(decl)
        let calls = shape.mappingCalls
        guard !shape.attributeNames.contains("DBBTable"), let call = calls.first else { return .untouched }
        let name = decl.name.text
        var problems = classProblems(shape, context: context)
        if calls.count > 1 {
            problems.append(
                PlanProblem(
                    calls[1], "addPersistenceMapping is called \(calls.count) times: merge the mappings into one"))
        }
        guard let initializer = shape.initializer, let body = initializer.decl.body,
            call.parent?.parent?.id == body.statements.id
        else {
            return .refuse(problems + [PlanProblem(call, placeReason(call))])
        }
        var reader = MappingReader(context: context, scope: scope)
        let reading = reader.read(body, call: call)
        problems += reader.problems
        for reference in shape.attributeReferences where !isInside(reference, reading.owned) {
            problems.append(
                PlanProblem(
                    reference, "attributesDictionary is used outside the mapping's statements: move it into them"))
        }
        var plan = ClassPlan()
        var entries: [String: MappingReading.Entry] = [:]  // by key, which is the property's name
        var markers: [String: [String]] = [:]  // by property
        for entry in reading.entries {
            if let problem = check(entry, of: shape, name, &entries) {
                problems.append(problem)
            } else if let column = entry.columnName, !column.isEmpty, column != entry.property {
                markers[entry.property, default: []].append("@Column(\(SwiftText.literal(column)))")
            }
        }
        var constraints: [String: ColumnConstraints] = [:]
        for attribute in reading.attributes {
            let subject = "attributesDictionary gives '\(attribute.key)' NOT NULL or UNIQUE"
            if let problem = columnProblem(attribute.key, entries, shape, attribute.element, subject) {
                problems.append(problem)
            } else if constraints[attribute.key] != nil {
                problems.append(PlanProblem(attribute.element, "attributesDictionary names '\(attribute.key)' twice"))
            } else {
                constraints[attribute.key] = ColumnConstraints(notNull: attribute.notNull, unique: attribute.unique)
            }
        }
        for (key, constraint) in constraints.sorted(by: { $0.key < $1.key }) {
            if constraint.notNull { markers[key, default: []].append("@NotNull") }
            if constraint.unique { markers[key, default: []].append("@Unique") }
        }
        if let indexer = reading.indexer {
            for (key, node) in indexer.names {
                if let problem = columnProblem(key, entries, shape, node, "DBBIndexer indexes '\(key)'") {
                    problems.append(problem)
                }
            }
            if indexer.names.count == 1, let key = indexer.names.first?.0 {
                markers[key, default: []].append(indexer.unique ? "@Indexed(unique: true)" : "@Indexed")
            } else if indexer.names.count > 1 {
                plan.indexes = [ClassPlan.Index(names: indexer.names.map(\.0), unique: indexer.unique)]
            }
        }
        guard problems.isEmpty else { return .refuse(problems) }
        placeMarkers(shape, entries, markers, &plan)

        if let override = shape.tableNameOverride, let table = override.name {
            plan.tableName = table
            plan.removedMembers.insert(override.member.id)
        }
        if reading.doesMore {
            plan.removedStatements = reading.owned
        } else {
            plan.removedMembers.insert(initializer.member.id)
        }
        plan.addsFinal = !shape.isFinal
        carryComments(reading, shape, &plan)
        return .convert(plan)
    }

    // MARK: - The class

    private static func classProblems(_ shape: ClassShape, context: ConversionContext) -> [PlanProblem] {
        let decl = shape.decl
        let name = decl.name.text
        var problems: [PlanProblem] = []
        if let generics = decl.genericParameterClause {
            problems.append(PlanProblem(generics, "the class is generic, which @DBBTable does not map"))
        }
        if shape.isOpen {
            problems.append(
                PlanProblem(
                    decl.name, "the class is open (subclassable outside the module); a @DBBTable class is final"))
        }
        if shape.superclass != "DBBTableObject" {
            problems.append(
                PlanProblem(
                    decl.inheritanceClause.map(Syntax.init) ?? Syntax(decl.name),
                    "its superclass is \(shape.superclass ?? "missing"), not DBBTableObject: a mapping spread across "
                        + "a superclass chain is left as it is (@DBBTable maps the properties of one final class)"))
        }
        let subclasses = context.subclasses(of: name)
        if !subclasses.isEmpty {
            let list = subclasses.map { "\($0.name) (\($0.path):\($0.line))" }.joined(separator: ", ")
            problems.append(
                PlanProblem(
                    decl.name,
                    "it is subclassed by \(list): a @DBBTable class is final, and a subclass's mapping builds on its "
                        + "superclass's, so the chain is left as it is"))
        }
        for conditional in shape.conditionalMembers {
            problems.append(PlanProblem(conditional, "members inside #if are not read: convert this class by hand"))
        }
        for variable in shape.tuplePatterns {
            problems.append(PlanProblem(variable, "a tuple pattern declares several properties: declare one per var"))
        }
        return problems
    }

    /// Why a mapping call outside `init(dbManager:)`'s own statements cannot be read.
    private static func placeReason(_ call: FunctionCallExprSyntax) -> String {
        var node = call.parent
        while let current = node, !current.is(ClassDeclSyntax.self) {
            if current.is(ForStmtSyntax.self) || current.is(WhileStmtSyntax.self) || current.is(RepeatStmtSyntax.self) {
                return "the mapping is made in a loop: write it as one dictionary literal"
            }
            if current.is(ClosureExprSyntax.self) { return "the mapping is made in a closure" }
            if current.is(IfExprSyntax.self) || current.is(GuardStmtSyntax.self) || current.is(SwitchExprSyntax.self) {
                return "the mapping is made only under a condition"
            }
            if let function = current.as(FunctionDeclSyntax.self) {
                return "the mapping is made in \(function.name.text)(), not in init(dbManager:)"
            }
            if current.is(InitializerDeclSyntax.self) { break }
            node = current.parent
        }
        return "the mapping is not a statement of init(dbManager:) itself"
    }

    private static func isInside(_ node: Syntax, _ statements: Set<SyntaxIdentifier>) -> Bool {
        var current: Syntax? = node
        while let node = current {
            if statements.contains(node.id) { return true }
            current = node.parent
        }
        return false
    }

    // MARK: - The entries

    /// Why one entry cannot convert; records it in `entries` when it can.
    private static func check(
        _ entry: MappingReading.Entry, of shape: ClassShape, _ className: String,
        _ entries: inout [String: MappingReading.Entry]
    ) -> PlanProblem? {
        let name = entry.property
        if entries[entry.key] != nil || entries.values.contains(where: { $0.property == name }) {
            return PlanProblem(entry.element, "'\(name)' is mapped twice")
        }
        if let root = entry.root, let keyPath = entry.keyPath,
            ![className, "Self"].contains(root.split(separator: ".").last.map(String.init))
        {
            return PlanProblem(
                keyPath,
                "the key path \(keyPath.trimmedDescription) is not of \(className): a mapping of another class's "
                    + "(a superclass's) property, or through a property, is left as it is")
        }
        if entry.key != name {
            return PlanProblem(
                entry.element.key,
                "the key '\(entry.key)' is not the property's name '\(name)': @DBBTable names a property by its "
                    + "Swift name, so conditions, sorting and indexes that say '\(entry.key)' would change; map it "
                    + "as '\(name)' first (with columnName: \"\(entry.columnName ?? entry.key)\" to keep its column)")
        }
        guard let property = shape.properties[name] else {
            return PlanProblem(
                entry.element, "'\(name)' is not a property declared in \(className) (a superclass's, or misspelled?)")
        }
        if let reason = refusal(of: property) { return PlanProblem(property.binding, reason) }
        if let spelled = property.annotation, let reason = DBBTableRules.unstorableReason(spelled) {
            return PlanProblem(
                spelled, "'\(name)' is \(reason), which @DBBTable does not store: change its type or convert by hand")
        }
        if let declared = entry.declared, let type = property.type, !declared.agrees(with: type) {
            let origin = property.annotation == nil ? " (from its initial value)" : ""
            return PlanProblem(
                entry.element.value,
                "the mapping says type: \(declared.spelling), but '\(name)' is \(type)\(origin); @DBBTable stores "
                    + "a property by its Swift type: make the two agree first")
        }
        entries[entry.key] = entry
        return nil
    }

    /// Why a mapped property cannot be a `@DBBTable` column.
    private static func refusal(of property: ClassShape.Property) -> String? {
        let name = property.name
        if property.isStatic { return "'\(name)' is static: a table stores instance properties" }
        if property.isComputed {
            return "'\(name)' is computed: @DBBTable maps stored properties only; store the value in a stored property"
        }
        if property.isLazy { return "'\(name)' is lazy, which @DBBTable leaves out of the table" }
        if property.isLet { return "'\(name)' is a let, which a fetch cannot set: write var" }
        if let ownership = property.ownership {
            return
                "'\(name)' is \(ownership): an object a fetch loads for it would be freed at once; remove \(ownership)"
        }
        return nil
    }

    /// Why an attribute or an index cannot name `key`: not mapped, or stored in a join table.
    private static func columnProblem(
        _ key: String, _ entries: [String: MappingReading.Entry], _ shape: ClassShape, _ node: some SyntaxProtocol,
        _ what: String
    ) -> PlanProblem? {
        guard let entry = entries[key] else {
            return PlanProblem(node, "\(what), which the mapping does not map (registering the class refuses it)")
        }
        let type = shape.properties[entry.property]?.type
        let isJoin =
            entry.declared?.isJoin
            ?? type.map { type in
                if case .array = type.unwrapped { return true }
                return type.unwrapped == .named("Data")
            } ?? false
        return isJoin
            ? PlanProblem(node, "\(what), which is stored in a join table (registering the class refuses it)") : nil
    }

    // MARK: - The declarations

    /// Puts each mapped property's markers on it, and `@Transient` on each stored property the
    /// mapping leaves out (a declaration of several is split, one property per `var`).
    private static func placeMarkers(
        _ shape: ClassShape, _ entries: [String: MappingReading.Entry], _ markers: [String: [String]],
        _ plan: inout ClassPlan
    ) {
        plan.stripped.insert(shape.decl.id)
        for variable in shape.declarations {
            let properties = variable.bindings.compactMap {
                $0.pattern.as(IdentifierPatternSyntax.self).flatMap {
                    shape.properties[ConversionContext.unescaped($0.identifier.text)]
                }
            }
            guard properties.contains(where: \.isStored) else { continue }
            plan.stripped.insert(variable.id)
            for property in properties where property.isStored {
                if entries[property.name] != nil {
                    if let list = markers[property.name], !list.isEmpty { plan.markers[property.binding.id] = list }
                } else if !property.isTransient {
                    plan.transients.insert(property.binding.id)
                }
            }
        }
    }

    // MARK: - Comments

    /// Moves the comments of each mapping and attribute entry (the lines above it, the one after
    /// it) to the declaration of its property; commented-out entries stay with the removed code.
    private static func carryComments(_ reading: MappingReading, _ shape: ClassShape, _ plan: inout ClassPlan) {
        let elements =
            reading.entries.map { ($0.property, $0.element) } + reading.attributes.map { ($0.key, $0.element) }
        for (name, element) in elements {
            guard let binding = shape.properties[name]?.binding,
                let first = element.firstToken(viewMode: .sourceAccurate),
                let last = element.lastToken(viewMode: .sourceAccurate)
            else { continue }
            var carried = plan.carried[binding.id] ?? ClassPlan.CarriedComments()
            for (index, piece) in first.leadingTrivia.enumerated() where piece.isComment && !looksLikeCode(piece) {
                carried.above.append(piece)
                plan.claimed.insert(TriviaSite(token: first.id, leading: true, piece: index))
            }
            for (index, piece) in last.trailingTrivia.enumerated() where piece.isComment {
                carried.after.append(piece)
                plan.claimed.insert(TriviaSite(token: last.id, leading: false, piece: index))
            }
            plan.carried[binding.id] = carried
        }
    }

    /// A comment that is an entry put out of use (`// "name": DBBPropertyPersistence(…),`).
    private static func looksLikeCode(_ piece: TriviaPiece) -> Bool {
        guard case .lineComment(let text) = piece else { return false }
        let body = text.dropFirst(2).trimmingCharacters(in: .whitespaces)
        return body.hasSuffix(",") || body.contains("DBBPropertyPersistence(") || body.contains("addPersistenceMapping")
    }
}
