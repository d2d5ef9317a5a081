import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Takes ClaimBook's table, mapping none of its properties.
@DBBTable(tableName: "ClaimBook")
final class ClaimTableTaker: DBBTableObject {
    var note = ""
}

/// Takes ClaimBook's table in other letters: the same table on SQLite, another on PostgreSQL.
@DBBTable(tableName: "CLAIMBOOK")
final class ClaimUpperTableTaker: DBBTableObject {
    var note = ""
}

/// ClaimBook as a later program's class of its table: renamed, with a property added.
@DBBTable(tableName: "ClaimBook")
final class ClaimBookRenamed: DBBTableObject {
    var title = ""
    var tags: [String] = []
    var subtitle = ""
}

/// A unique index of an indexer, named `ClaimCoupon_code`.
@DBBTable(indexes: [DBBIndexer(columnsToIndex: ["code"], unique: true)])
final class ClaimCoupon: DBBTableObject {
    var code = ""
}

/// Takes the name of ClaimCoupon's index for its table.
@DBBTable(tableName: "ClaimCoupon_code")
final class ClaimCouponIndexTaker: DBBTableObject {
    var label = ""
}

/// Takes the name of the index PostgreSQL makes for ClaimBook's primary key.
@DBBTable(tableName: "ClaimBook_pkey")
final class ClaimPrimaryKeyTaker: DBBTableObject {
    var label = ""
}

/// Takes the name of the table a rebuild of ClaimBook's table writes.
@DBBTable(tableName: "ClaimBook_dbb_rebuild")
final class ClaimRebuildTaker: DBBTableObject {
    var label = ""
}

@Suite("Names across managers: the catalog's owner of a table, and the indexes and tables the database holds")
struct SchemaObjectClaimTests {
    private func isClash(_ error: any Error, _ names: String...) -> Bool { NameClaims.isClash(error, names) }
    private func saveBook(_ manager: DBBManager) throws -> Int64 { try NameClaims.saveBook(manager) }

    @Test(
        "another manager's class that maps none of a table's recorded properties is refused; the rows stay",
        arguments: Backend.allCases)
    func tableTakenByAnotherManager(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ClaimBook.self]) else { return }
        let id = try saveBook(db.manager)
        let columns = try db.columns(of: "ClaimBook")
        let other = try db.reopen()
        #expect {
            try other.register([ClaimTableTaker.self])
        } throws: {
            isClash($0, "ClaimTableTaker", "'ClaimBook'", "DBBBuilderTests.ClaimBook", "tags, title", "dbb_columns")
        }
        #expect(try db.columns(of: "ClaimBook") == columns)
        #expect(try ClaimBook.instance(id: id, manager: other)?.tags.sorted() == ["classic", "formal"])
        #expect(try db.rows(of: "ClaimBook_tags") == 2)

        // A name that differs in case only: one table on SQLite, refused alike; another on PostgreSQL.
        let upper = try db.reopen()
        if backend == .sqlite {
            #expect {
                try upper.register([ClaimUpperTableTaker.self])
            } throws: { isClash($0, "ClaimUpperTableTaker", "DBBBuilderTests.ClaimBook") }
        } else {
            try upper.register([ClaimUpperTableTaker.self])
            #expect(try ClaimUpperTableTaker.all(manager: upper).isEmpty)
        }
        #expect(try db.columns(of: "ClaimBook") == columns)

        // A new version of the class, renamed, maps what the table holds: it registers and reads.
        let renamed = try db.reopen([ClaimBookRenamed.self])
        let book = try #require(try ClaimBookRenamed.instance(id: id, manager: renamed))
        #expect(book.title == "TAOCP" && book.tags.sorted() == ["classic", "formal"])
    }

    @Test(
        "an index name that is another class's table, and a table name that is another class's index, are refused",
        arguments: Backend.allCases)
    func indexAndTableNamesAcrossManagers(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ClaimCouponIndexTaker.self]) else { return }
        #expect {
            try db.reopen().register([ClaimCoupon.self])
        } throws: { isClash($0, "index of DBBBuilderTests.ClaimCoupon", "'ClaimCoupon_code'", "a table") }
        #expect(try db.tableExists("ClaimCoupon") == false)

        guard let second = try BackendDatabase(backend, [ClaimCoupon.self]) else { return }
        #expect {
            try second.reopen().register([ClaimCouponIndexTaker.self])
        } throws: { isClash($0, "ClaimCouponIndexTaker", "'ClaimCoupon_code'", "an index on table ClaimCoupon") }
        // The unique index is there and holds.
        let first = ClaimCoupon(dbManager: second.manager)
        first.code = "SAME"
        try first.save()
        let again = ClaimCoupon(dbManager: second.manager)
        again.code = "SAME"
        #expect(throws: DBBError.self) { try again.save() }
        #expect(try second.rows(of: "ClaimCoupon") == 1)
    }

    @Test("PostgreSQL: a table named as the index of another table's primary key is refused")
    func primaryKeyIndexName() throws {
        guard let db = try BackendDatabase(.postgresql, [ClaimBook.self]) else { return }
        #expect {
            try db.reopen().register([ClaimPrimaryKeyTaker.self])
        } throws: { isClash($0, "ClaimPrimaryKeyTaker", "'ClaimBook_pkey'", "an index on table ClaimBook") }
        #expect(try db.tableExists("ClaimBook_pkey") == false)
    }

    @Test("the table a rebuild writes is the class's: no other class may take its name", arguments: Backend.allCases)
    func rebuildTableName(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        #expect {
            try db.manager.register([ClaimBook.self, ClaimRebuildTaker.self])
        } throws: { isClash($0, "ClaimRebuildTaker", "'ClaimBook_dbb_rebuild'", "rebuilding the table of") }
    }
}
