import Foundation

/// Reads property declarations, one per line, in any of three forms:
///
/// - Swift: `var name: String?`, `@objc var age = 0`, `let tags: [String]`,
///   `weak var project: Project?`, `public private(set) var score: Double = 1.5`
/// - Objective-C: `@property (nonatomic, copy) NSString *name;`, `@property NSInteger age;`,
///   `@property (nonatomic, strong) NSArray<Person *> *children;`
/// - compact: `name: String`, `score: Double = 1.5`, or a bare `name` (with a default type)
///
/// Comments (`//`, `/* … */`) and blank lines are skipped, as are `import` lines, `@interface`,
/// `@end`, class headers and braces, so a pasted class works. Names are read as whole tokens,
/// so `variance` and `copyright` stay as they are.
public enum DeclarationParser {
    /// The declarations of `text`.
    /// - Throws: ``DeclarationErrors`` listing every line that could not be read.
    public static func parse(_ text: String, defaultType: PropertyType? = nil) throws(DeclarationErrors)
        -> [PropertyDeclaration]
    {
        var declarations: [PropertyDeclaration] = []
        var errors: [CodeGenError] = []
        var seen: [String: Int] = [:]
        var inBlockComment = false
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            let number = index + 1
            let line = stripComments(rawLine, inBlockComment: &inBlockComment).trimmingCharacters(
                in: .whitespacesAndNewlines)
            if line.isEmpty || isStructural(line) { continue }
            do {
                // DBBBuilder's code generator took names alone, separated by commas or spaces.
                let lineDeclarations =
                    try nameList(line).map { names in
                        try names.map { name in
                            guard let defaultType else {
                                throw CodeGenError(
                                    line: number, text: rawLine,
                                    reason: "'\(name)' has no type: give --default-type for names alone")
                            }
                            return try checked(
                                PropertyDeclaration(name: name, type: defaultType, defaultValue: nil, line: number),
                                line: number, text: line)
                        }
                    } ?? [parseLine(line, number: number, defaultType: defaultType)]
                for declaration in lineDeclarations {
                    // Column names ignore case (SQLite's and the table's): `Name` and `name` collide.
                    if let earlier = seen[declaration.name.lowercased()] {
                        throw CodeGenError(
                            line: number, text: rawLine,
                            reason: "'\(declaration.name)' is already declared on line \(earlier) (column names "
                                + "ignore case)")
                    }
                    seen[declaration.name.lowercased()] = number
                    declarations.append(declaration)
                }
            } catch let error as CodeGenError {
                errors.append(CodeGenError(line: number, text: rawLine, reason: error.reason))
            } catch {
                errors.append(CodeGenError(line: number, text: rawLine, reason: "\(error)"))
            }
        }
        guard errors.isEmpty else { throw DeclarationErrors(errors: errors) }
        return declarations
    }

    /// The names of a line of two or more identifiers separated by commas or spaces
    /// (`firstName, lastName age`), or `nil` for any other line.
    static func nameList(_ line: String) -> [String]? {
        let names = line.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        let declarationWords: Set<String> = [
            "var", "let", "weak", "unowned", "public", "private", "internal", "static",
        ]
        guard names.count >= 2, names.allSatisfy({ isIdentifier($0) && !declarationWords.contains($0) }) else {
            return nil
        }
        return names
    }

    /// Names a table object has already: a declaration may not reuse them.
    static let reservedNames = ReservedNames.tableObjectProperties

    private static func parseLine(_ line: String, number: Int, defaultType: PropertyType?) throws -> PropertyDeclaration
    {
        var text = line
        while text.hasSuffix(";") { text.removeLast() }
        text = text.trimmingCharacters(in: .whitespaces)
        let isJSON = takeJSONMarker(&text)
        var declaration: PropertyDeclaration
        if text.hasPrefix("@property") {
            declaration = try ObjectiveC.parse(text, line: number)
        } else if let swift = try Swift.parse(text, line: number, defaultType: defaultType) {
            declaration = swift
        } else {
            declaration = try compact(text, line: number, defaultType: defaultType)
        }
        if isJSON { declaration = declaration.asJSON() }
        return try checked(declaration, line: number, text: line)
    }

    /// Removes a `@JSON` marker from the attributes that start `text` (`@JSON var a: A`,
    /// `@objc @JSON var a: A`, `@JSON a: A`); whether there was one.
    static func takeJSONMarker(_ text: inout String) -> Bool {
        var words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard let position = words.prefix(while: { $0.hasPrefix("@") }).firstIndex(of: "@JSON") else { return false }
        words.remove(at: position)
        text = words.joined(separator: " ")
        return true
    }

    /// `declaration`, unless it reuses a name every table object has (in any case: column
    /// names ignore it) or has a type no column stores, or none to start with.
    private static func checked(_ declaration: PropertyDeclaration, line number: Int, text line: String) throws
        -> PropertyDeclaration
    {
        if reservedNames.contains(where: { $0.lowercased() == declaration.name.lowercased() }) {
            throw CodeGenError(
                line: number, text: line, reason: "'\(declaration.name)' is a property of every DBBTableObject")
        }
        // An enum (its default a case) or a value stored as JSON: any named type, the compiler
        // checks the rest.
        let storedWhole = declaration.isJSON || declaration.defaultIsCase
        if !storedWhole, let reason = declaration.type.unstorableReason {
            throw CodeGenError(line: number, text: line, reason: reason)
        }
        let startless: Bool =
            switch declaration.type {
            case .named(let name) where declaration.isJSON: !PropertyType.columnTypes.contains(name)
            case .named("URL"): true
            default: false
            }
        if declaration.defaultValue == nil, startless {
            throw CodeGenError(
                line: number, text: line,
                reason: "'\(declaration.name)' of type \(declaration.type) has no obvious value to start with: give it "
                    + "one (= …), or make it optional")
        }
        return declaration
    }

    /// `name: Type [= default]`, `name = default`, or `name` alone.
    private static func compact(_ text: String, line: Int, defaultType: PropertyType?) throws -> PropertyDeclaration {
        let (head, value) = splitDefault(text)
        let parts = head.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = parts.first, isIdentifier(name) else {
            throw CodeGenError(line: line, text: text, reason: "not a property declaration")
        }
        let type: PropertyType
        if parts.count == 2 {
            guard let parsed = PropertyType.parse(parts[1]) else {
                throw CodeGenError(line: line, text: text, reason: "'\(parts[1])' is not a type")
            }
            type = parsed
        } else {
            type = try inferredType(value, line: line, text: text, defaultType: defaultType)
        }
        return PropertyDeclaration(name: name, type: type, defaultValue: value, line: line)
    }

    // MARK: - Pieces shared by the forms

    /// Splits `text` at the first `=` outside a string literal: the declaration and the default.
    static func splitDefault(_ text: String) -> (String, String?) {
        var inString = false
        for index in text.indices {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            if character == "=" && !inString {
                let value = text[text.index(after: index)...].trimmingCharacters(in: .whitespaces)
                return (text[..<index].trimmingCharacters(in: .whitespaces), value.isEmpty ? nil : value)
            }
        }
        return (text, nil)
    }

    /// The type a literal default implies: `0` Int, `1.5` Double, `"…"` String, `true` Bool,
    /// `Date()` Date, `Data()` Data, `[1, 2]` [Int].
    static func inferredType(_ value: String?, line: Int, text: String, defaultType: PropertyType?) throws
        -> PropertyType
    {
        guard let value else {
            if let defaultType { return defaultType }
            throw CodeGenError(
                line: line, text: text,
                reason: "no type and no default value to infer one from (give a type, or --default-type)")
        }
        if let type = literalType(value) {
            if type == .named("Int"), Int64(value.replacingOccurrences(of: "_", with: "")) == nil {
                throw CodeGenError(line: line, text: text, reason: "\(value) does not fit in a 64-bit integer")
            }
            return type
        }
        throw CodeGenError(line: line, text: text, reason: "the type of '\(value)' cannot be inferred; write the type")
    }

    private static func literalType(_ value: String) -> PropertyType? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if value == "true" || value == "false" { return .named("Bool") }
        if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 { return .named("String") }
        if value.hasPrefix("Date(") { return .named("Date") }
        if value.hasPrefix("Data(") { return .named("Data") }
        if value.hasPrefix("UUID(") { return .named("UUID") }
        if value.hasPrefix("Decimal(") { return .named("Decimal") }
        let number = value.hasPrefix("-") ? String(value.dropFirst()) : value
        if let first = number.first, first.isNumber, number.allSatisfy({ $0.isNumber || $0 == "_" }) {
            return .named("Int")
        }
        if let first = number.first, first.isNumber,
            number.allSatisfy({
                $0.isNumber || $0 == "_" || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+"
            })
        {
            return .named("Double")
        }
        if value.hasPrefix("["), value.hasSuffix("]") {
            let inner = value.dropFirst().dropLast().split(separator: ",").first.map(String.init) ?? ""
            return literalType(inner).map { .array($0) }
        }
        return nil
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// Lines of a pasted class that declare nothing.
    private static func isStructural(_ line: String) -> Bool {
        if ["{", "}", "};", "@end"].contains(line) { return true }
        for prefix in ["import ", "@import ", "#import ", "#include ", "@interface", "@implementation", "@class "]
        where line.hasPrefix(prefix) {
            return true
        }
        let words = line.split(separator: " ").map(String.init)
        if let classIndex = words.firstIndex(of: "class"), classIndex + 1 < words.count,
            words[..<classIndex].allSatisfy({ ["final", "public", "open", "internal", "@objc"].contains($0) }),
            line.hasSuffix("{")
        {
            return true
        }
        return false
    }

    /// `line` without `//` comments and `/* … */` comments (which may span lines). One pass
    /// over the scalars: a 100,000-character line costs what its length says.
    static func stripComments(_ line: String, inBlockComment: inout Bool) -> String {
        let scalars = Array(line.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        var inString = false
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if inBlockComment {
                if scalar == "*" && next == "/" {
                    inBlockComment = false
                    index += 2
                } else {
                    index += 1
                }
                continue
            }
            if !inString && scalar == "/" && next == "/" { break }
            if !inString && scalar == "/" && next == "*" {
                inBlockComment = true
                index += 2
                continue
            }
            if scalar == "\"" { inString.toggle() }
            result.append(scalar)
            index += 1
        }
        return String(result)
    }
}

