import DBBBuilder
import DBBCodeGen
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// The repository's root, found from this file.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let golden = repository.appendingPathComponent("Tests/DBBCodeGenTests/Golden")

@Suite("dbb-codegen: declarations in, DBBTableObject subclasses out")
struct CodeGeneratorTests {
    static func generate(
        _ input: String, _ configure: (inout GeneratorOptions) -> Void, defaultType: PropertyType? = nil
    ) throws -> String {
        let text = try String(contentsOf: golden.appendingPathComponent(input), encoding: .utf8)
        let properties = try DeclarationParser.parse(text, defaultType: defaultType)
        var options = GeneratorOptions(className: input == "single.input" ? "Note" : "Gadget")
        options.source = input
        configure(&options)
        return try ClassGenerator.generate(properties, options: options)
    }

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("Swift declarations, with attributes, modifiers, comments and a keyword name, in DBBBuilder's form")
    func swiftForm() throws {
        let output = try Self.generate("swift.input") {
            $0.form = .dbbbuilder
            $0.index = ["name", "serial"]
            $0.uniqueIndex = true
            $0.notNull = ["copyright", "name"]
            $0.unique = ["name", "serial"]
            $0.columns = ["variance": "spread"]
        }
        #expect(output == (try Self.expected("swift.expected.swift")))
        #expect(
            output.contains(
                "attributesDictionary = [Keys.copyright: .notNull, Keys.name: [.notNull, .unique], Keys.serial: .unique]"
            ),
            "attributes in their typed form")
        #expect(
            output.contains("var variance = 0.25") && output.contains("var copyright = \"(c)\""),
            "variance and copyright keep their names")
    }

    @Test("Objective-C @property lines")
    func objectiveCForm() throws {
        let output = try Self.generate("objc.input") { $0.unique = ["name"] }
        #expect(output == (try Self.expected("objc.expected.swift")))
    }

    @Test("a compact list, types inferred from literals, a default type for bare names")
    func compactForm() throws {
        let output = try Self.generate("compact.input", { _ in }, defaultType: .named("Int"))
        #expect(output == (try Self.expected("compact.expected.swift")))
    }

    @Test("the @DBBTable form carries the options as markers and the macro's indexes")
    func macroForm() throws {
        let output = try Self.generate("swift.input") {
            $0.index = ["name", "serial"]
            $0.uniqueIndex = true
            $0.notNull = ["copyright", "name"]
            $0.unique = ["name", "serial"]
            $0.columns = ["variance": "spread"]
        }
        #expect(
            output.contains("@DBBTable(indexes: [DBBIndexer(columnsToIndex: [\"name\", \"serial\"], unique: true)])"))
        #expect(
            output.contains("    @NotNull @Unique var name") && output.contains("    @NotNull var copyright = \"(c)\""))
        #expect(output.contains("    @Column(\"spread\") var variance = 0.25"))
        #expect(!output.contains("addPersistenceMapping") && !output.contains("enum Keys"))
    }

    @Test("names alone, separated by commas or spaces, as DBBBuilder's code generator took them")
    func nameList() throws {
        let properties = try DeclarationParser.parse(
            "firstName, lastName nickname\n\tcity,country\nvar age = 0\n", defaultType: .named("String"))
        #expect(properties.map(\.name) == ["firstName", "lastName", "nickname", "city", "country", "age"])
        #expect(properties.map(\.type.description) == ["String", "String", "String", "String", "String", "Int"])
        #expect(properties.map(\.line) == [1, 1, 1, 2, 2, 3])
        // Without a default type every name is reported; a name twice names the first line.
        #expect {
            try DeclarationParser.parse("title, author\n")
        } throws: { error in
            (error as? DeclarationErrors)?.errors.map(\.line) == [1]
        }
        #expect {
            try DeclarationParser.parse("title author\ntitle\n", defaultType: .named("String"))
        } throws: { error in
            (error as? DeclarationErrors)?.errors.first?.reason.hasPrefix("'title' is already declared on line 1")
                == true
        }
        // Keywords are names too, written in backticks in the class.
        let keywords = try DeclarationParser.parse("order, class\n", defaultType: .named("Int"))
        let source = try ClassGenerator.generate(keywords, options: GeneratorOptions(className: "Sorted"))
        #expect(source.contains("var `class` = 0") && source.contains("var order = 0"))
    }

    @Test("names the table cannot hold apart, reserved names in any case, and integers past 64 bits are refused")
    func refusedNames() throws {
        #expect {
            try DeclarationParser.parse(
                "var Name = \"\"\nvar name = \"\"\nvar ID = 0\nvar createdtime = 0\nvar x = 3000000000000000000000\n")
        } throws: { error in
            let reasons = (error as? DeclarationErrors)?.errors.map { "\($0.line): \($0.reason)" } ?? []
            return reasons == [
                "2: 'name' is already declared on line 1 (column names ignore case)",
                "3: 'ID' is a property of every DBBTableObject",
                "4: 'createdtime' is a property of every DBBTableObject",
                "5: 3000000000000000000000 does not fit in a 64-bit integer",
            ]
        }
    }

    @Test(
        "Decimal, UUID, URL, enums (a case as default), @JSON values and Objective-C's NSDecimalNumber, NSURL, NSUUID")
    func valueTypes() throws {
        let output = try Self.generate("values.input") { $0.className = "Invoice" }
        #expect(output == (try Self.expected("values.expected.swift")))
        let hand = try Self.generate("values.input") {
            $0.className = "Invoice"
            $0.form = .dbbbuilder
        }
        #expect(hand.contains("Keys.shipTo: DBBPropertyPersistence(json: \\Invoice.shipTo),"))
        #expect(hand.contains("Keys.status: DBBPropertyPersistence(\\Invoice.status),"))
        #expect(hand.contains("var shipTo: Address = Address()") && !hand.contains("@JSON"))
        // What has no start, no marker or no case is refused, each line with its reason.
        #expect {
            _ = try DeclarationParser.parse(
                "var home: URL\n@JSON var shipTo: Address\nvar status: Status\nvar counts: [String: Int] = [:]\n")
        } throws: { error in
            let reasons = (error as? DeclarationErrors)?.errors.map { "\($0.line): \($0.reason)" } ?? []
            return reasons.count == 4 && reasons[0].hasPrefix("1: 'home' of type URL has no obvious value")
                && reasons[1].hasPrefix("2: 'shipTo' of type Address has no obvious value")
                && reasons[2].contains("an enum is written with its default case (= .someCase)")
                && reasons[3].hasPrefix("4: [String: Int] is a dictionary, which no column stores: mark it @JSON")
        }
    }

    @Test("a single property")
    func singleProperty() throws {
        #expect(try Self.generate("single.input") { _ in } == (try Self.expected("single.expected.swift")))
    }

    @Test("unreadable lines are all reported with their numbers")
    func errors() throws {
        let input = """
            var ok = 1
            var bad: URL
            this is not a declaration
            var computed: Int { 3 }
            static var shared = 0
            @property (nonatomic) NSNumber *count;
            var id = 3
            var ok = 2
            var nothing
            """
        #expect {
            _ = try DeclarationParser.parse(input)
        } throws: { error in
            let errors = try #require(error as? DeclarationErrors).errors
            return errors.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9]
                && errors[0].reason.contains("'bad' of type URL has no obvious value to start with")
                && errors[6].reason.contains("already declared on line 1")
        }
        #expect(throws: CodeGenError.self) {
            _ = try ClassGenerator.generate(
                [PropertyDeclaration(name: "a", type: .named("Int"), defaultValue: nil, line: 1)],
                options: {
                    var o = GeneratorOptions(className: "X")
                    o.index = ["b"]
                    return o
                }())
        }
    }

    @Test("the command exits non-zero and writes nothing when a line is unreadable")
    func commandErrors() throws {
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let result = try ScriptFixture.run(
            codegen, ["--class", "Thing"], input: "name: String\nsize: CGSize\nvar x: [String: Int]\n")
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains("stdin: line 2:") && result.stderr.contains("stdin: line 3:"))
        let help = try ScriptFixture.run(codegen, ["--help"])
        #expect(help.status == 0 && help.stdout.contains("Examples:"))
    }
}

