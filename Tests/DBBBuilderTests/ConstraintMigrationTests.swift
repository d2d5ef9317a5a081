import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Constraints a later version adds to or removes from existing properties: applied, refused or lifted")
struct ConstraintMigrationTests {
    /// Saves a contact of `type` through `manager`.
    @discardableResult
    private func save(
        _ type: ContactVersion.Type, _ manager: DBBManager, _ email: String, note: String? = nil, code: Int
    ) throws -> ContactVersion {
        let contact = type.init(dbManager: manager)
        (contact.email, contact.note, contact.code) = (email, note, code)
        try contact.save()
        return contact
    }

    /// Whether `body` throws the engine's refusal of a write for a constraint, naming `property`.
    private func violates(_ database: BackendDatabase, _ property: String, _ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch let error as DBBError {
            return database.isConstraintViolation(error) && error.property == property
        } catch {
            return false
        }
    }

    @Test(
        "UNIQUE added to an existing property: its index is made, and duplicates are refused — also to the older version",
        arguments: Backend.allCases)
    func uniqueApplied(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactV1.self]) else { return }
        for (code, email) in ["a", "b", "c"].enumerated() {
            try save(ContactV1.self, database.manager, email, code: code)
        }
        let later = try database.reopen([ContactUniqueEmail.self])
        #expect(try database.indexes(of: "Contact").contains("Contact_email_unique"))
        #expect(try database.indexColumns("Contact_email_unique") == ["email"])
        #expect(violates(database, "email") { try save(ContactUniqueEmail.self, later, "a", code: 10) })
        #expect(violates(database, "email") { try save(ContactV1.self, database.manager, "b", code: 11) })
        #expect(try database.rows(of: "Contact") == 3)
        // Registering it again changes nothing.
        let schema = try database.layout()
        _ = try database.reopen([ContactUniqueEmail.self])
        #expect(try database.layout() == schema)
    }

    @Test(
        "UNIQUE is refused, naming class, property and a duplicated value, while rows share values; nothing changes",
        arguments: Backend.allCases)
    func uniqueRefused(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactV1.self]) else { return }
        for (code, email) in ["a", "b", "b", "c", "c", "c"].enumerated() {
            try save(ContactV1.self, database.manager, email, code: code)
        }
        let schema = try database.layout()
        #expect {
            try database.reopen([ContactUniqueEmail.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.table == "Contact" && error.property == "email"
                && error.message.contains("ContactUniqueEmail.email") && error.message.contains("3 rows")
                && error.message.contains("'c'") && error.message.contains("1 more value")
        }
        #expect(try database.layout() == schema)
        try database.manager.execute(#"DELETE FROM "Contact" WHERE "code" IN (2, 4, 5)"#)
        _ = try database.reopen([ContactUniqueEmail.self])
        #expect(try database.indexes(of: "Contact").contains("Contact_email_unique"))
    }

    @Test(
        "NOT NULL added to an existing property: refused naming how many rows hold NULL, then applied, keeping rows, ids and indexes",
        arguments: Backend.allCases)
    func notNullAdded(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactV1.self]) else { return }
        let manager = database.manager
        try save(ContactV1.self, manager, "a", code: 1)
        try save(ContactV1.self, manager, "b", code: 2)
        try save(ContactV1.self, manager, "c", note: "kept", code: 3).delete()  // the id counter stays at 3
        try save(ContactV1.self, manager, "d", note: "set", code: 4)
        let schema = try database.layout()
        #expect {
            try database.reopen([ContactRequiredNote.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.property == "note"
                && error.message.contains("ContactRequiredNote.note") && error.message.contains("2 row(s)")
        }
        #expect(try database.layout() == schema)
        try manager.execute(#"UPDATE "Contact" SET "note" = 'filled' WHERE "note" IS NULL"#)
        let later = try database.reopen([ContactRequiredNote.self])
        #expect(try database.columns(of: "Contact").first { $0.name == "note" }?.isNotNull == true)
        #expect(try database.indexes(of: "Contact").contains("Contact_code"))
        #expect(violates(database, "note") { try save(ContactV1.self, manager, "e", code: 5) })
        #expect(violates(database, "note") { try save(ContactRequiredNote.self, later, "f", code: 6) })
        let added = try save(ContactRequiredNote.self, later, "g", note: "ok", code: 7)
        #expect(added.id == 5 || backend == .postgresql, "the AUTOINCREMENT counter was kept: \(added.id)")
        let rows = try ContactRequiredNote.all(manager: later).map { "\($0.id) \($0.email) \($0.note ?? "nil")" }
        #expect(rows.prefix(3) == ["1 a filled", "2 b filled", "4 d set"])
        if backend == .sqlite {  // rebuilt (PostgreSQL: ALTER … SET NOT NULL)
            #expect(try database.scalar("PRAGMA integrity_check", as: String.self) == "ok")
        }
    }

    @Test(
        "constraints a property no longer declares are lifted: NOT NULL, the column's UNIQUE and the _unique index; an indexer's stays",
        arguments: Backend.allCases)
    func lifted(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactStrict.self]) else { return }
        try save(ContactStrict.self, database.manager, "a", note: "n", code: 1)
        // The table was made with the constraints in its columns' definitions.
        let v1 = try database.reopen([ContactV1.self])
        // The optional `note` may be saved as nil now; the non-optional `email` never is, so
        // its NOT NULL stays.
        let columns = try database.columns(of: "Contact")
        #expect(
            columns.filter(\.isNotNull).map(\.name).filter { ["email", "note"].contains($0) } == ["email"],
            "\(columns)")
        try save(ContactV1.self, v1, "a", code: 2)  // the same email, no note: both allowed now
        #expect(try database.rows(of: "Contact") == 2)

        // A UNIQUE added later (an index) is lifted the same way.
        try v1.execute(#"DELETE FROM "Contact" WHERE "code" = 2"#)
        _ = try database.reopen([ContactUniqueEmail.self])
        #expect(try database.indexes(of: "Contact").contains("Contact_email_unique"))
        let again = try database.reopen([ContactUnindexed.self])
        #expect(try !database.indexes(of: "Contact").contains("Contact_email_unique"))
        try save(ContactUnindexed.self, again, "a", code: 3)
        // The unique index of the indexer on `code` is not an attribute's: it stays, and holds.
        #expect(try database.indexes(of: "Contact").contains("Contact_code"))
        #expect(violates(database, "code") { try save(ContactUnindexed.self, again, "z", code: 3) })
        if backend == .sqlite {
            #expect(try database.scalar("PRAGMA integrity_check", as: String.self) == "ok")
        }
    }

    @Test("a UNIQUE table constraint (not in the column's definition) cannot be lifted on SQLite: refused, untouched")
    func tableConstraintRefused() throws {
        let database = try ManagerTestDatabase()
        let connection = try database.connection()
        try connection.execute(
            "CREATE TABLE Contact (id INTEGER PRIMARY KEY, createdTime REAL, modifiedTime REAL, email TEXT, note TEXT,"
                + " code INTEGER, UNIQUE (email))")
        try connection.execute("INSERT INTO Contact (email, code) VALUES ('a', 1)")
        let schema = try database.schema()
        #expect {
            try database.manager.register([ContactV1.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.table == "Contact"
                && error.message.contains("table constraint")
        }
        #expect(try database.schema() == schema)
        _ = try database.reopen([ContactUniqueEmail.self])  // declares it: nothing to lift
    }

    @Test(
        "UNIQUE that foreign keys need is not lifted: refused, naming them; nothing changes",
        arguments: Backend.allCases)
    func liftRefusedForForeignKeys(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactUniqueEmail.self]) else { return }
        try save(ContactUniqueEmail.self, database.manager, "a", code: 1)
        try database.manager.execute(
            #"CREATE TABLE "Reply" ("id" integer PRIMARY KEY, "email" text REFERENCES "Contact" ("email"))"#)
        let schema = try database.layout()
        let error = try #require(throws: DBBError.self) { try database.reopen([ContactV1.self]) }
        #expect(error.kind == .migrationRefused && error.property == "email", "\(error)")
        #expect(error.message.contains("foreign keys") && error.message.contains("Reply"), "\(error)")
        #expect(try database.layout() == schema)
    }

    @Test("a unique index whose name another index has is refused, not taken for made", arguments: Backend.allCases)
    func indexNameTaken(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactV1.self]) else { return }
        // Another table's index under the name the attribute's would have.
        try database.manager.execute(#"CREATE TABLE "Other" ("x" text)"#)
        try database.manager.execute(#"CREATE UNIQUE INDEX "Contact_email_unique" ON "Other" ("x")"#)
        let schema = try database.layout()
        let error = try #require(throws: DBBError.self) { try database.reopen([ContactUniqueEmail.self]) }
        // Refused as a name another object of the database takes, before any constraint is judged.
        #expect(error.kind == .invalidMapping && error.message.contains("'Contact_email_unique'"), "\(error)")
        #expect(error.message.contains("an index on table Other"), "\(error)")
        #expect(try database.layout() == schema)
    }

    @Test(
        "constraints other SQL made under names of its own stay when an unchanged class registers again",
        arguments: Backend.allCases)
    func othersConstraintsStay(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactV1.self]) else { return }
        try database.manager.execute(#"CREATE UNIQUE INDEX "dba_email" ON "Contact" ("email")"#)
        if backend == .postgresql {
            try database.manager.execute(#"ALTER TABLE "Contact" ADD CONSTRAINT "dba_note" UNIQUE ("note")"#)
            try database.manager.execute(#"CREATE UNIQUE INDEX "contact_email_unique" ON "Contact" ("email")"#)
            try database.manager.execute(#"ALTER TABLE "Contact" ALTER COLUMN "email" SET NOT NULL"#)
        }
        let schema = try database.layout()
        _ = try database.reopen([ContactV1.self])
        #expect(try database.layout() == schema)
    }
}