// MARK: - Swift

extension DeclarationParser {
    enum Swift {
        static let modifiers: Set<String> = [
            "public", "private", "fileprivate", "internal", "open", "final", "weak", "unowned", "lazy", "dynamic",
            "override", "nonisolated", "required",
        ]

        /// A Swift `var`/`let` declaration, or `nil` when the line is not one.
        static func parse(_ text: String, line: Int, defaultType: PropertyType?) throws -> PropertyDeclaration? {
            var rest = Substring(text)
            // Attributes (`@objc`, `@objc(name)`, `@NSManaged`…) and modifiers (`private(set)`…).
            while true {
                rest = rest.drop(while: { $0 == " " || $0 == "\t" })
                if rest.hasPrefix("@") {
                    rest = rest.dropFirst().drop(while: { $0.isLetter || $0.isNumber || $0 == "_" })
                    if rest.hasPrefix("(") { rest = rest.drop(while: { $0 != ")" }).dropFirst() }
                    continue
                }
                let word = rest.prefix(while: { $0.isLetter })
                if modifiers.contains(String(word)) {
                    rest = rest.dropFirst(word.count)
                    if rest.hasPrefix("(") { rest = rest.drop(while: { $0 != ")" }).dropFirst() }
                    continue
                }
                if word == "static" || word == "class" {
                    throw CodeGenError(line: line, text: text, reason: "a static property is not stored per object")
                }
                break
            }
            let keyword = rest.prefix(while: { $0.isLetter })
            guard keyword == "var" || keyword == "let", rest.dropFirst(3).first?.isWhitespace == true else {
                return nil
            }
            rest = rest.dropFirst(3).drop(while: { $0 == " " || $0 == "\t" })
            var name = String(rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }))
            rest = rest.dropFirst(name.count)
            name = name.replacingOccurrences(of: "`", with: "")
            guard isIdentifier(name) else {
                throw CodeGenError(line: line, text: text, reason: "a property name is missing")
            }
            if rest.contains("{") {
                throw CodeGenError(
                    line: line, text: text,
                    reason: "a computed property or one with observers cannot be generated; declare it plainly")
            }
            let (typePart, value) = splitDefault(String(rest))
            let typeText = typePart.trimmingCharacters(in: .whitespaces)
            let type: PropertyType
            if typeText.hasPrefix(":") {
                guard let parsed = PropertyType.parse(String(typeText.dropFirst())) else {
                    throw CodeGenError(
                        line: line, text: text,
                        reason: "'\(typeText.dropFirst().trimmingCharacters(in: .whitespaces))' is not a type")
                }
                type = parsed
            } else if typeText.isEmpty {
                type = try inferredType(value, line: line, text: text, defaultType: defaultType)
            } else {
                throw CodeGenError(line: line, text: text, reason: "unexpected '\(typeText)' after the name")
            }
            return PropertyDeclaration(name: name, type: type, defaultValue: value, line: line)
        }
    }
}