// MARK: - From an existing database

final class Owner: DBBTableObject {
    var name = ""
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\Owner.name)], for: self)
    }
}

final class Gizmo: DBBTableObject {
    var title = ""
    var weight: Double?
    var madeDate: Date?
    var tags: [String] = []
    var readings: [Date] = []
    var photo: Data?
    var owner: Owner?
    var users: [Owner] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["title": .notNull]
        dbManager.addPersistenceMapping(
            [
                "title": DBBPropertyPersistence(\Gizmo.title),
                "weight": DBBPropertyPersistence(\Gizmo.weight),
                "madeDate": DBBPropertyPersistence(\Gizmo.madeDate),
                "tags": DBBPropertyPersistence(\Gizmo.tags),
                "readings": DBBPropertyPersistence(\Gizmo.readings),
                "photo": DBBPropertyPersistence(\Gizmo.photo),
                "owner": DBBPropertyPersistence(\Gizmo.owner),
                "users": DBBPropertyPersistence(\Gizmo.users),
            ], for: self)
    }
}

@Suite("dbb-codegen --from-database")
struct FromDatabaseTests {
    @Test("tables become classes; join tables become arrays, Data and references, as the catalog recorded them")
    func fromDatabase() throws {
        let database = try ManagerTestDatabase([Owner.self, Gizmo.self])
        let gizmo = Gizmo(dbManager: database.manager)
        gizmo.owner = Owner(dbManager: database.manager)
        gizmo.users = [Owner(dbManager: database.manager), Owner(dbManager: database.manager)]
        try gizmo.save()
        database.manager.setCurrentDBVersion(1)

        let tables = try DatabaseReader.tables(
            at: database.url, references: ["Gizmo.owner": "Owner", "users": "Owner"])
        #expect(tables.map(\.className) == ["Gizmo", "Owner"], "join tables and DBVersion are not classes")
        let gizmoTable = try #require(tables.first)
        let types = Dictionary(uniqueKeysWithValues: gizmoTable.properties.map { ($0.name, $0.type.description) })
        #expect(
            types == [
                "title": "String", "weight": "Double?", "madeDate": "Date?", "tags": "[String]", "readings": "[Date]",
                "photo": "Data?", "owner": "Owner?", "users": "[Owner]",
            ])
        #expect(gizmoTable.options.notNull == ["title"])
        let source = try ClassGenerator.generate(gizmoTable.properties, options: gizmoTable.options)
        #expect(source.contains("@NotNull var title") && source.contains("var users: [Owner] = []"))
        #expect(source.contains("var tags: [String] = []") && source.contains("var owner: Owner?"))

