import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Opening, configuring and closing connections")
struct ConnectionTests {
    @Test("a file database is created, in WAL mode, with foreign keys on")
    func fileDefaults() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        #expect(FileManager.default.fileExists(atPath: database.path))
        #expect(try db.fetchValue("PRAGMA journal_mode", as: String.self) == "wal")
        #expect(try db.fetchValue("PRAGMA foreign_keys", as: Int.self) == 1)
        #expect(db.filename.hasSuffix("test.sqlite"))
        #expect(!db.isInMemory)
        #expect(!db.isReadOnly)

        try db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        try db.execute("CREATE TABLE child (parentId INTEGER REFERENCES parent(id))")
        #expect {
            try db.execute("INSERT INTO child VALUES (42)")
        } throws: { error in
            (error as? SQLiteError)?.code == .constraint
        }
    }

    @Test("an in-memory database is private and not switched to WAL")
    func inMemory() throws {
        let first = try SQLiteConnection.inMemory()
        let second = try SQLiteConnection.inMemory()
        try first.execute("CREATE TABLE t (v)")
        #expect(first.isInMemory)
        #expect(try first.fetchValue("PRAGMA journal_mode", as: String.self) == "memory")
        #expect(try second.fetchValue("SELECT count(*) FROM sqlite_master", as: Int.self) == 0)
    }

    @Test("a file: URI with mode=ro opens read-only and refuses writes")
    func uriReadOnly() throws {
        let database = try SQLiteTestDatabase()
        try database.connection.execute("CREATE TABLE t (v); INSERT INTO t VALUES (1)")
        database.connection.close()

        let reader = try SQLiteConnection(path: "file:\(database.path)?mode=ro")
        #expect(reader.isReadOnly)
        #expect(try reader.fetchValue("SELECT v FROM t", as: Int.self) == 1)
        #expect {
            try reader.execute("INSERT INTO t VALUES (2)")
        } throws: { error in
            (error as? SQLiteError)?.code == .readOnly
        }
    }

    @Test("read-only and read-write access need an existing file; the error names it")
    func missingFile() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("absent.sqlite")
        for access in [SQLiteConfiguration.Access.readOnly, .readWrite] {
            var configuration = SQLiteConfiguration()
            configuration.access = access
            #expect {
                _ = try SQLiteConnection(path: missing, configuration: configuration)
            } throws: { error in
                let error = try #require(error as? SQLiteError)
                return error.code == .cantOpen && error.path == missing
                    && String(describing: error).contains(missing)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("a file that is not a database is refused with a typed error and left untouched")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let bytes =
            Data(
                "This is a text file, not SQLite. It is long enough to have a header.\n"
                    .utf8) + Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let path = try directory.write(bytes, to: "notes.sqlite")

        #expect {
            _ = try SQLiteConnection(path: path)
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.code == .notADatabase && error.path == path
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try directory.fileNames() == ["notes.sqlite"], "no -wal, -shm or journal left behind")
    }

    @Test("a busy database fails after the busy timeout with SQLITE_BUSY")
    func busyTimeout() throws {
        let database = try SQLiteTestDatabase()
        try database.connection.execute("CREATE TABLE t (v)")
        var configuration = SQLiteConfiguration()
        configuration.busyTimeout = .milliseconds(50)
        let other = try SQLiteConnection(path: database.path, configuration: configuration)

        try database.connection.execute("BEGIN IMMEDIATE")
        #expect {
            try other.execute("INSERT INTO t VALUES (1)")
        } throws: { error in
            (error as? SQLiteError)?.code == .busy
        }
        try database.connection.execute("COMMIT")
        try other.execute("INSERT INTO t VALUES (1)")
        #expect(try database.connection.fetchValue("SELECT count(*) FROM t", as: Int.self) == 1)
    }

    @Test("close finalizes every statement; later use throws SQLITE_MISUSE, closing twice is harmless")
    func closeFinalizesEverything() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v)")
        let owned = try db.prepare("SELECT v FROM t")
        let cached = try db.cachedStatement("INSERT INTO t VALUES (?)")
        #expect(db.cachedStatementCount >= 1)

        db.close()
        db.close()
        #expect(db.isClosed)
        #expect(db.cachedStatementCount == 0)
        for statement in [owned, cached] {
            #expect {
                try statement.step()
            } throws: { error in
                let error = try #require(error as? SQLiteError)
                return error.code == .misuse && error.sql == statement.sql
            }
        }
        #expect {
            try db.execute("SELECT 1")
        } throws: { error in
            (error as? SQLiteError)?.code == .misuse
        }
        // Closed for real: the WAL was checkpointed and removed, so the file stands alone.
        #expect(try database.directory.fileNames() == ["test.sqlite"])
    }

    @Test("column names of a statement whose connection closed are none (the C call on a finalized statement crashed)")
    func columnNamesAfterClose() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (a, b)")
        let statement = try db.prepare("SELECT a, b FROM t")
        #expect(statement.columnNames == ["a", "b"])
        db.close()
        #expect(statement.columnNames == [])
    }

    @Test(
        "close() inside a row's closure: the row stays readable, the next step throws misuse, then the file is closed")
    func closeInsideRowClosure() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v); INSERT INTO t VALUES (7), (8), (9)")
        var read: [Int64] = []
        #expect {
            _ = try db.fetchAll("SELECT v FROM t ORDER BY v") { row in
                db.close()
                #expect(db.isClosed)
                read.append(row.int64(at: 0))
                return 0
            }
        } throws: { error in
            (error as? SQLiteError)?.code == .misuse
        }
        #expect(read == [7])
        #expect(db.handle == nil)
        let files = try database.directory.fileNames()
        #expect(files == ["test.sqlite"], "\(files)")
        #expect {
            try db.execute("SELECT 1")
        } throws: { error in
            (error as? SQLiteError)?.code == .misuse
        }
    }

    @Test("close() inside fetchOne's transform reads the row, then closes")
    func closeInsideFetchOne() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v); INSERT INTO t VALUES (5)")
        let value = try db.fetchOne("SELECT v FROM t") { row -> Int64 in
            db.close()
            return row.int64(at: 0)
        }
        #expect(value == 5)
        #expect(db.handle == nil)
    }

    @Test(
        "close() inside a SQL function interrupts the statement calling it (misuse), then closes: no write into freed memory"
    )
    func closeInsideFunction() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
        final class Box: @unchecked Sendable { weak var connection: SQLiteConnection? }
        let box = Box()
        box.connection = db
        try db.add(
            SQLiteFunction("dbb_close_now", argumentCount: 1) { _ in
                box.connection?.close()
                return .integer(1)
            })
        let statement = try db.prepare("SELECT dbb_close_now(a) FROM t")
        var steps = 0
        #expect {
            while try statement.step() { steps += 1 }
        } throws: { error in
            (error as? SQLiteError)?.code == .misuse
        }
        #expect(steps <= 1)
        #expect(db.handle == nil)
        #expect(statement.columnNames == [])
    }

    @Test("lastInsertedRowID, changes and totalChanges report what the last statements did")
    func counters() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
        try db.execute("INSERT INTO t (v) VALUES (?), (?), (?)", ["a", "b", "c"])
        #expect(db.lastInsertedRowID == 3)
        #expect(db.changes == 3)
        try db.execute("UPDATE t SET v = 'z' WHERE id > 1")
        #expect(db.changes == 2)
        #expect(db.totalChanges == 5)
    }
}
