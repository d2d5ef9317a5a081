import DBBMacroKit
import SwiftDiagnostics
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosTestSupport
import XCTest

/// What `@DBBTable` refuses: each message names the declaration and says what to write.
final class TableDiagnosticTests: XCTestCase {
    let macros: [String: any Macro.Type] = [
        "DBBTable": TableMacro.self, "Column": MarkerMacro.self, "Unique": MarkerMacro.self,
        "NotNull": MarkerMacro.self, "Indexed": MarkerMacro.self, "Transient": MarkerMacro.self,
        "JSON": MarkerMacro.self,
    ]

    /// Expands `source` and checks its messages against `expected`, in order: each at its line
    /// and column (unless the line is 0), starting with the given text.
    func assertDiagnostics(
        _ source: String, _ expected: [(line: Int, column: Int, message: String)], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let (tree, _, diagnostics) = expand(source)
        let converter = SourceLocationConverter(fileName: "test.swift", tree: tree)
        let actual = diagnostics.map { diagnostic in
            let location = diagnostic.location(converter: converter)
            return (location.line, location.column, diagnostic.message)
        }
        XCTAssertEqual(actual.count, expected.count, "\(actual)", file: file, line: line)
        for (got, want) in zip(actual, expected) {
            // Line 0: the message alone (a peer macro's node can be detached from the file).
            XCTAssertTrue(
                (want.line == 0 || (got.0 == want.line && got.1 == want.column)) && got.2.hasPrefix(want.message),
                "got \(got), expected \(want)", file: file, line: line)
        }
    }

    /// `source` parsed, expanded, and the messages of the expansion.
    func expand(_ source: String) -> (tree: SourceFileSyntax, expanded: String, diagnostics: [Diagnostic]) {
        let tree = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(
            sourceFiles: [tree: .init(moduleName: "Test", fullFilePath: "test.swift")])
        let expanded = tree.expand(
            macros: macros,
            contextGenerator: { syntax in
                BasicMacroExpansionContext(sharingWith: context, lexicalContext: syntax.allMacroLexicalContexts())
            }, indentationWidth: .spaces(4))
        return (tree, expanded.description, context.diagnostics)
    }

    /// A refused class still gets an `init(dbManager:)` (one that stops the program): without
    /// it, Swift added "class has no initializers" and a missing `required` initializer after
    /// the macro's own message.
    func testRefusedClassGetsAnInitializer() {
        let source = """
            @DBBTable
            final class Broken: DBBTableObject {
                var name: String
                var lookup: [String: Int] = [:]
            }
            """
        let (_, expanded, diagnostics) = expand(source)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(expanded.contains("public required init(dbManager: DBBManager) {"), expanded)
        XCTAssertTrue(expanded.contains("fatalError(\"@DBBTable could not expand Broken"), expanded)
        XCTAssertFalse(expanded.contains("generatedMapping"), expanded)
    }

    func testNotAClass() {
        assertDiagnostics(
            """
            @DBBTable
            struct Point {
                var x = 0
            }
            """,
            [(1, 1, "@DBBTable applies to a class: write `@DBBTable final class Name: DBBTableObject { … }`")])
    }

    func testMissingFinal() {
        assertDiagnostics(
            """
            @DBBTable
            class Person: DBBTableObject {
                var name = ""
            }
            """,
            [
                (
                    2, 1,
                    "@DBBTable class 'Person' must be final (a subclass's properties would not be read or written by "
                        + "the code generated for this one): write `final class Person`"
                )
            ])
    }

    func testLetProperty() {
        assertDiagnostics(
            """
            @DBBTable
            final class Person: DBBTableObject {
                let name = ""
            }
            """,
            [
                (
                    3, 5,
                    "property 'name' is a 'let', which a fetch cannot set: write `var name`, or mark it `@Transient` "
                        + "to keep it out of the table"
                )
            ])
    }