// MARK: - Objective-C

extension DeclarationParser {
    enum ObjectiveC {
        static let scalars: [String: String] = [
            "BOOL": "Bool", "bool": "Bool", "NSInteger": "Int", "int": "Int", "long": "Int", "short": "Int16",
            "NSUInteger": "UInt", "unsigned": "UInt", "int64_t": "Int64", "int32_t": "Int32", "int16_t": "Int16",
            "int8_t": "Int8", "uint64_t": "UInt64", "uint32_t": "UInt32", "uint16_t": "UInt16", "uint8_t": "UInt8",
            "double": "Double", "CGFloat": "Double", "NSTimeInterval": "Double", "float": "Float",
        ]
        static let objects: [String: String] = [
            "NSString": "String", "NSMutableString": "String", "NSDate": "Date", "NSData": "Data",
            "NSMutableData": "Data", "NSDecimalNumber": "Decimal", "NSUUID": "UUID", "NSURL": "URL",
        ]
        static let qualifiers: Set<String> = [
            "nullable", "nonnull", "_Nullable", "_Nonnull", "__nullable", "__nonnull",
            "null_unspecified", "_Null_unspecified", "const", "__kindof", "__strong", "__weak",
        ]

        /// `@property (attributes) Type *name` → its Swift form: object pointers are optional
        /// unless marked `nonnull`.
        static func parse(_ text: String, line: Int) throws -> PropertyDeclaration {
            var rest = text.dropFirst("@property".count).trimmingCharacters(in: .whitespaces)
            var nonnull = false
            if rest.hasPrefix("(") {
                guard let close = rest.firstIndex(of: ")") else {
                    throw CodeGenError(line: line, text: text, reason: "unbalanced parentheses in @property")
                }
                let attributes = rest[rest.index(after: rest.startIndex)..<close].split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                nonnull = attributes.contains("nonnull")
                rest = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
            }
            // The name is the last identifier; the type is everything before it.
            let nameStart =
                rest.lastIndex(where: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(rest.index(after:))
                ?? rest.startIndex
            let name = String(rest[nameStart...])
            var typeText = String(rest[..<nameStart])
            guard isIdentifier(name), !typeText.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CodeGenError(line: line, text: text, reason: "not an Objective-C property declaration")
            }
            nonnull = nonnull || typeText.contains("nonnull") || typeText.contains("_Nonnull")
            let isPointer = typeText.contains("*")
            typeText = typeText.replacingOccurrences(of: "*", with: " ")
            var words = typeText.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init).filter {
                !qualifiers.contains($0)
            }
            if words.count > 1, words.first == "unsigned" || words.first == "long" {
                words = [words.joined(separator: " ")]
            }
            let typeName = words.joined(separator: " ")
            let swiftType = try mapType(typeName, pointer: isPointer, line: line, text: text)
            let type: PropertyType = isPointer && !nonnull ? .optional(swiftType) : swiftType
            return PropertyDeclaration(name: name, type: type, defaultValue: nil, line: line)
        }

