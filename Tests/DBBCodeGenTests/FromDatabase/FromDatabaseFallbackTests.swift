import DBBBackendTestSupport
import DBBBuilder
import DBBCodeGen
import DBBTestSupport
import Foundation
import Testing

/// Indexed and unique the DBBBuilder way: an indexer over two properties, one over a single
/// property (unique), and a UNIQUE attribute.
final class Tagged: DBBTableObject {
    var name = ""
    var code: String?
    var rank = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["code": .unique]
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Tagged.name), "code": DBBPropertyPersistence(\Tagged.code),
                "rank": DBBPropertyPersistence(\Tagged.rank),
            ], for: self, indexer: DBBIndexer(columnsToIndex: ["name", "code"]))
        dbManager.addPersistenceMapping([:], for: self, indexer: DBBIndexer(columnsToIndex: ["rank"], unique: true))
    }
}

@Suite("dbb-codegen --from-database without a catalog, and the tables it leaves out")
struct FromDatabaseFallbackTests {
    /// The declared types of each backend for the columns other SQL adds.
    static func types(_ backend: Backend) -> (integer: String, text: String, real: String) {
        backend == .sqlite ? ("Integer", "Text", "Real") : ("bigint", "text", "double precision")
    }

    @Test(
        "no catalog (a file DBBBuilder wrote): declared types, NOT NULL, DEFAULTs, join tables and their targets, indexes",
        arguments: Backend.allCases)
    func withoutCatalog(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Owner.self, Gizmo.self, Tagged.self]) else { return }
        let manager = database.manager
        let owners = (0..<3).map { _ in Owner(dbManager: manager) }
        let first = Gizmo(dbManager: manager)
        (first.title, first.owner, first.users, first.readings) = ("first", owners[0], owners, [Date()])
        let second = Gizmo(dbManager: manager)
        (second.title, second.owner, second.users) = ("second", owners[1], [owners[2]])
        try DBBTableObject.save([first, second], manager: manager)
        try manager.execute(#"DROP TABLE "dbb_columns""#)
        let (integer, text, real) = Self.types(backend)
        try manager.execute(#"ALTER TABLE "Gizmo" ADD COLUMN "priority" \#(integer) NOT NULL DEFAULT 5"#)
        try manager.execute(#"ALTER TABLE "Gizmo" ADD COLUMN "label" \#(text) DEFAULT 'it''s'"#)
        try manager.execute(#"ALTER TABLE "Gizmo" ADD COLUMN "ratio" \#(real) DEFAULT -2.5"#)
        try manager.execute(#"UPDATE "Gizmo" SET "ratio" = NULL WHERE "title" = 'second'"#)

        let reading = try DatabaseReader.read(manager)
        #expect(reading.tables.map(\.className) == ["Gizmo", "Owner", "Tagged"] && reading.skipped.isEmpty)
        let gizmo = try #require(reading.tables.first)
        let types = Dictionary(uniqueKeysWithValues: gizmo.properties.map { ($0.name, $0.type.description) })
        #expect(
            types == [
                "title": "String", "weight": "Double?", "madeDate": "Double?", "tags": "[String]",
                // DBBBuilder's DateTimeStamp tells a date array on SQLite; PostgreSQL's is double precision.
                "readings": backend == .sqlite ? "[Date]" : "[Double]", "photo": "Data?",
                // The target trigger (SQLite) or foreign key (PostgreSQL) names the class.
                "owner": "Owner?", "users": "[Owner]", "priority": "Int", "label": "String", "ratio": "Double?",
            ], "\(types)")
        #expect(gizmo.options.notNull == ["title", "priority"])
        let source = try ClassGenerator.generate(gizmo.properties, options: gizmo.options)
        #expect(source.contains("@NotNull var priority = 5") && source.contains(#"var label = "it's""#), "\(source)")
        #expect(reading.notes.contains { $0.hasPrefix("Gizmo.madeDate is") && $0.contains("named like a date") })
        #expect(reading.notes.contains { $0.hasPrefix("Gizmo.owner refers to Owner: generated as Owner?") })

        let tagged = try #require(reading.tables.last)
        #expect(
            tagged.options.indexes == [.init(properties: ["name", "code"]), .init(properties: ["rank"], unique: true)])
        #expect(tagged.options.unique == ["code"], "the UNIQUE attribute, not the unique indexer")
        let taggedSource = try ClassGenerator.generate(tagged.properties, options: tagged.options)
        #expect(taggedSource.contains(#"@DBBTable(indexes: [DBBIndexer(columnsToIndex: ["name", "code"])])"#))
        #expect(
            taggedSource.contains("@Unique var code: String?")
                && taggedSource.contains("@Indexed(unique: true) var rank: Int?"), "no catalog: NULL allowed, optional")
        var hand = tagged.options
        hand.form = .dbbbuilder
        let handSource = try ClassGenerator.generate(tagged.properties, options: hand)
        #expect(
            handSource.contains(
                "dbManager.addPersistenceMapping([:], for: self, indexer: DBBIndexer(columnsToIndex: [Keys.rank], unique: true))"
            ), "\(handSource)")
    }

    @Test(
        "tables registration would refuse are left out and named with the reason; exit status 1 unless --allow-skipped",
        arguments: Backend.allCases)
    func leftOut(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend) else { return }
        let statements =
            backend == .sqlite
            ? [
                "CREATE TABLE Report AS SELECT 1 AS total, 'x' AS label",
                "CREATE TABLE Pair (id INTEGER, k TEXT, PRIMARY KEY (id, k))",
                "CREATE TABLE Narrow (id INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID",
                "CREATE TABLE Blobby (id INTEGER PRIMARY KEY, bytes BLOB)",
                "CREATE TABLE Textual (id TEXT PRIMARY KEY)",
                "CREATE TABLE Widget_parts (id INTEGER PRIMARY KEY, Widget_ID INTEGER, parts TEXT)",
                #"CREATE TABLE "order" (id INTEGER PRIMARY KEY, "class" TEXT NOT NULL, "default" INTEGER DEFAULT 3, total REAL GENERATED ALWAYS AS (1.5) VIRTUAL)"#,
            ]
            : [
                #"CREATE TABLE "Report" AS SELECT 1 AS total, 'x' AS label"#,
                #"CREATE TABLE "Pair" (id bigint, k text, PRIMARY KEY (id, k))"#,
                #"CREATE TABLE "Narrow" (id bigint PRIMARY KEY, v text)"#,
                #"CREATE TABLE "Blobby" (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, flag boolean)"#,
                #"CREATE TABLE "Textual" (id text PRIMARY KEY)"#,
                #"CREATE TABLE "Widget_parts" (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "Widget_ID" bigint, parts text)"#,
                #"CREATE TABLE "order" (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "class" text NOT NULL, "default" bigint DEFAULT 3, total double precision GENERATED ALWAYS AS (1.5) STORED)"#,
            ]
        for statement in statements { try database.manager.execute(statement) }
        try database.manager.execute(#"INSERT INTO "order" ("class") VALUES ('first')"#)
        let reading = try DatabaseReader.read(database.manager)
        let reasons = Dictionary(uniqueKeysWithValues: reading.skipped.map { ($0.table, $0.reason) })
        #expect(reasons.keys.sorted() == ["Blobby", "Narrow", "Pair", "Report", "Textual", "Widget_parts"])
        #expect(reasons["Report"]?.hasPrefix("it has no column 'id'") == true)
        #expect(reasons["Pair"]?.hasPrefix("its column 'id' is not the table's (only) PRIMARY KEY") == true)
        #expect(reasons["Narrow"]?.hasPrefix("its column 'id' is not the row id") == true)
        #expect(reasons["Blobby"]?.contains("no property type holds") == true, "\(reasons)")
        #expect(reasons["Textual"]?.hasPrefix("its column 'id' is declared") == true)
        #expect(reasons["Widget_parts"]?.contains("join table of Widget.parts") == true)
        let order = try #require(reading.tables.first)
        #expect(order.className == "Order" && order.options.tableName == "order")
        let source = try ClassGenerator.generate(order.properties, options: order.options)
        #expect(
            source.contains(#"@DBBTable(tableName: "order")"#) && source.contains("final class Order: DBBTableObject"))
        #expect(source.contains("@NotNull var `class` = \"\"") && source.contains("var `default` = 3"), "\(source)")
        #expect(!source.contains("total"), "a generated column is left out")
        #expect(reading.notes.contains("order.total is a generated column: left out (nothing can write it)"))
        #expect(reading.notes.contains("order has no column createdTime: registering its class adds it"))

        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let strict = try ScriptFixture.run(codegen, ["--from-database", database.place])
        #expect(strict.status == 1 && strict.stdout.contains("final class Order"), "the classes are still written")
        #expect(
            strict.stderr.contains("dbb-codegen: table Report is left out: it has no column 'id'"), "\(strict.stderr)")
        let allowed = try ScriptFixture.run(codegen, ["--from-database", database.place, "--allow-skipped"])
        #expect(allowed.status == 0 && allowed.stderr.contains("table Pair is left out"))
        let one = try ScriptFixture.run(codegen, ["--from-database", database.place, "--table", "order"])
        #expect(one.status == 0 && !one.stderr.contains("dbb-codegen: table"), "\(one.stderr)")
    }

    @Test("the command refuses what is not a database, and --allow-skipped without --from-database")
    func refusals() throws {
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let folder = try TemporaryDirectory()
        let notDatabase = folder.path("notes.txt")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: notDatabase))
        for (arguments, message) in [
            (["--from-database", folder.path("missing.sqlite")], "missing.sqlite does not exist"),
            (["--from-database", folder.url.path], "is a folder, not a database"),
            (["--from-database", notDatabase], "notes.txt"),
            (["--class", "X", "--allow-skipped"], "--allow-skipped goes with --from-database"),
        ] {
            let run = try ScriptFixture.run(codegen, arguments, input: "")
            #expect(run.status != 0 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: notDatabase)) == Data("not a database".utf8))
    }
}

