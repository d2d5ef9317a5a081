#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// `DBBError`'s predicates say what a failure means the same way on both backends, from the
/// SQLite result code or the PostgreSQL SQLSTATE underneath.
@Suite("DBBError predicates: one classification on SQLite and PostgreSQL")
struct ErrorClassificationTests {
    @Test("a taken unique value: isUniqueViolation, naming the property; not retryable", arguments: Backend.allCases)
    func uniqueThroughAnObject(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self, Team.self]) else { return }
        let first = Member(dbManager: db.manager)
        (first.name, first.email) = ("Ann", "a@example.com")
        try first.save()
        let second = Member(dbManager: db.manager)
        (second.name, second.email) = ("Bo", "a@example.com")
        let error = try #require(throws: DBBError.self) { try second.save() }
        #expect(error.isUniqueViolation && error.isConstraintViolation, "\(error)")
        #expect(!error.isNotNullViolation && !error.isForeignKeyViolation)
        #expect(!error.isRetryable && !error.isTimeout && !error.isConnectionLost)
        #expect(error.property == "email", "\(error)")
        // The backend's own kind is kept for code that matched it.
        #expect(error.kind == (backend == .sqlite ? .sqlite : .server))
        #expect(try Member.all(manager: db.manager).count == 1)
    }

    @Test("NOT NULL, foreign key and CHECK refusals of raw SQL", arguments: Backend.allCases)
    func rawConstraints(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        let manager = db.manager
        try manager.execute(#"CREATE TABLE "Parent" ("id" INTEGER PRIMARY KEY)"#)
        try manager.execute(
            #"CREATE TABLE "Child" ("id" INTEGER PRIMARY KEY, "parent" INTEGER NOT NULL REFERENCES "Parent" ("id"), "#
                + #""size" INTEGER CHECK ("size" > 0))"#)
        try manager.execute(#"INSERT INTO "Parent" ("id") VALUES (1)"#)

        let notNull = try #require(throws: DBBError.self) {
            try manager.execute(#"INSERT INTO "Child" ("id", "parent", "size") VALUES (1, NULL, 1)"#)
        }
        #expect(notNull.isNotNullViolation && notNull.isConstraintViolation && !notNull.isUniqueViolation, "\(notNull)")

        let dangling = try #require(throws: DBBError.self) {
            try manager.execute(#"INSERT INTO "Child" ("id", "parent", "size") VALUES (1, 99, 1)"#)
        }
        #expect(dangling.isForeignKeyViolation && dangling.isConstraintViolation, "\(dangling)")

        let check = try #require(throws: DBBError.self) {
            try manager.execute(#"INSERT INTO "Child" ("id", "parent", "size") VALUES (1, 1, 0)"#)
        }
        #expect(check.isConstraintViolation && !check.isNotNullViolation && !check.isForeignKeyViolation, "\(check)")

        let primary = try #require(throws: DBBError.self) {
            try manager.execute(#"INSERT INTO "Parent" ("id") VALUES (1)"#)
        }
        #expect(primary.isUniqueViolation, "a taken primary key is a unique violation too: \(primary)")

        let syntax = try #require(throws: DBBError.self) { try manager.execute("SELEKT 1") }
        #expect(!syntax.isConstraintViolation && !syntax.isRetryable && !syntax.isTimeout && !syntax.isConnectionLost)
        // Nothing of the refused statements was stored.
        #expect(try manager.query(#"SELECT count(*) FROM "Child""#).first?.values == [.integer(0)])
    }

    @Test("a kind is a value: matched in a switch with a default, named by its description")
    func kindsEvolve() throws {
        let database = try ManagerTestDatabase([Member.self, Team.self])
        let gone = Member(dbManager: database.manager)
        gone.name = "Ann"
        try gone.save()
        try database.manager.execute(#"DELETE FROM "Member""#)
        gone.age = 3
        let error = try #require(throws: DBBError.self) { try gone.save() }
        let answer: String
        switch error.kind {
        case .rowChanged: answer = "changed"
        case .rowNotFound: answer = "gone"
        default: answer = "other"
        }
        #expect(answer == "gone" && "\(error.kind)" == "rowNotFound")
        #expect(!error.isRetryable && !error.isConstraintViolation)
        #expect(Set([DBBError.Kind.rowNotFound, .rowChanged, .rowNotFound]).count == 2)
    }
}
#endif
