import SwiftSyntax

/// Something in the way of a conversion: the node to point at and the reason.
struct PlanProblem {
    let node: Syntax
    let reason: String

    init(_ node: some SyntaxProtocol, _ reason: String) {
        self.node = Syntax(node)
        self.reason = reason
    }
}

/// What `init(dbManager:)` maps, read from its statements: the entries of the dictionary given
/// to `addPersistenceMapping`, `attributesDictionary`, the indexer, and the statements that do
/// only that.
struct MappingReading {
    var entries: [Entry] = []
    var attributes: [Attribute] = []
    var indexer: (names: [(String, ExprSyntax)], unique: Bool, node: Syntax)?
    /// The statements the mapping consists of: the call, `attributesDictionary = …`, the
    /// `let`s they use.
    var owned: Set<SyntaxIdentifier> = []
    /// Whether the init does anything else than `super.init` and the mapping.
    var doesMore = false

    /// One `"key": DBBPropertyPersistence(…)`.
    struct Entry {
        let key: String
        let element: DictionaryElementSyntax
        /// The property's name: the key path's, or the key's in DBBBuilder's `type:` form.
        let property: String
        let columnName: String?
        let declared: DeclaredStorage?
        /// The key path's root type as written (`Gadget`, `HandWritten.Gadget`), when it names one.
        let root: String?
        let keyPath: KeyPathExprSyntax?
    }

    /// One `"key": .notNull` of `attributesDictionary`.
    struct Attribute {
        let key: String
        let element: DictionaryElementSyntax
        let notNull: Bool
        let unique: Bool
    }
}

/// Reads the mapping of one `init(dbManager:)`; what it cannot read becomes a ``PlanProblem``.
struct MappingReader {
    let context: ConversionContext
    /// The path of the class (`["HandWritten", "Gadget"]`), for the constants its keys name.
    let scope: [String]
    var problems: [PlanProblem] = []
    /// The names the init's loops mention: a mapping kept in a `var` they change is built in a loop.
    private var namesInLoops: Set<String> = []

    init(context: ConversionContext, scope: [String]) {
        self.context = context
        self.scope = scope
    }

    /// The local constants of the init's body: name → (statement, binding, whether `let`).
    private typealias Locals = [String: (statement: CodeBlockItemSyntax, value: ExprSyntax?, isLet: Bool)]

