import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Keeps its tags in the join table `ClaimBook_tags`.
@DBBTable
final class ClaimBook: DBBTableObject {
    var title = ""
    var tags: [String] = []
}

/// Takes ClaimBook's join table for its own table.
@DBBTable(tableName: "ClaimBook_tags")
final class ClaimJoinTaker: DBBTableObject {
    var label = ""
}

/// Takes the name of the index on ClaimBook's join table.
@DBBTable(tableName: "ClaimBook_tags_idx")
final class ClaimIndexTaker: DBBTableObject {
    var label = ""
}

/// `ClaimShelf_box` + `items` and `ClaimShelf` + `box_items` both name `ClaimShelf_box_items`.
@DBBTable(tableName: "ClaimShelf_box")
final class ClaimCrate: DBBTableObject {
    var items: [String] = []
}

@DBBTable
final class ClaimShelf: DBBTableObject {
    @Column("box_items") var boxItems: [String] = []
}

/// Takes DBBBuilder's version table.
@DBBTable(tableName: "DBVersion")
final class ClaimVersion: DBBTableObject {
    var note = ""
}

/// Takes the package's catalog of mapped properties.
@DBBTable(tableName: "dbb_columns")
final class ClaimCatalog: DBBTableObject {
    var note = ""
}

/// Takes the PostgreSQL locale functions' rules table.
@DBBTable(tableName: "dbb_locale_rules")
final class ClaimRules: DBBTableObject {
    var identifier = ""
}

@Suite("Table names: a class never takes a table or index another class or the package owns")
struct TableNameClaimTests {
    private func isClash(_ error: any Error, _ names: String...) -> Bool { NameClaims.isClash(error, names) }
    private func saveBook(_ manager: DBBManager) throws -> Int64 { try NameClaims.saveBook(manager) }

