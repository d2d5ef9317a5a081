import DBBCodeGen
import DBBTestSupport
import Foundation
import Testing

/// The conversion's fixtures: classes mapped by hand in `Tests/ConversionFixtures/Before` (a
/// target of their own: they compile), DBBBuilder's own `type:` form in
/// `Golden/Convert/dbbbuilder.input` (it does not compile here), and what the converter writes
/// of them in `Tests/ConversionFixtures/After` (a target too).
enum ConversionFiles {
    static let before = repository.appendingPathComponent("Tests/ConversionFixtures/Before")
    static let after = repository.appendingPathComponent("Tests/ConversionFixtures/After")
    static let dbbbuilderForm = golden.appendingPathComponent("Convert/dbbbuilder.input")
    /// The file of `After` that holds the conversion of DBBBuilder's form.
    static let dbbbuilderFormName = "DBBBuilderForm.swift"

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The Swift files of a folder, by name.
    static func swiftFiles(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The sources of `Before`, read together as one `--convert` run reads them.
    static func beforeSources() throws -> [ConversionSource] {
        try swiftFiles(before).map { ConversionSource(path: $0, text: try text(before.appendingPathComponent($0))) }
    }
}

@Suite("dbb-codegen --convert: classes mapped by hand become @DBBTable classes")
struct ConverterTests {
    /// The chain Animal → Pet of Zoo.swift, left as it was: its two reports.
    static func expectChainReported(_ issues: [ConversionIssue]) {
        #expect(issues.map { "\($0.path):\($0.line) \($0.className)" } == ["Zoo.swift:4 Animal", "Zoo.swift:13 Pet"])
        #expect(issues.first?.reason.contains("subclassed by Pet (Zoo.swift:13)") == true)
        #expect(issues.last?.reason.contains("its superclass is Animal, not DBBTableObject") == true)
    }

    @Test("After holds what the converter writes now from Before and from DBBBuilder's own form, and nothing else")
    func goldenFixtures() throws {
        let results = DBBBuilderConverter.convert(try ConversionFiles.beforeSources())
        for result in results {
            let expected = try ConversionFiles.text(ConversionFiles.after.appendingPathComponent(result.path))
            #expect(result.converted == expected, "After/\(result.path) is not what the converter writes now")
        }
        #expect(
            results.map(\.convertedClasses) == [["Maker", "Item"], ["Booking"], ["Reading"], []],
            "Catalog, Ledger, Reading, Zoo")
        Self.expectChainReported(results.flatMap(\.issues))
        #expect(results.last?.changed == false, "Zoo.swift is left byte for byte")