        // Without --reference the catalog says what each join holds: a reference stays one
        // however many rows it has.
        let plain = try DatabaseReader.tables(at: database.url, only: ["Gizmo"])
        #expect(plain.first?.properties.first { $0.name == "owner" }?.type == .optional(.named("Owner")))
        #expect(plain.first?.properties.first { $0.name == "users" }?.type == .array(.named("Owner")))
        #expect(throws: CodeGenError.self) { _ = try DatabaseReader.tables(at: database.url, only: ["Nope"]) }
    }
}

@Suite("The dbb-demo example")
struct DemoTests {
    @Test("its models are generated by dbb-codegen and up to date")
    func modelsUpToDate() throws {
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let specs = repository.appendingPathComponent("Examples/dbb-demo/ModelSpecs")
        let names = try FileManager.default.contentsOfDirectory(atPath: specs.path).sorted()
        #expect(names.count == 4)
        for name in names {
            let spec = specs.appendingPathComponent(name)
            let directive = try #require(try String(contentsOf: spec, encoding: .utf8).split(separator: "\n").first)
            let options = directive.replacingOccurrences(of: "// dbb-codegen", with: "").split(separator: " ").map(
                String.init)
            let className = try #require(options.firstIndex(of: "--class").map { options[$0 + 1] })
            let result = try ScriptFixture.run(codegen, [spec.path] + options)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let committed = try String(
                contentsOf: repository.appendingPathComponent("Examples/dbb-demo/Models/\(className).swift"),
                encoding: .utf8)
            #expect(
                result.stdout == committed, "Models/\(className).swift is stale: run Examples/dbb-demo/regenerate.sh")
        }
    }

    @Test("swift run dbb-demo works on a new database and again on the same one")
    func demoRuns() throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        let directory = try TemporaryDirectory()
        let path = directory.path("demo.sqlite")
        let first = try ScriptFixture.run(demo, ["--database", path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("new data saved"))
        #expect(
            first.stdout.contains("2011-02 (01-02)") && first.stdout.contains("2010-52 (12-27)")
                && first.stdout.contains("2011-00 (01-01)"),
            "the weekly report groups New Year by US, Russian and strftime weeks")
        #expect(first.stdout.contains("Meetings Alan attends"))
        let second = try ScriptFixture.run(demo, ["--database", path])
        #expect(second.status == 0 && second.stdout.contains("data from an earlier run"))
        #expect(
            second.stdout.split(separator: "\n").dropFirst(2) == first.stdout.split(separator: "\n").dropFirst(2),
            "a second run shows the same")
        let reset = try ScriptFixture.run(demo, ["--database", path, "--reset"])
        #expect(reset.status == 0 && reset.stdout.contains("new data saved"))
    }
}