    @Test(
        "a class whose table is another class's join table is refused, naming both; the tags stay",
        arguments: Backend.allCases)
    func joinTableTakenLater(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ClaimBook.self]) else { return }
        let id = try saveBook(db.manager)
        let before = try db.columns(of: "ClaimBook_tags")
        #expect {
            try db.manager.register([ClaimJoinTaker.self])
        } throws: { isClash($0, "ClaimJoinTaker", "ClaimBook.tags", "'ClaimBook_tags'", "databaseTableName") }
        #expect(try db.columns(of: "ClaimBook_tags") == before)
        #expect(try ClaimBook.instance(id: id, manager: db.manager)?.tags.sorted() == ["classic", "formal"])
        // The class stays unusable: no save or fetch maps it behind registration's back.
        #expect(throws: DBBError.self) { try ClaimJoinTaker.all(manager: db.manager) }
        #expect(try db.rows(of: "ClaimBook_tags") == 2)
    }

    @Test(
        "registered in one call, in either order, the clash is refused and no table is made",
        arguments: Backend.allCases)
    func joinTableTakenInOneCall(_ backend: Backend) throws {
        for order in [[ClaimBook.self, ClaimJoinTaker.self], [ClaimJoinTaker.self, ClaimBook.self]]
            as [[DBBTableObject.Type]]
        {
            guard let db = try BackendDatabase(backend) else { return }
            #expect {
                try db.manager.register(order)
            } throws: { isClash($0, "ClaimJoinTaker", "ClaimBook.tags", "'ClaimBook_tags'") }
            #expect(try db.tables().filter { $0.hasPrefix("Claim") } == [])
        }
    }

    @Test(
        "another manager, which never mapped the owner, is refused by what the database holds",
        arguments: Backend.allCases)
    func joinTableTakenByAnotherManager(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ClaimBook.self]) else { return }
        let id = try saveBook(db.manager)
        let before = try db.columns(of: "ClaimBook_tags")
        let other = try db.reopen()
        #expect {
            try other.register([ClaimJoinTaker.self])
        } throws: { isClash($0, "ClaimJoinTaker", "join table of DBBBuilderTests.ClaimBook.tags", "'ClaimBook_tags'") }
        #expect(try db.columns(of: "ClaimBook_tags") == before)
        #expect(try ClaimBook.instance(id: id, manager: other)?.tags.sorted() == ["classic", "formal"])
    }

    @Test(
        "a join table that is another class's table in the database is refused, its rows kept",
        arguments: Backend.allCases)
    func classTableTakenAsJoinTable(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ClaimJoinTaker.self]) else { return }
        let taker = ClaimJoinTaker(dbManager: db.manager)
        taker.label = "mine"
        try taker.save()
        let other = try db.reopen()
        #expect {
            try other.register([ClaimBook.self])
        } throws: {
            isClash($0, "ClaimBook.tags", "'ClaimBook_tags'", "label", "the table of DBBBuilderTests.ClaimJoinTaker")
        }
        #expect(try db.tableExists("ClaimBook") == false)
        #expect(try ClaimJoinTaker.all(manager: db.manager).map(\.label) == ["mine"])
    }

    @Test(
        "two properties whose join tables share a name are refused, in one manager and across two",
        arguments: Backend.allCases)
    func joinTablesShareAName(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        #expect {
            try db.manager.register([ClaimCrate.self, ClaimShelf.self])
        } throws: { isClash($0, "ClaimCrate.items", "ClaimShelf.boxItems", "'ClaimShelf_box_items'") }

        try db.manager.register([ClaimCrate.self])
        let crate = ClaimCrate(dbManager: db.manager)
        crate.items = ["a", "b"]
        try crate.save()
        let other = try db.reopen()
        #expect {
            try other.register([ClaimShelf.self])
        } throws: { isClash($0, "ClaimShelf.boxItems", "'ClaimShelf_box_items'", "ClaimShelf_box_ID") }
        #expect(try ClaimCrate.instance(id: crate.id, manager: other)?.items == ["a", "b"])
    }

    @Test("a class table named as another class's index is refused", arguments: Backend.allCases)
    func indexNameTaken(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ClaimBook.self]) else { return }
        #expect {
            try db.manager.register([ClaimIndexTaker.self])
        } throws: { isClash($0, "ClaimIndexTaker", "index of", "ClaimBook.tags", "'ClaimBook_tags_idx'") }
    }

    @Test("DBBBuilder's version table is the package's; the version is still kept", arguments: Backend.allCases)
    func versionTableIsReserved(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        #expect {
            try db.manager.register([ClaimVersion.self])
        } throws: { isClash($0, "ClaimVersion", "'DBVersion'", "version table") }
        #expect(try db.tableExists("DBVersion") == false)
        try db.manager.setDatabaseVersion(2)
        #expect(try db.manager.databaseVersion() == 2)
        // …and once it exists, still refused.
        #expect {
            try db.reopen().register([ClaimVersion.self])
        } throws: { isClash($0, "ClaimVersion", "'DBVersion'") }
    }

    @Test("the catalog of mapped properties is the package's, registered or not yet", arguments: Backend.allCases)
    func catalogIsReserved(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        #expect {
            try db.manager.register([ClaimCatalog.self])
        } throws: { isClash($0, "ClaimCatalog", "'dbb_columns'", "catalog") }
        try db.manager.register([ClaimBook.self])
        #expect {
            try db.reopen().register([ClaimCatalog.self])
        } throws: { isClash($0, "ClaimCatalog", "'dbb_columns'") }
        #expect(try db.rows(of: "dbb_columns") == 2)
    }

    @Test("PostgreSQL's locale rules table is the package's")
    func localeRulesTableIsReserved() throws {
        guard let db = try BackendDatabase(.postgresql) else { return }
        #expect {
            try db.manager.register([ClaimRules.self])
        } throws: { isClash($0, "ClaimRules", "'dbb_locale_rules'", "locale functions") }
        #expect(try db.manager.query("SELECT dbb_week(0.0, 'ru_RU') AS w").first?["w", as: String.self] != nil)
    }
}