        private static func mapType(_ name: String, pointer: Bool, line: Int, text: String) throws -> PropertyType {
            if !pointer {
                let key = name.hasPrefix("unsigned") ? "unsigned" : (name.hasPrefix("long") ? "long" : name)
                if let scalar = scalars[key] { return .named(scalar) }
                throw CodeGenError(
                    line: line, text: text, reason: "the Objective-C type '\(name)' has no stored Swift counterpart")
            }
            if let object = objects[name] { return .named(object) }
            if name.hasPrefix("NSArray<") || name.hasPrefix("NSMutableArray<") {
                let inner = name.drop(while: { $0 != "<" }).dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                let element = try mapType(inner, pointer: true, line: line, text: text)
                return .array(element)
            }
            if name == "NSArray" || name == "NSMutableArray" {
                throw CodeGenError(
                    line: line, text: text, reason: "an NSArray needs its element type (NSArray<NSString *> *)")
            }
            if name == "NSNumber" {
                throw CodeGenError(
                    line: line, text: text,
                    reason: "NSNumber does not say which number; declare it in Swift (e.g. age: Int)")
            }
            if name == "id" || name.hasPrefix("id<") {
                throw CodeGenError(line: line, text: text, reason: "'id' cannot be stored; name a class")
            }
            return .named(name)
        }
    }
}
