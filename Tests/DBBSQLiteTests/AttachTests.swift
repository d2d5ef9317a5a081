import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("ATTACH of other database files")
struct AttachTests {
    /// A reference database `food.sqlite` with two foods, closed again.
    static func makeReference(in directory: TemporaryDirectory, name: String = "food.sqlite") throws -> String {
        let path = directory.path(name)
        let db = try SQLiteConnection(path: path)
        try db.execute(
            """
            CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO food VALUES (1, 'Apple'), (2, 'Bread');
            """)
        db.close()
        return path
    }

    @Test("a read-only attachment joins with main and refuses writes with SQLITE_READONLY")
    func readOnlyAttachment() throws {
        let database = try SQLiteTestDatabase()
        let reference = try Self.makeReference(in: database.directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: reference))
        let db = database.connection
        try db.execute("CREATE TABLE meal (foodId INTEGER, grams INTEGER); INSERT INTO meal VALUES (2, 80), (1, 150)")

        try db.attach(databaseAt: reference, as: "reference", readOnly: true)
        #expect(try db.attachedDatabaseNames() == ["reference"])
        let joined = try db.fetchAll(
            """
            SELECT f.name, m.grams FROM meal m JOIN reference.food f ON f.id = m.foodId ORDER BY f.name
            """
        ) { "\($0.string(at: 0)!) \($0.int(at: 1))" }
        #expect(joined == ["Apple 150", "Bread 80"])

        for sql in [
            "INSERT INTO reference.food VALUES (3, 'Cheese')",
            "UPDATE reference.food SET name = 'x'",
            "CREATE TABLE reference.extra (v)",
        ] {
            #expect {
                try db.execute(sql)
            } throws: { error in
                let error = try #require(error as? SQLiteError)
                return error.code == .readOnly && error.sql == sql
            }
        }
        // Main stays writable, and the reference file is byte for byte unchanged.
        try db.execute("INSERT INTO meal VALUES (1, 10)")
        try db.detach("reference")
        #expect(try db.attachedDatabaseNames().isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: reference)) == before)
    }

    @Test("a writable attachment takes writes, inside the main transaction")
    func writableAttachment() throws {
        let database = try SQLiteTestDatabase()
        let reference = try Self.makeReference(in: database.directory)
        let db = database.connection
        try db.attach(databaseAt: reference, as: "ref")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.execute("INSERT INTO ref.food VALUES (3, 'Cheese')")
                throw Boom()
            }
        }
        try db.execute("INSERT INTO ref.food VALUES (4, 'Dates')")
        #expect(
            try db.fetchAll("SELECT name FROM ref.food ORDER BY id") { $0.string(at: 0)! }
                == ["Apple", "Bread", "Dates"])
    }

    @Test("file names with URI characters attach correctly")
    func awkwardFileNames() throws {
        let database = try SQLiteTestDatabase()
        let reference = try Self.makeReference(in: database.directory, name: "100% food #1 ?.sqlite")
        try database.connection.attach(databaseAt: reference, as: "odd", readOnly: true)
        #expect(try database.connection.fetchValue("SELECT count(*) FROM odd.food", as: Int.self) == 2)
    }

    @Test("attaching a missing file read-only fails with a typed error naming it, creating nothing")
    func missingAttachment() throws {
        let database = try SQLiteTestDatabase()
        let missing = database.directory.path("absent.sqlite")
        #expect {
            try database.connection.attach(databaseAt: missing, as: "absent", readOnly: true)
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.code == .cantOpen && error.path == missing && error.message.contains(missing)
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
