import DBBTestSupport
import Foundation
import Testing

/// What the compiler says of value types: snippets type-checked by `swiftc` against this
/// build's modules and macro plugin. A type no column stores is refused with a message that says
/// what to write, in a `@DBBTable` class and in a mapping by hand; what the API does not offer
/// (ordering an enum, comparing JSON) does not compile; what it offers does.
@Suite("Value types: compile-time diagnostics")
struct ValueTypeDiagnosticTests {
    static let declarations = """
        import DBBBuilder
        import Foundation

        enum Stage: String { case draft, review }
        struct Address: Codable { var city = "" }

        """

    /// The errors `swiftc -typecheck` reports for `source` (after ``declarations``).
    static func errors(_ source: String) throws -> [String] {
        let macros = try #require(ScriptFixture.product("DBBBuilderMacros-tool"), "the macro plugin beside the tests")
        let build = macros.deletingLastPathComponent()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let runtimeMap = build.appendingPathComponent("CDBBRuntime.build/module.modulemap")
        #expect(FileManager.default.fileExists(atPath: runtimeMap.path))
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("Snippet.swift")
        try (declarations + source).write(to: file, atomically: true, encoding: .utf8)
        let result = try ScriptFixture.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-typecheck", "-swift-version", "6", "-I", build.appendingPathComponent("Modules").path,
                "-Xcc",
                "-fmodule-map-file=" + repository.appendingPathComponent("Sources/CSQLite/module.modulemap").path,
                "-Xcc", "-fmodule-map-file=" + runtimeMap.path,
                "-load-plugin-executable", macros.path + "#DBBBuilderMacros", file.path,
            ])
        let lines = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
        let errors = lines.filter { $0.contains("error:") && !$0.hasPrefix(" ") }
        #expect((result.status == 0) == errors.isEmpty, "\(lines.joined(separator: "\n"))")
        return errors
    }

    @Test("enums, Decimal, UUID, URL and @JSON values compile in a @DBBTable class, a mapping by hand and conditions")
    func storableTypesCompile() throws {
        let errors = try Self.errors(
            """
            @DBBTable
            final class Sheet: DBBTableObject {
                var stage: Stage = .draft
                var stages: [Stage]?
                var amount: Decimal = 0
                var token: UUID?
                var link: URL?
                @JSON var address = Address()
            }

            final class HandSheet: DBBTableObject {
                var stage: Stage?
                var address = Address()
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(
                        [
                            "stage": DBBPropertyPersistence(\\HandSheet.stage),
                            "address": DBBPropertyPersistence(json: \\HandSheet.address),
                        ], for: self)
                }
            }

            func conditions(_ manager: DBBManager) throws {
                _ = try Sheet.instances(
                    where: \\.stage == .draft && \\.amount >= 5 && .contains(\\.stages, .review) && \\.token != nil,
                    sortedBy: [.ascending(\\.amount)], manager: manager)
                _ = try HandSheet.instances(where: \\.stage != .review, manager: manager)
            }
            """)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test("a Codable struct without @JSON is refused saying what to write, in a @DBBTable class and by hand")
    func unstorableTypeSaysWhatToWrite() throws {
        let macro = try Self.errors(
            """
            @DBBTable
            final class Sheet: DBBTableObject {
                var address = Address()
            }
            """)
        #expect(!macro.isEmpty)
        #expect(
            macro.allSatisfy { $0.contains("no column stores this property's type") && $0.contains("@JSON") },
            "\(macro)")
        let hand = try Self.errors(
            """
            final class HandSheet: DBBTableObject {
                var address = Address()
                required init(dbManager: DBBManager) {
                    super.init(dbManager: dbManager)
                    dbManager.addPersistenceMapping(["address": DBBPropertyPersistence(\\HandSheet.address)], for: self)
                }
            }
            """)
        #expect(hand.count == 1 && hand.allSatisfy { $0.contains("DBBPropertyPersistence(json:)") }, "\(hand)")
    }

    @Test("an enum is not ordered with <, and a JSON value is not compared, in typed conditions")
    func whatConditionsDoNotOffer() throws {
        for condition in ["\\.stage < .review", "\\.address == Address()"] {
            let errors = try Self.errors(
                """
                @DBBTable
                final class Sheet: DBBTableObject {
                    var stage: Stage = .draft
                    @JSON var address = Address()
                }

                func conditions(_ manager: DBBManager) throws {
                    _ = try Sheet.instances(where: \(condition), manager: manager)
                }
                """)
            #expect(!errors.isEmpty, "\(condition) compiled")
        }
    }
}
