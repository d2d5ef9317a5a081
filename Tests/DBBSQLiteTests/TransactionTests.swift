import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

@Suite("Transactions and savepoints")
struct TransactionTests {
    @Test(
        "a transaction whose body throws leaves no row, on disk",
        arguments: [
            SQLiteTransactionKind.deferred, .immediate, .exclusive,
        ])
    func throwingTransactionRollsBack(kind: SQLiteTransactionKind) throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v)")
        #expect(throws: Boom.self) {
            try db.transaction(kind) {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        let other = try SQLiteConnection(path: database.path)
        #expect(try other.fetchValue("SELECT count(*) FROM t", as: Int.self) == 0)
    }

    @Test("a transaction that returns commits and hands back the body's value")
    func commit() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v)")
        let id = try db.transaction(.immediate) { () -> Int64 in
            try db.execute("INSERT INTO t VALUES ('x')")
            #expect(db.isInTransaction)
            return db.lastInsertedRowID
        }
        #expect(id == 1)
        let other = try SQLiteConnection(path: database.path)
        #expect(try other.fetchValue("SELECT v FROM t", as: String.self) == "x")
    }

    @Test("a failing SQL statement inside a transaction rolls back the statements before it")
    func sqlFailureRollsBack() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v UNIQUE)")
        try db.execute("INSERT INTO t VALUES (0)")
        #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (0)")  // UNIQUE violation
            }
        }
        #expect(try db.fetchAll("SELECT v FROM t") { $0.int(at: 0) } == [0])
    }

    @Test("a savepoint nested in a transaction undoes only its own work")
    func savepointInTransaction() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v)")
        try db.transaction {
            try db.execute("INSERT INTO t VALUES ('outer')")
            #expect(throws: Boom.self) {
                try db.savepoint {
                    try db.execute("INSERT INTO t VALUES ('inner, undone')")
                    throw Boom()
                }
            }
            try db.savepoint {
                try db.execute("INSERT INTO t VALUES ('inner, kept')")
                #expect(throws: Boom.self) {
                    try db.savepoint {
                        try db.execute("INSERT INTO t VALUES ('innermost, undone')")
                        throw Boom()
                    }
                }
            }
            #expect(db.isInTransaction)
        }
        let other = try SQLiteConnection(path: database.path)
        #expect(
            try other.fetchAll("SELECT v FROM t ORDER BY rowid") { $0.string(at: 0) ?? "" }
                == ["outer", "inner, kept"])
    }

    @Test("a savepoint outside a transaction acts as one")
    func savepointAlone() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v)")
        #expect(throws: Boom.self) {
            try db.savepoint {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        try db.savepoint { try db.execute("INSERT INTO t VALUES (2)") }
        #expect(!db.isInTransaction)
        #expect(try db.fetchAll("SELECT v FROM t") { $0.int(at: 0) } == [2])
    }

    @Test("a transaction inside a transaction is refused with a typed error, the outer one intact")
    func nestedTransactionRefused() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v)")
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            #expect {
                try db.transaction { try db.execute("INSERT INTO t VALUES (2)") }
            } throws: { error in
                (error as? SQLiteError)?.message.contains("within a transaction") == true
            }
        }
        #expect(try db.fetchAll("SELECT v FROM t") { $0.int(at: 0) } == [1])
    }
}
