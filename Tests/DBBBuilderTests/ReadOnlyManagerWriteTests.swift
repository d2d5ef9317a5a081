import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@Suite("A read-only manager reads, and refuses every write through the table objects before sending anything")
struct ReadOnlyManagerWriteTests {
    /// A venture with tags and a project lead, saved through `manager`.
    private func storeVenture(_ manager: DBBManager) throws -> Venture {
        let venture = Venture("Engine", manager: manager)
        venture.tags = ["math", "steam"]
        venture.projectLead = Member("Ada", "Lovelace", age: 36, manager: manager)
        try venture.save()
        return venture
    }

    @Test(
        "it fetches objects with their references and arrays, and raw rows with their column names",
        arguments: Backend.allCases)
    func reads(_ backend: Backend) async throws {
        guard let db = try BackendDatabase(backend, [Venture.self]) else { return }
        let venture = try storeVenture(db.manager)
        let reader = try db.readOnly([Venture.self])
        #expect(reader.isReadOnly && !db.manager.isReadOnly)
        let fetched = try #require(try await Venture.instance(id: venture.id, manager: reader))
        #expect(fetched.tags == ["math", "steam"] && fetched.projectLead?.firstName == "Ada")
        #expect(try await Venture.instances(matching: DBBQueryOptions(), manager: reader).map(\.name) == ["Engine"])
        let rows = try reader.query(#"SELECT "name" AS w, 1 AS one FROM "Venture""#)
        #expect(rows.first?.columnNames == ["w", "one"], "\(rows)")
        #expect(try rows.first?.decode(String.self, "w") == "Engine")
        #expect(rows.first?["one", as: Int.self] == 1)
        let streamed = Locked<[String]>([])
        try reader.forEachRow(#"SELECT "name" FROM "Venture""#) { row in
            streamed.withLock { $0.append(row.string(at: 0) ?? "") }
        }
        #expect(streamed.withLock { $0 } == ["Engine"])
    }

    @Test(
        "saves, deletes, batches, copies, versions and indexes are refused with .readOnly, no SQL sent, nothing changed",
        arguments: Backend.allCases)
    func writesRefused(_ backend: Backend) async throws {
        guard let db = try BackendDatabase(backend, [Venture.self]) else { return }
        let venture = try storeVenture(db.manager)
        try db.manager.setDatabaseVersion(1)
        let reader = try db.readOnly([Venture.self])
        let fetched = try #require(try await Venture.instance(id: venture.id, manager: reader))
        let modified = try #require(fetched.modifiedTime)
        let sent = Locked<[String]>([])
        reader.trace { sql in sent.withLock { $0.append(sql) } }

        fetched.name = "changed"
        let fresh = Venture("new", manager: reader)
        let foreign = Venture("copied", manager: db.manager)
        let writes: [(name: String, run: () throws -> Void)] = [
            ("save", { try fetched.save() }),
            ("save of a new object", { try fresh.save() }),
            ("conditional save", { try fetched.save(ifModifiedTimeIs: modified) }),
            ("batch save", { try Venture.save([fetched, fresh] as [DBBTableObject], manager: reader) }),
            ("typed batch save", { try Venture.save([fetched, fresh], manager: reader) }),
            ("delete", { try fetched.delete() }),
            ("conditional delete", { try fetched.delete(ifModifiedTimeIs: modified) }),
            ("batch delete", { try Venture.delete([fetched], manager: reader) }),
            ("delete by ids", { try Venture.delete(ids: [venture.id], manager: reader) }),
            ("deleteAll", { try Venture.deleteAll(manager: reader) }),
            ("copy into it", { _ = try reader.copy([foreign]) }),
            ("copyTables into it", { _ = try reader.copyTables(of: [Venture.self], from: db.manager) }),
            ("setDatabaseVersion", { try reader.setDatabaseVersion(2) }),
            ("removeIndex", { try reader.removeIndex(named: "Member_lastName_idx") }),
            ("vacuum", { try reader.vacuum() }),
        ]
        for write in writes {
            let error = try #require(throws: DBBError.self, "\(write.name)") { try write.run() }
            #expect(
                error.kind == .readOnly && !error.isRetryable && error.message.contains("opened read-only")
                    && error.message.contains("nothing was sent"), "\(write.name): \(error)")
        }
        let asyncSave = await #expect(throws: DBBError.self) { try await fetched.save() }
        let asyncDelete = await #expect(throws: DBBError.self) { try await fetched.delete() }
        let asyncDeleteAll = await #expect(throws: DBBError.self) { try await Venture.deleteAll(manager: reader) }
        #expect([asyncSave, asyncDelete, asyncDeleteAll].allSatisfy { $0?.kind == .readOnly })
        #expect(sent.withLock { $0 } == [], "statements reached the database")
        #expect(fresh.id == 0 && !fetched.isDeleted && fetched.modifiedTime == modified, "the objects are as they were")
        // The reader still reads; the database is as the writer left it.
        #expect(try await Venture.instance(id: venture.id, manager: reader)?.name == "Engine")
        #expect(try await Venture.all(manager: db.manager).map(\.name) == ["Engine"])
        #expect(try db.manager.databaseVersion() == 1)
        // Raw SQL that writes is the database's to refuse.
        let raw = try #require(throws: DBBError.self) {
            try reader.execute(#"INSERT INTO "Venture" ("name") VALUES ('raw')"#)
        }
        #expect(raw.sqliteError?.code == .readOnly || raw.serverError?.sqlState == "25006", "\(raw)")
        for control in ["BEGIN", "COMMIT", "SAVEPOINT s"] {
            let refused = try #require(throws: DBBError.self, "\(control)") { try reader.execute(control) }
            #expect(refused.kind == .invalidOption && refused.message.contains("opened read-only"), "\(refused)")
        }
        #expect(try db.rows(of: "Venture") == 1)
    }
}