        let form = DBBBuilderConverter.convert([
            ConversionSource(path: "dbbbuilder.input", text: try ConversionFiles.text(ConversionFiles.dbbbuilderForm))
        ])
        #expect(
            form.first?.converted
                == (try ConversionFiles.text(
                    ConversionFiles.after.appendingPathComponent(ConversionFiles.dbbbuilderFormName))))
        #expect(form.first?.convertedClasses == ["Person", "Project", "Meeting"] && form.first?.issues == [])
        #expect(
            try ConversionFiles.swiftFiles(ConversionFiles.after)
                == (try ConversionFiles.swiftFiles(ConversionFiles.before) + [ConversionFiles.dbbbuilderFormName])
                .sorted(),
            "After has no file the converter no longer writes")
    }

    @Test("markers, final, @Transient, tableName:, indexes:, kept Keys, and the comments of the mapping")
    func whatAClassBecomes() throws {
        let catalog = try ConversionFiles.text(ConversionFiles.after.appendingPathComponent("Catalog.swift"))
        let ledger = try ConversionFiles.text(ConversionFiles.after.appendingPathComponent("Ledger.swift"))
        let form = try ConversionFiles.text(
            ConversionFiles.after.appendingPathComponent(ConversionFiles.dbbbuilderFormName))
        for (text, line) in [
            (catalog, "@DBBTable(tableName: \"CatalogItem\")\nfinal class Item: DBBTableObject {"),
            (catalog, "    // What the list shows.\n    @Column(\"name\") @NotNull @Indexed var title = \"\""),
            (catalog, "    @Unique var sku: String? // one row per stock-keeping unit"),
            (catalog, "    @Column(\"weight\") var grams: Int8 = 0 // grams, not ounces"),
            (catalog, "    @Column(\"labels\") var tags: [String] = []"),
            (catalog, "    /// Shown in the list, never stored.\n    @Transient var isSelected = false"),
            (catalog, "    @NotNull @Unique var name = \"\"\n    @Column(\"year\") var founded: Int?"),
            (catalog, "    // MARK: - Mapping\n    // \"legacy\": DBBPropertyPersistence(\\Item.legacy),\n"),
            (ledger, "@DBBTable(indexes: [DBBIndexer(columnsToIndex: [\"account\", \"booked\"], unique: true)])"),
            (ledger, "        super.init(dbManager: dbManager)\n        // One booking per account and time.\n"),
            (ledger, "    @Transient private(set) var openedBy: String"),
            (form, "@DBBTable\nfinal class Person: DBBTableObject {\n    struct Keys {"),
            (
                form,
                "    @NotNull @Unique var lastName = \"\"\n    var age = 0\n    @Transient var isSelected = false\n}"
            ),
            (form, "    @Column(\"itemName\") @Indexed var name = \"\"\n    var code = \"\""),
            (
                form,
                "@DBBTable(indexes: [DBBIndexer(columnsToIndex: [\"startTime\", \"finishTime\"])])\nfinal class Meeting"
            ),
            (form, "    var startTime: Date? // local time\n"),
        ] {
            #expect(text.contains(line), "\(line)")
        }
        for text in [catalog, ledger, form] {
            #expect(!text.contains("addPersistenceMapping") && !text.contains("@objc") && !text.contains("dynamic "))
        }
        #expect(!catalog.contains("databaseTableName") && !catalog.contains("required init"))
        #expect(ledger.contains("        openedBy = \"init(dbManager:)\"\n    }"), "an init that does more stays")
    }

    @Test("converting converted files changes nothing")
    func idempotent() throws {
        let after = try ConversionFiles.swiftFiles(ConversionFiles.after).map {
            ConversionSource(path: $0, text: try ConversionFiles.text(ConversionFiles.after.appendingPathComponent($0)))
        }
        let results = DBBBuilderConverter.convert(after)
        #expect(results.allSatisfy { !$0.changed && $0.convertedClasses.isEmpty })
        Self.expectChainReported(results.flatMap(\.issues))
    }

    @Test("the porting guide's example converts to the class the guide shows (which the documentation tests compile)")
    func portingGuide() throws {
        let guide = try ConversionFiles.text(
            repository.appendingPathComponent("Sources/DBBBuilder/Documentation.docc/PortingFromDBBBuilder.md"))
        let pairs = Self.conversionExamples(guide)
        #expect(!pairs.isEmpty, "the guide shows a conversion")
        for (name, input, output) in pairs {
            let result = try #require(DBBBuilderConverter.convert([ConversionSource(path: name, text: input)]).first)
            #expect(result.converted == output, "\(name)")
            #expect(result.issues.isEmpty && !result.convertedClasses.isEmpty, "\(name)")
        }
    }

    /// The ```swift blocks after `<!-- convert-input: NAME -->` and after `<!-- example: NAME -->`.
    static func conversionExamples(_ markdown: String) -> [(String, String, String)] {
        let lines = markdown.components(separatedBy: "\n")
        func block(after marker: (String) -> Bool) -> [String: String] {
            var blocks: [String: String] = [:]
            for (index, line) in lines.enumerated() where marker(line) && index + 1 < lines.count {
                let name = line.split(whereSeparator: { " :;".contains($0) }).dropFirst(2).first.map(String.init) ?? ""
                let body = lines[(index + 2)...].prefix { $0 != "```" }
                blocks[name] = body.joined(separator: "\n") + "\n"
            }
            return blocks
        }
        let inputs = block { $0.hasPrefix("<!-- convert-input: ") }
        let outputs = block { $0.hasPrefix("<!-- example: ") }
        return inputs.keys.sorted().map { ($0, inputs[$0]!, outputs[$0] ?? "") }
    }

    @Test("what cannot be converted safely is left as it was, each reason with its line")
    func refusals() throws {
        let source = """
            import DBBBuilder
            import Foundation

            final class ComputedKey: DBBTableObject {
                var title = ""
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    let prefix = "ti"
                    dbManager.addPersistenceMapping([prefix + "tle": DBBPropertyPersistence(\\ComputedKey.title)], for: self)
                }
            }

            final class Looped: DBBTableObject {
                var a = 0
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    var map: [String: DBBPropertyPersistence] = [:]
                    for key in ["a"] { map[key] = DBBPropertyPersistence(\\Looped.a) }
                    dbManager.addPersistenceMapping(map, for: self)
                }
            }

            final class WrongType: DBBTableObject {
                var budget = 0
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["budget": DBBPropertyPersistence(type: .float)], for: self)
                }
            }

            final class Unstorable: DBBTableObject {
                var link: Substring?
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["link": DBBPropertyPersistence(\\Unstorable.link)], for: self)
                }
            }

            final class Renamed: DBBTableObject {
                var firstName = ""
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["first": DBBPropertyPersistence(\\Renamed.firstName)], for: self)
                }
            }

            final class Deferred: DBBTableObject {
                var a = 0
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    setUp(dbManager)
                }
                func setUp(_ manager: DBBManager) {
                    manager.addPersistenceMapping(["a": DBBPropertyPersistence(\\Deferred.a)], for: self)
                }
            }

            final class JoinAttribute: DBBTableObject {
                var tags: [String] = []
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    attributesDictionary = ["tags": .notNull]
                    dbManager.addPersistenceMapping(["tags": DBBPropertyPersistence(\\JoinAttribute.tags)], for: self)
                }
            }

            final class OtherText: DBBTableObject {
                var a = 0
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    attributesDictionary = ["a": "DEFAULT 0"]
                    dbManager.addPersistenceMapping(
                        ["a": DBBPropertyPersistence(\\OtherText.a)], for: self, indexer: DBBIndexer(columnsToIndex: ["b"]))
                }
            }

            final class Derived: DBBTableObject {
                private var celsius = 0.0
                var fahrenheit: Double {
                    get { celsius * 9 / 5 + 32 }
                    set { celsius = (newValue - 32) * 5 / 9 }
                }
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["fahrenheit": DBBPropertyPersistence(\\Derived.fahrenheit)], for: self)
                }
            }

            open class Opened: DBBTableObject {
                var a = 0
                public required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["a": DBBPropertyPersistence(\\Opened.a)], for: self)
                }
            }

            final class Referrer: DBBTableObject {
                weak var owner: Referrer?
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["owner": DBBPropertyPersistence(\\Referrer.owner)], for: self)
                }
            }

            """
        let result = try #require(
            DBBBuilderConverter.convert([ConversionSource(path: "Hostile.swift", text: source)]).first)
        #expect(result.converted == source && result.convertedClasses.isEmpty, "every class is left as it was")
        let expected: [(String, Int, String)] = [
            ("ComputedKey", 9, "the key prefix + \"tle\" is computed"),
            ("Looped", 17, "the mapping is built in a loop"),
            ("WrongType", 27, "the mapping says type: .float, but 'budget' is Int (from its initial value)"),
            ("Unstorable", 32, "'link' is a Substring"),
            ("Renamed", 43, "the key 'first' is not the property's name 'firstName'"),
            ("Deferred", 54, "the mapping is made in setUp(), not in init(dbManager:)"),
            (
                "JoinAttribute", 62,
                "attributesDictionary gives 'tags' NOT NULL or UNIQUE, which is stored in a join table"
            ),
            ("OtherText", 71, "the attributes of 'a' say \"DEFAULT 0\": only NOT NULL and UNIQUE exist"),
            ("OtherText", 73, "DBBIndexer indexes 'b', which the mapping does not map"),
            ("Derived", 79, "'fahrenheit' is computed"),
            ("Opened", 89, "the class is open"),
            ("Referrer", 98, "'owner' is weak"),
        ]
        #expect(result.issues.count == expected.count, "\(result.issues.map(\.description))")
        for ((className, line, reason), issue) in zip(expected, result.issues) {
            #expect(
                issue.className == className && issue.line == line && issue.reason.hasPrefix(reason),
                "expected \(className):\(line) \(reason), got \(issue)")
        }
        #expect(result.issues.first?.description.hasPrefix("Hostile.swift:9:42: ComputedKey not converted: ") == true)
    }

    @Test("a class beside refused ones converts; a file that does not parse is left whole")
    func partialAndUnparsable() throws {
        let mixed = """
            final class Good: DBBTableObject {
                @objc var name = ""
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(type: .string)], for: self)
                }
            }
            final class Bad: DBBTableObject {
                @objc var count = ""
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["count": DBBPropertyPersistence(type: .int)], for: self)
                }
            }
            final class Plain: DBBTableObject {}

            """
        let broken = "final class Broken: DBBTableObject {\n    var a = \n}\n"
        let results = DBBBuilderConverter.convert([
            ConversionSource(path: "Mixed.swift", text: mixed), ConversionSource(path: "Broken.swift", text: broken),
        ])
        #expect(results[0].convertedClasses == ["Good"])
        #expect(
            results[0].converted.hasPrefix("@DBBTable\nfinal class Good: DBBTableObject {\n    var name = \"\"\n}\n"))
        let untouched = try #require(mixed.range(of: "final class Bad"))
        #expect(results[0].converted.hasSuffix(mixed[untouched.lowerBound...]), "Bad and Plain stay byte for byte")
        #expect(results[0].issues.map(\.className) == ["Bad"], "Plain has no mapping: not a DBBBuilder-style class")
        #expect(results[1].converted == broken && results[1].issues.count == 1)
        #expect(results[1].issues.first?.className == "" && results[1].issues.first?.line == 2)
    }

    @Test("nested classes, classes in extensions, qualified key paths and keys, constants of another type")
    func namesAndScopes() throws {
        let source = """
            let titleKey = "title"
            enum Columns: String { case code = "code" }

            enum Shop {
                final class Gadget: DBBTableObject {
                    var name = ""
                    var title = ""
                    var code = ""
                    required init(dbManager: DBBManager) {
                        super.init(dbManager: dbManager)
                        dbManager.addPersistenceMapping(
                            [
                                "name": DBBPropertyPersistence(\\Shop.Gadget.name),
                                titleKey: DBBPropertyPersistence(\\Gadget.title),
                                Columns.code.rawValue: DBBPropertyPersistence(\\Self.code),
                            ], for: self)
                    }
                }
            }
            extension Shop {
                final class Part: DBBTableObject {
                    enum Keys { static let serial = "serial" }
                    var serial = 0
                    var owner: Gadget?
                    required init(dbManager: DBBManager) {
                        super.init(dbManager: dbManager)
                        dbManager.addPersistenceMapping([Self.Keys.serial: DBBPropertyPersistence(\\Part.serial)], for: self)
                    }
                }
                final class Shared: DBBTableObject {
                    var a = 0
                    var names: [String] = []
                    required init(dbManager: DBBManager) {
                        super.init(dbManager: dbManager)
                        let map = ["a": DBBPropertyPersistence(\\Shared.a)]
                        dbManager.addPersistenceMapping(map, for: self)
                        names = map.keys.map { $0 }.map { $0 }
                    }
                }
                final class Through: DBBTableObject {
                    var part: Part?
                    required init(dbManager: DBBManager) {
                        super.init(dbManager: dbManager)
                        dbManager.addPersistenceMapping(["serial": DBBPropertyPersistence(\\Through.part.serial)], for: self)
                    }
                }
            }

            """
        let result = try #require(
            DBBBuilderConverter.convert([ConversionSource(path: "Shop.swift", text: source)]).first)
        #expect(result.convertedClasses == ["Gadget", "Part"])
        #expect(
            result.converted.contains(
                "    @DBBTable\n    final class Gadget: DBBTableObject {\n        var name = \"\"\n"))
        #expect(result.converted.contains("        var serial = 0\n        @Transient var owner: Gadget?\n    }"))
        #expect(result.issues.map { "\($0.className):\($0.line)" } == ["Shared:37", "Through:44"])
        #expect(result.issues.first?.reason == "'map' is used by other statements of init(dbManager:) as well")
        #expect(result.issues.last?.reason.hasPrefix("the key path \\Through.part.serial is not of Through") == true)
    }

    @Test("a file with CRLF line breaks gets them in the lines the converter adds too")
    func crlf() throws {
        func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") }
        let sources = try ConversionFiles.beforeSources().map { ConversionSource(path: $0.path, text: crlf($0.text)) }
        for result in DBBBuilderConverter.convert(sources) {
            let expected = try ConversionFiles.text(ConversionFiles.after.appendingPathComponent(result.path))
            #expect(result.converted == crlf(expected), "\(result.path)")
        }
    }

    @Test("the command: --check writes nothing, --in-place and --output-dir write, standard input, exit status")
    func command() throws {
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let folder = try TemporaryDirectory()
        let names = try ConversionFiles.swiftFiles(ConversionFiles.before)
        let models = folder.url.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: ConversionFiles.before.appendingPathComponent(name), to: models.appendingPathComponent(name))
        }
        let paths = names.map { models.appendingPathComponent($0).path }
        func contents(_ folder: URL) throws -> [String] {
            try names.map { try ConversionFiles.text(folder.appendingPathComponent($0)) }
        }
        let before = try contents(ConversionFiles.before)
        let after = try contents(ConversionFiles.after)

        let check = try ScriptFixture.run(codegen, ["--convert"] + paths + ["--check"])
        #expect(check.status == 1 && check.stdout.isEmpty)
        #expect(check.stderr.contains("\(models.path)/Catalog.swift: would convert Maker, Item\n"))
        #expect(check.stderr.contains("\(models.path)/Zoo.swift:4:7: Animal not converted: it is subclassed by Pet"))
        #expect(check.stderr.hasSuffix("would convert 4 classes in 3 files; 2 left as they were (see above)\n"))
        #expect(try contents(models) == before, "--check writes nothing")

        let output = folder.url.appendingPathComponent("Out")
        let copy = try ScriptFixture.run(
            codegen, ["--convert"] + paths + ["--output-dir", output.path, "--allow-unconverted"])
        #expect(copy.status == 0, "--allow-unconverted: the chain is still reported, \(copy.stderr)")
        #expect(copy.stderr.contains("Pet not converted"))
        #expect(try contents(output) == after && (try contents(models)) == before)

        let inPlace = try ScriptFixture.run(codegen, ["--convert"] + paths + ["--in-place"])
        #expect(inPlace.status == 1, "the chain was left")
        #expect(try contents(models) == after)
        let again = try ScriptFixture.run(codegen, ["--convert"] + paths + ["--check", "--allow-unconverted"])
        #expect(again.status == 0, "nothing would change: \(again.stderr)")
        #expect(again.stderr.hasSuffix("would convert 0 classes in 0 files; 2 left as they were (see above)\n"))

        let reading = try ConversionFiles.text(ConversionFiles.before.appendingPathComponent("Reading.swift"))
        let piped = try ScriptFixture.run(codegen, ["--convert", "-"], input: reading)
        #expect(piped.status == 0 && piped.stderr == "dbb-codegen: converted 1 class in 1 file\n")
        #expect(
            piped.stdout == (try ConversionFiles.text(ConversionFiles.after.appendingPathComponent("Reading.swift"))))
    }

    @Test("options that do not fit together are refused before anything is read or written")
    func commandRefusals() throws {
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let folder = try TemporaryDirectory()
        let a = try folder.write(Data("final class A {}\n".utf8), to: "A.swift")
        let b = try folder.write(Data("final class B {}\n".utf8), to: "B.swift")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("x"), withIntermediateDirectories: true)
        let other = try folder.write(Data("final class C {}\n".utf8), to: "x/A.swift")
        let out = folder.path("Out")
        for (arguments, message) in [
            (["--convert"], "--convert takes the Swift files to convert"),
            (["--convert", a, b], "several files are written with --in-place or --output-dir"),
            (
                ["--convert", a, "--in-place", "--output-dir", out],
                "--in-place, --output-dir and --output exclude each other"
            ),
            (["--convert", a, "--check", "--in-place"], "--check writes nothing"),
            (["--convert", a, other, "--output-dir", out], "would both be written as A.swift"),
            (["--convert", "-", "--in-place"], "standard input cannot be converted in place"),
            (["--convert", a, "--class", "A"], "--class and --from-database do not apply"),
            ([a, "--in-place"], "--in-place, --check and --allow-unconverted go with --convert"),
            (["--convert", folder.path("missing.swift")], "cannot read"),
        ] {
            let result = try ScriptFixture.run(codegen, arguments)
            #expect(result.status != 0 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try ConversionFiles.text(URL(fileURLWithPath: a)) == "final class A {}\n")
    }
}