extension FromDatabaseFallbackTests {
    @Test(
        "PostgreSQL: a role with only pg_read_all_data generates what the owner does; one that may read nothing is told"
    )
    func readingRoles() throws {
        guard let database = try BackendDatabase(.postgresql, [Owner.self, Gizmo.self]),
            let server = try TestPostgresServer.shared()
        else { return }
        let gizmo = Gizmo(dbManager: database.manager)
        (gizmo.title, gizmo.users) = ("one", [Owner(dbManager: database.manager)])
        try gizmo.save()
        let owner = server.direct(database.place)
        let name = String(owner.split(separator: "/").last!.prefix { $0 != "?" })
        func role(_ grants: String) throws -> (name: String, url: String) {
            let role = "codegen_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
            try database.manager.execute("CREATE ROLE \(role) LOGIN PASSWORD 'codegen-secret' \(grants)")
            return (role, "postgres://\(role):codegen-secret@127.0.0.1:\(server.port)/\(name)?sslmode=disable")
        }
        let reader = try role("IN ROLE pg_read_all_data")
        let none = try role("")
        defer {
            for role in [reader.name, none.name] {
                try? database.manager.execute("DROP OWNED BY \(role)")
                try? database.manager.execute("DROP ROLE \(role)")
            }
        }
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let asOwner = try ScriptFixture.run(codegen, ["--from-database", owner])
        let asReader = try ScriptFixture.run(codegen, ["--from-database", reader.url])
        #expect(asOwner.status == 0 && asReader.status == 0, "\(asOwner.stderr)\n\(asReader.stderr)")
        #expect(asReader.stdout == asOwner.stdout && asReader.stdout.contains("var owner: Owner?"))
        let refused = try ScriptFixture.run(codegen, ["--from-database", none.url])
        #expect(refused.status == 1 && !refused.stderr.contains("codegen-secret"), "\(refused.stderr)")
        #expect(refused.stderr.contains("this role may not read it"), "the catalog: \(refused.stderr)")
        #expect(
            refused.stderr.contains("dbb-codegen: table Gizmo is left out: this role may not read its column(s)"),
            "\(refused.stderr)")
    }
}