extension DemoTests {
    @Test("--chart writes the weekly report as an SVG chart: the README's picture, bar for bar")
    func chart() throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        let directory = try TemporaryDirectory()
        let chart = directory.path("weekly.svg")
        let run = try ScriptFixture.run(demo, ["--database", directory.path("demo.sqlite"), "--chart", chart])
        #expect(run.status == 0 && run.stdout.hasSuffix("Chart: \(chart)\n"), "\(run.stderr)")
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        // A bar per week of each grouping, as the text report lists them: 6 US, 5 Russian, 5 German, 6 strftime.
        for (series, weeks) in [("en_US", 6), ("ru_RU", 5), ("de_DE", 5), ("strftime", 6)] {
            #expect(
                svg.components(separatedBy: "data-series=\"\(series)\" data-week=").count - 1 == weeks, "\(series)")
        }
        #expect(
            svg.contains(
                "data-series=\"en_US\" data-week=\"2011-04\" data-start=\"2011-01-16\" data-days=\"1\" data-value=\"2.0\""
            ))
        let committed = try String(
            contentsOf: repository.appendingPathComponent("docs/weekly-report.svg"), encoding: .utf8)
        #expect(
            svg == committed, "docs/weekly-report.svg is stale: run swift run dbb-demo --chart docs/weekly-report.svg")

        let missing = try ScriptFixture.run(
            demo, ["--database", directory.path("demo.sqlite"), "--chart", directory.path("nowhere/weekly.svg")])
        #expect(
            missing.status != 0 && missing.stderr.contains(directory.path("nowhere/weekly.svg")), "\(missing.stderr)")
        #if os(Linux)
        // A folder that exists but takes no files (not even root's): the error names the file.
        let unwritable = try ScriptFixture.run(
            demo, ["--database", directory.path("demo.sqlite"), "--chart", "/proc/weekly.svg"])
        #expect(
            unwritable.status != 0 && unwritable.stderr.contains("/proc/weekly.svg"),
            "\(unwritable.stderr)")
        #endif
    }
}

extension DemoTests {
    @Test("--chart never replaces a database, and --postgres never opens a file: both refused before anything runs")
    func chartAndPostgresRefusals() throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        let directory = try TemporaryDirectory()
        let database = directory.path("demo.sqlite")
        #expect(try ScriptFixture.run(demo, ["--database", database]).status == 0)
        let other = directory.path("other.sqlite")
        do {
            let connection = try SQLiteConnection(path: other)
            try connection.execute("CREATE TABLE Person (name TEXT)")
            try connection.execute("INSERT INTO Person VALUES ('mine')")
        }
        let before = try [database, other].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let refused: [([String], String)] = [
            (["--database", database, "--chart", database], "is the demo's database"),
            (["--database", database, "--chart", database + "-wal"], "is the demo's database"),
            (["--database", database, "--chart", other], "is a SQLite database"),
            (["--database", database, "--chart", ""], "give a file"),
            (["--database", database, "--chart", directory.path("demo.sqlite/x.svg")], "is not a folder"),
            (["--postgres", other], "--postgres takes a PostgreSQL URL"),
            (["--postgres", "postgres//me:secret@localhost/demo"], "--postgres takes a PostgreSQL URL"),
            (["--reset", "--postgres", other], "--postgres takes a PostgreSQL URL"),
        ]
        for (arguments, message) in refused {
            let run = try ScriptFixture.run(demo, arguments)
            #expect(run.status != 0 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("secret"), "\(arguments): the password is never shown")
            #expect(run.stdout.isEmpty, "\(arguments): refused before anything runs: \(run.stdout)")
        }
        let after = try [database, other].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == before, "both databases are as they were")
    }
}

@Suite("The dbb-demo example's default database")
struct DemoDefaultDatabaseTests {
    @Test("without --database, each user's cache folder holds it: a fresh cache gets new data")
    func perUserDefault() throws {
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        let home = try TemporaryDirectory()
        let cache = try TemporaryDirectory()
        let first = try ScriptFixture.run(
            demo, [], environment: ["XDG_CACHE_HOME": cache.url.path, "HOME": home.url.path])
        #expect(first.status == 0, "\(first.stderr)")
        let expected = cache.url.appendingPathComponent("dbb-demo/dbb-demo.sqlite").path
        #expect(first.stdout.hasPrefix("Database: \(expected) (new data saved)"), "\(first.stdout.prefix(200))")
        #expect(FileManager.default.fileExists(atPath: expected))
        let again = try ScriptFixture.run(
            demo, [], environment: ["XDG_CACHE_HOME": cache.url.path, "HOME": home.url.path])
        #expect(again.stdout.contains("data from an earlier run"))

        // Without XDG_CACHE_HOME (or with a relative one): ~/.cache/dbb-demo, written with `~`.
        for xdg: String? in [nil, "relative/cache"] {
            let other = try TemporaryDirectory()
            let run = try ScriptFixture.run(demo, [], environment: ["XDG_CACHE_HOME": xdg, "HOME": other.url.path])
            #expect(
                run.stdout.hasPrefix("Database: ~/.cache/dbb-demo/dbb-demo.sqlite (new data saved)"),
                "\(run.stdout.prefix(200))")
            #expect(
                FileManager.default.fileExists(
                    atPath: other.url.appendingPathComponent(".cache/dbb-demo/dbb-demo.sqlite").path))
        }
    }
}