    func testUnstorableTypes() {
        assertDiagnostics(
            """
            @DBBTable
            final class Person: DBBTableObject {
                var scores: [String: Int] = [:]
                var pair: (Int, Int) = (0, 0)
                var tags: Set<String> = []
                var handler: (() -> Void)?
            }
            """,
            [
                (3, 17, "property 'scores' of type '[String: Int]' is a dictionary, which no column stores"),
                (4, 15, "property 'pair' of type '(Int, Int)' is a tuple, which no column stores"),
                (5, 15, "property 'tags' of type 'Set<String>' is a Set (unordered), which no column stores"),
                (6, 18, "property 'handler' of type '(() -> Void)?' is a function, which no column stores"),
            ])
    }

    func testNoInitialValue() {
        assertDiagnostics(
            """
            @DBBTable
            final class Event: DBBTableObject {
                var when: Date
            }
            """,
            [(3, 9, "property 'when' has no initial value, and @DBBTable cannot tell one for its type")])
    }

    /// A property whose type the declaration neither writes nor shows by a literal gets no
    /// storage of its own, so its assignments cannot be noted: a warning says to write the type.
    /// A column type made of literals (`Decimal(0)`, `Int8(3)`) shows it; a failable
    /// initializer (`Int("5")`) or a member (`Status.draft`) does not.
    func testUntrackedProperties() {
        let source = """
            @DBBTable
            final class Order: DBBTableObject {
                var status = Status.draft
                var amount = Decimal(0)
                var small = Int8(-3)
                var parsed = Int("5")
                var flag = Bool(false)
                @JSON var address = Address()
            }
            """
        assertDiagnostics(
            source,
            [
                (3, 9, "the type of property 'status' is neither written nor shown by a literal"),
                (6, 9, "the type of property 'parsed' is neither written nor shown by a literal"),
            ])
        let expanded = expand(source).expanded
        for marked in [
            "@_DBBStored(1)\n    var amount", "@_DBBStored(4)\n    var small", "@_DBBStored(2)\n    var flag",
        ] {
            XCTAssertTrue(expanded.contains(marked), "\(marked) in \(expanded)")
        }
        XCTAssertFalse(expanded.contains("var _dbb_status"), expanded)
    }

    func testMarkersWhereTheyMeanNothing() {
        assertDiagnostics(
            """
            @DBBTable
            final class Person: DBBTableObject {
                @Unique @Transient var cache = ""
                @Column("") var name = ""
            }
            """,
            [
                (3, 5, "@Unique on 'cache', which is @Transient and so has no column: remove @Unique"),
                (4, 5, "@Column on 'name' takes the column's name as a non-empty string literal"),
            ])
    }

    func testTwoPropertiesOneColumnAndAReservedColumn() {
        assertDiagnostics(
            """
            @DBBTable
            final class Person: DBBTableObject {
                var name = ""
                @Column("NAME") var title = ""
                @Column("createdTime") var made = 0
            }
            """,
            [
                (4, 25, "properties 'name' and 'title' both map to column 'NAME'"),
                (5, 32, "@Column(\"createdTime\") on 'made' names a column DBBTableObject manages"),
            ])
    }

    /// A property named `ID` is refused by its name: `@Column` cannot help (the mapping refuses
    /// the name whatever its column), so the advice does not offer it.
    func testPropertyNamedLikeAManagedColumn() {
        assertDiagnostics(
            """
            @DBBTable
            final class Person: DBBTableObject {
                var ID = 0
                @Column("userCreated") var CreatedTime = 0.0
            }
            """,
            [
                (3, 9, "'ID' is named like a column DBBTableObject manages"),
                (4, 32, "'CreatedTime' is named like a column DBBTableObject manages"),
            ])
        assertDiagnostics(
            """
            @DBBTable
            final class Person: DBBTableObject {
                @Column("userID") var ID = 0
            }
            """,
            [(3, 27, "'ID' is named like a column DBBTableObject manages")])
    }

    func testMarkerOffAProperty() {
        assertDiagnostics(
            """
            @Unique func f() {}
            """,
            [(1, 1, "@Unique marks a stored property of a @DBBTable class")])
    }