    mutating func read(_ body: CodeBlockSyntax, call: FunctionCallExprSyntax) -> MappingReading {
        var reading = MappingReading()
        var locals: Locals = [:]
        for statement in body.statements {
            guard let variable = statement.item.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                locals[name] = (statement, binding.initializer?.value, variable.bindingSpecifier.text == "let")
            }
        }
        for statement in body.statements
        where statement.item.is(ForStmtSyntax.self) || statement.item.is(WhileStmtSyntax.self)
            || statement.item.is(RepeatStmtSyntax.self)
        {
            namesInLoops.formUnion(statement.tokens(viewMode: .sourceAccurate).map(\.text))
        }
        var used: Set<String> = []
        // The call: the dictionary, `for: self`, the indexer.
        let arguments = Array(call.arguments)
        if let map = arguments.first, map.label == nil {
            if let dictionary = resolve(map.expression, locals, &used, &reading, what: "the mapping") {
                readEntries(dictionary, into: &reading)
            }
        } else {
            problems.append(PlanProblem(call, "addPersistenceMapping is called without a mapping dictionary"))
        }
        if let target = arguments.first(where: { $0.label?.text == "for" }),
            target.expression.as(DeclReferenceExprSyntax.self)?.baseName.text != "self"
        {
            problems.append(PlanProblem(target, "the mapping is made for another object than self"))
        }
        if let indexer = arguments.first(where: { $0.label?.text == "indexer" }) {
            readIndexer(indexer.expression, locals, &used, &reading)
        }
        // `attributesDictionary = …`, the call, the constants they use, and `super.init`: the
        // init does more when it has any other statement.
        var attributesSet = false
        for statement in body.statements {
            guard let value = Self.attributesAssignment(statement) else { continue }
            if attributesSet { problems.append(PlanProblem(statement, "attributesDictionary is set twice")) }
            attributesSet = true
            reading.owned.insert(statement.id)
            if let dictionary = resolve(value, locals, &used, &reading, what: "attributesDictionary") {
                readAttributes(dictionary, into: &reading)
            }
        }
        for statement in body.statements {
            if statement.item.as(ExprSyntax.self)?.id == ExprSyntax(call).id {
                reading.owned.insert(statement.id)
            } else if let variable = statement.item.as(VariableDeclSyntax.self),
                variable.bindings.allSatisfy({ binding in
                    binding.pattern.as(IdentifierPatternSyntax.self).map { used.contains($0.identifier.text) } ?? false
                })
            {
                reading.owned.insert(statement.id)
            } else if !reading.owned.contains(statement.id) && !Self.isSuperInit(statement) {
                reading.doesMore = true
            }
        }
        // A constant of the mapping that other statements use too stays: then so must the mapping.
        for statement in body.statements where !reading.owned.contains(statement.id) {
            for token in statement.tokens(viewMode: .sourceAccurate) where used.contains(token.text) {
                // A reference to the constant, not a member of that name (`names.map { … }`).
                guard let reference = token.parent?.as(DeclReferenceExprSyntax.self),
                    reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id
                else { continue }
                problems.append(
                    PlanProblem(token, "'\(token.text)' is used by other statements of init(dbManager:) as well"))
            }
        }
        return reading
    }

    // MARK: - The dictionaries

    /// A dictionary literal, or a `let` of the init holding one (`let map = […]`).
    private mutating func resolve(
        _ expression: ExprSyntax, _ locals: Locals, _ used: inout Set<String>, _ reading: inout MappingReading,
        what: String
    ) -> DictionaryExprSyntax? {
        var expression = Self.withoutCast(expression)
        if let reference = expression.as(DeclReferenceExprSyntax.self), let local = locals[reference.baseName.text] {
            guard local.isLet, let value = local.value else {
                let how = namesInLoops.contains(reference.baseName.text) ? "in a loop" : "step by step in a var"
                problems.append(
                    PlanProblem(local.statement, "\(what) is built \(how): write it as one dictionary literal in a let")
                )
                return nil
            }
            used.insert(reference.baseName.text)
            expression = Self.withoutCast(value)
        }
        if expression.as(NilLiteralExprSyntax.self) != nil, what == "attributesDictionary" {
            return DictionaryExprSyntax(content: .colon(.colonToken()))
        }
        guard let dictionary = expression.as(DictionaryExprSyntax.self) else {
            problems.append(PlanProblem(expression, "\(what) is not a dictionary literal, so it cannot be read"))
            return nil
        }
        return dictionary
    }

    /// `[…] as [String: DBBPropertyPersistence]` without the cast.
    private static func withoutCast(_ expression: ExprSyntax) -> ExprSyntax {
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true,
            let first = sequence.elements.first
        {
            return first
        }
        if let cast = expression.as(AsExprSyntax.self) { return cast.expression }
        return expression
    }

    private static func elements(_ dictionary: DictionaryExprSyntax) -> DictionaryElementListSyntax {
        if case .elements(let elements) = dictionary.content { return elements }
        return []
    }

    private mutating func readEntries(_ dictionary: DictionaryExprSyntax, into reading: inout MappingReading) {
        for element in Self.elements(dictionary) {
            guard let key = context.string(element.key, in: scope) else {
                problems.append(PlanProblem(element.key, "the key \(element.key.trimmedDescription) is computed"))
                continue
            }
            guard let call = element.value.as(FunctionCallExprSyntax.self),
                ["DBBPropertyPersistence", "DBBBuilder.DBBPropertyPersistence"].contains(
                    call.calledExpression.trimmedDescription)
            else {
                problems.append(
                    PlanProblem(element.value, "'\(key)' is not mapped by a DBBPropertyPersistence(…) call"))
                continue
            }
            var property: String?
            var root: String?
            var keyPathNode: KeyPathExprSyntax?
            var columnName: String?
            var declared: DeclaredStorage?
            for argument in call.arguments {
                switch argument.label?.text {
                case nil:
                    // `\Gadget.name`, or `\HandWritten.Gadget.name`, which parses as the root
                    // `HandWritten` and the components `Gadget`, `name`: the last one is the property.
                    guard let keyPath = argument.expression.as(KeyPathExprSyntax.self),
                        let names = Self.plainComponents(keyPath), let last = names.last
                    else {
                        problems.append(
                            PlanProblem(argument, "'\(key)' is not mapped by a key path to one property of the class"))
                        continue
                    }
                    property = ConversionContext.unescaped(last)
                    let path = (keyPath.root.map { [$0.trimmedDescription] } ?? []) + names.dropLast()
                    root = path.isEmpty ? nil : path.joined(separator: ".")
                    keyPathNode = keyPath
                case "type":
                    guard let storage = DeclaredStorage(argument.expression) else {
                        problems.append(
                            PlanProblem(
                                argument, "'\(key)': type \(argument.expression.trimmedDescription) is not read"))
                        continue
                    }
                    declared = storage
                    property = property ?? key
                case "columnName":
                    guard let name = context.string(argument.expression, in: scope) else {
                        problems.append(PlanProblem(argument, "'\(key)': the column name is computed"))
                        continue
                    }
                    columnName = name
                default:
                    problems.append(
                        PlanProblem(argument, "'\(key)': the argument \(argument.trimmedDescription) is not read"))
                }
            }
            guard let property else { continue }
            reading.entries.append(
                MappingReading.Entry(
                    key: key, element: element, property: property, columnName: columnName, declared: declared,
                    root: root, keyPath: keyPathNode))
        }
    }

    /// The names of a key path's components when each is a plain name (no `?`, `!`, subscript
    /// or call).
    private static func plainComponents(_ keyPath: KeyPathExprSyntax) -> [String]? {
        var names: [String] = []
        for component in keyPath.components {
            guard case .property(let property) = component.component, property.declName.argumentNames == nil,
                property.genericArgumentClause == nil
            else { return nil }
            names.append(property.declName.baseName.text)
        }
        return names.isEmpty ? nil : names
    }

    // MARK: - Attributes

    /// `attributesDictionary = …` or `self.attributesDictionary = …`: the value.
    private static func attributesAssignment(_ statement: CodeBlockItemSyntax) -> ExprSyntax? {
        guard let sequence = statement.item.as(SequenceExprSyntax.self), sequence.elements.count == 3 else {
            return nil
        }
        let parts = Array(sequence.elements)
        guard parts[1].is(AssignmentExprSyntax.self) else { return nil }
        let target = parts[0].trimmedDescription
        return target == "attributesDictionary" || target == "self.attributesDictionary" ? parts[2] : nil
    }

    private mutating func readAttributes(_ dictionary: DictionaryExprSyntax, into reading: inout MappingReading) {
        for element in Self.elements(dictionary) {
            guard let key = context.string(element.key, in: scope) else {
                problems.append(
                    PlanProblem(element.key, "the attribute key \(element.key.trimmedDescription) is computed"))
                continue
            }
            guard let words = attributeText(element.value) else {
                problems.append(
                    PlanProblem(
                        element.value, "the attributes of '\(key)', \(element.value.trimmedDescription), are not read"))
                continue
            }
            guard let set = ColumnConstraints(words) else {
                problems.append(
                    PlanProblem(
                        element.value,
                        "the attributes of '\(key)' say \"\(words)\": only NOT NULL and UNIQUE exist "
                            + "(registering the class refuses the rest)"))
                continue
            }
            reading.attributes.append(
                MappingReading.Attribute(key: key, element: element, notNull: set.notNull, unique: set.unique))
        }
    }

    /// The attributes an expression gives, as DBBBuilder's text: `.notNull`, `[.notNull, .unique]`,
    /// `ColumnAttribute.unique`, `"NOT NULL UNIQUE"`, `ColumnAttribute.notNull + " " + ColumnAttribute.unique`,
    /// `"\(ColumnAttributes.notNull) \(ColumnAttributes.unique)"`.
    private func attributeText(_ expression: ExprSyntax) -> String? {
        if let member = expression.as(MemberAccessExprSyntax.self) {
            let base = member.base?.trimmedDescription
            guard base == nil || ["ColumnAttribute", "ColumnAttributes"].contains(base!.split(separator: ".").last!)
            else { return context.string(expression, in: scope) }
            switch member.declName.baseName.text {
            case "notNull": return "NOT NULL"
            case "unique": return "UNIQUE"
            default: return nil
            }
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            let parts = array.elements.map { attributeText($0.expression) }
            return parts.contains(nil) ? nil : parts.map { $0! }.joined(separator: " ")
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            var parts: [String] = []
            for (index, element) in sequence.elements.enumerated() {
                if index % 2 == 1 {
                    guard element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else { return nil }
                } else {
                    guard let text = attributeText(element) else { return nil }
                    parts.append(text)
                }
            }
            return parts.joined(separator: " ")
        }
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            var text = ""
            for segment in literal.segments {
                if let string = segment.as(StringSegmentSyntax.self) {
                    text += string.content.text
                } else if let interpolation = segment.as(ExpressionSegmentSyntax.self),
                    interpolation.expressions.count == 1, let inner = interpolation.expressions.first,
                    let value = attributeText(inner.expression)
                {
                    text += value
                } else {
                    return nil
                }
            }
            return text
        }
        if expression.as(DeclReferenceExprSyntax.self) != nil { return context.string(expression, in: scope) }
        return nil
    }

    // MARK: - The indexer

    private mutating func readIndexer(
        _ expression: ExprSyntax, _ locals: Locals, _ used: inout Set<String>, _ reading: inout MappingReading
    ) {
        var expression = expression
        if let reference = expression.as(DeclReferenceExprSyntax.self), let local = locals[reference.baseName.text] {
            guard local.isLet, let value = local.value else {
                problems.append(PlanProblem(local.statement, "the indexer is kept in a var: write it in a let"))
                return
            }
            used.insert(reference.baseName.text)
            expression = value
        }
        if expression.is(NilLiteralExprSyntax.self) { return }
        guard let call = expression.as(FunctionCallExprSyntax.self),
            ["DBBIndexer", "DBBBuilder.DBBIndexer"].contains(call.calledExpression.trimmedDescription)
        else {
            problems.append(PlanProblem(expression, "the indexer \(expression.trimmedDescription) is not read"))
            return
        }
        var names: [(String, ExprSyntax)] = []
        var unique = false
        for argument in call.arguments {
            switch argument.label?.text {
            case "columnsToIndex", "columnNames":
                guard let array = argument.expression.as(ArrayExprSyntax.self) else {
                    problems.append(PlanProblem(argument, "the indexer's columns are not an array literal"))
                    return
                }
                for element in array.elements {
                    guard let name = context.string(element.expression, in: scope) else {
                        problems.append(
                            PlanProblem(
                                element, "the indexed name \(element.expression.trimmedDescription) is computed"))
                        return
                    }
                    if !name.isEmpty { names.append((name, element.expression)) }
                }
            case "unique":
                guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
                    problems.append(PlanProblem(argument, "the indexer's unique: is not true or false"))
                    return
                }
                unique = literal.literal.tokenKind == .keyword(.true)
            default:
                problems.append(
                    PlanProblem(argument, "the indexer's argument \(argument.trimmedDescription) is not read"))
                return
            }
        }
        reading.indexer = (names, unique, Syntax(call))
    }

    /// `super.init(dbManager: …)`.
    private static func isSuperInit(_ statement: CodeBlockItemSyntax) -> Bool {
        guard let call = statement.item.as(FunctionCallExprSyntax.self),
            let callee = call.calledExpression.as(MemberAccessExprSyntax.self)
        else { return false }
        return callee.base?.is(SuperExprSyntax.self) == true && callee.declName.baseName.text == "init"
    }
}

/// `NOT NULL` and `UNIQUE` read from DBBBuilder's attribute text, as `ColumnAttributes(parsing:)`
/// reads it: both in either order, any case and spacing; `nil` for other words.
struct ColumnConstraints {
    var notNull = false
    var unique = false

    init(notNull: Bool, unique: Bool) {
        self.notNull = notNull
        self.unique = unique
    }

    init?(_ text: String) {
        var words = text.split(whereSeparator: \.isWhitespace).map { $0.uppercased() }[...]
        while let word = words.popFirst() {
            switch word {
            case "UNIQUE":
                unique = true
            case "NOT" where words.first == "NULL":
                words.removeFirst()
                notNull = true
            default:
                return nil
            }
        }
    }
}