    func testWeakReferencesAndTuplePatterns() {
        assertDiagnostics(
            """
            @DBBTable
            final class Pair: DBBTableObject {
                weak var buddy: Pair?
                unowned var owner: Pair
                var (x, y) = (1, 2)
            }
            """,
            [
                (3, 5, "property 'buddy' is 'weak': an object a fetch loads for it would be freed at once"),
                (4, 5, "property 'owner' is 'unowned'"),
                (5, 9, "@DBBTable maps properties declared one name at a time"),
            ])
    }

    func testTypesTheLibraryCannotStoreAndMarkersOnJoinTables() {
        assertDiagnostics(
            """
            @DBBTable
            final class Page: DBBTableObject {
                var initial: Character?
                var amount: Foundation.NSDecimalNumber
                var words: [Substring] = []
                @Unique var tags: [String] = []
                @Indexed var blob: Data?
                @Column("page_tags") var labels: [String] = []
            }
            """,
            [
                (
                    3, 18,
                    "property 'initial' of type 'Character?' is a Character (store it as a String), which no column "
                        + "stores: store it as a String or Data in a property of its own, mark it `@JSON` if the type "
                        + "is Codable, or mark 'initial' `@Transient`"
                ),
                (
                    4, 17,
                    "property 'amount' of type 'Foundation.NSDecimalNumber' is an NSDecimalNumber (store a Decimal)"
                ),
                (5, 16, "property 'words' of type '[Substring]' is a Substring (store a String)"),
                (6, 5, "@Unique on 'tags', which is stored in a join table of its own, not in a column"),
                (7, 5, "@Indexed on 'blob', which is stored in a join table of its own"),
            ])
    }

    /// `@JSON` stores what no column holds otherwise (a dictionary, a Set) as one value; no
    /// constraint or index applies to it, and it needs a value to start with like any property.
    func testJSONTakesWhatColumnsDoNotAndRefusesConstraints() {
        assertDiagnostics(
            """
            @DBBTable
            final class Profile: DBBTableObject {
                @JSON var scores: [String: Int] = [:]
                @JSON var tags: Set<String> = []
                @JSON @Unique var address: Address?
                @JSON @Indexed var settings = Settings()
                @JSON var avatar: Picture
                @JSON @Transient var cache: [String: Int] = [:]
            }
            """,
            [
                (
                    5, 11,
                    "@Unique on 'address', which is stored as JSON: SQLite compares its text and PostgreSQL's jsonb "
                        + "its value, so no constraint or index means the same on both"
                ),
                (6, 11, "@Indexed on 'settings', which is stored as JSON"),
                (8, 5, "@JSON on 'cache', which is @Transient and so has no column: remove @JSON"),
            ])
        assertDiagnostics(
            """
            @DBBTable
            final class Profile: DBBTableObject {
                @JSON var avatar: Picture
            }
            """,
            [(3, 15, "property 'avatar' has no initial value, and @DBBTable cannot tell one for its type")])
    }

    func testClassesTheMacroDoesNotMap() {
        assertDiagnostics(
            """
            @DBBTable
            final class Loose {
                var a = 0
            }
            """,
            [(2, 13, "@DBBTable class 'Loose' must subclass DBBTableObject")])
        assertDiagnostics(
            """
            @DBBTable
            final class Box<T>: DBBTableObject {
                var v = 0
            }
            """,
            [(2, 16, "@DBBTable class 'Box' is generic")])
    }

    func testMarkersOutsideADBBTableClass() {
        assertDiagnostics(
            """
            final class Plain: DBBTableObject {
                @NotNull var name = ""
            }
            struct Point {
                @Column("x") var x = 0
            }
            """,
            [
                (0, 0, "@NotNull marks a stored property of a @DBBTable class"),
                (0, 0, "@Column marks a stored property of a @DBBTable class"),
            ])
    }

    func testAMissingValueNamesTheType() {
        assertDiagnostics(
            """
            @DBBTable
            final class Event: DBBTableObject {
                var kind: Kind
                @Transient var cache: NSCache<NSString, NSString>
            }
            """,
            [
                (
                    3, 9,
                    "property 'kind' has no initial value, and @DBBTable cannot tell one for its type: give it one (`var kind: Kind = …`)"
                ),
                (4, 20, "property 'cache' has no initial value"),
            ])
    }
}
