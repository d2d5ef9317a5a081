import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("execute, row-by-row queries and the statement cache")
struct ExecuteTests {
    @Test("several statements run in order, arguments bound across them")
    func multipleStatements() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute(
            """
            CREATE TABLE t (a, b); -- a comment
            INSERT INTO t VALUES (?, ?);
            /* another */ INSERT INTO t VALUES (?, 'fixed');
            """, [1, "one", 2])
        #expect(try db.fetchAll("SELECT a, b FROM t ORDER BY a") { $0.values } == [[1, "one"], [2, "fixed"]])
        try db.execute("   ")  // nothing to run is not an error
        try db.execute("-- only a comment")
    }

    @Test("too many or too few arguments are refused with SQLITE_RANGE, naming the SQL")
    func argumentCountMismatch() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (a, b)")
        for arguments: [SQLiteValue] in [[1], [1, 2, 3]] {
            #expect {
                try db.execute("INSERT INTO t VALUES (?, ?)", arguments)
            } throws: { error in
                let error = try #require(error as? SQLiteError)
                return error.code == .range && error.sql == "INSERT INTO t VALUES (?, ?)"
            }
        }
        #expect {
            try db.execute("INSERT INTO t VALUES (?, 0); INSERT INTO t VALUES (?, 0)", [1, 2, 3])
        } throws: { error in
            (error as? SQLiteError)?.code == .range
        }
        #expect(
            try db.fetchValue("SELECT count(*) FROM t", as: Int.self) == 2,
            "statements before the mismatch ran; callers wanting all-or-nothing use a transaction")
    }

    @Test("a bad statement's error names the SQL and SQLite's message")
    func badStatementNamesSQL() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let sql = "SELECT nope FROM nowhere WHERE id = 1"
        #expect {
            try db.execute(sql)
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.code == .error && error.sql == sql
                && error.message == "no such table: nowhere"
                && String(describing: error).contains(sql)
                && error.path == database.path
        }
        #expect {
            _ = try db.prepare("SELEC 1")
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.sql == "SELEC 1" && error.message.contains("syntax error")
        }
        #expect {
            _ = try db.prepare("SELECT 1; SELECT 2")
        } throws: { error in
            (error as? SQLiteError)?.code == .misuse
        }
    }

    @Test("a constraint failure carries the extended result code")
    func extendedCodes() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE u (v UNIQUE NOT NULL)")
        try db.execute("INSERT INTO u VALUES (1)")
        #expect {
            try db.execute("INSERT INTO u VALUES (1)")
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.code == .constraint && error.extendedCode.rawValue == 2067  // SQLITE_CONSTRAINT_UNIQUE
                && error.message == "UNIQUE constraint failed: u.v"
        }
        #expect {
            try db.execute("INSERT INTO u VALUES (NULL)")
        } throws: { error in
            (error as? SQLiteError)?.extendedCode.rawValue == 1299  // SQLITE_CONSTRAINT_NOTNULL
        }
    }

    @Test("the statement cache hands back the same prepared statement")
    func cacheReuse() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v)")
        let before = db.cachedStatementCount
        let sql = "INSERT INTO t VALUES (?)"
        let first = try db.cachedStatement(sql)
        try first.bind(1, at: 1)
        try first.execute()
        let second = try db.cachedStatement(sql)
        #expect(first === second)
        try db.execute(sql, [2])
        try db.execute(sql, [3])
        #expect(db.cachedStatementCount == before + 1)
        #expect(try db.fetchValue("SELECT sum(v) FROM t", as: Int.self) == 6)
    }

    @Test("cached statements come back with their old bindings cleared")
    func cacheClearsBindings() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (a, b)")
        let insert = try db.cachedStatement("INSERT INTO t VALUES (?, ?)")
        try insert.bind(1, at: 1)
        try insert.bind(1, at: 2)
        try insert.execute()
        let again = try db.cachedStatement("INSERT INTO t VALUES (?, ?)")
        try again.bind(2, at: 1)
        try again.execute()
        #expect(try db.fetchAll("SELECT a, b FROM t ORDER BY a") { $0.values } == [[1, 1], [2, nil]])
        let kept = try db.cachedStatement("INSERT INTO t VALUES (?, ?)", clearingBindings: false)
        #expect(kept === again)
        try kept.bind(3, at: 1)
        try kept.execute()
        #expect(try db.fetchAll("SELECT a, b FROM t WHERE a = 3") { $0.values } == [[3, nil]])
        try kept.bind(4, at: 2)
        let keptAgain = try db.cachedStatement("INSERT INTO t VALUES (?, ?)", clearingBindings: false)
        try keptAgain.execute()
        #expect(try db.fetchAll("SELECT a, b FROM t WHERE a = 3 ORDER BY b") { $0.values } == [[3, nil], [3, 4]])
    }

    @Test("a query nested in the iteration of the same SQL gets its own statement")
    func nestedSameSQL() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (v); INSERT INTO t VALUES (1), (2), (3)")
        var pairs: [String] = []
        let sql = "SELECT v FROM t ORDER BY v"
        try db.forEachRow(sql) { outer in
            let a = outer.int(at: 0)
            try db.forEachRow(sql) { inner in pairs.append("\(a)\(inner.int(at: 0))") }
        }
        #expect(pairs == ["11", "12", "13", "21", "22", "23", "31", "32", "33"])
    }

    @Test("the cache keeps at most its capacity, evicting the least recently used")
    func cacheCapacity() throws {
        var configuration = SQLiteConfiguration()
        configuration.statementCacheCapacity = 4
        let database = try SQLiteTestDatabase(configuration: configuration)
        let db = database.connection
        let kept = try db.cachedStatement("SELECT 0")
        for n in 1...10 {
            _ = try db.cachedStatement("SELECT \(n)")
            _ = try db.cachedStatement("SELECT 0")  // stays recently used
        }
        #expect(db.cachedStatementCount == 4)
        #expect(try db.cachedStatement("SELECT 0") === kept)
        #expect(try db.fetchValue("SELECT 7", as: Int.self) == 7)
    }

    @Test("forEachRow reads rows one by one; fetchOne stops at the first")
    func rowByRow() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (n INTEGER, s TEXT)")
        try db.transaction {
            let insert = try db.cachedStatement("INSERT INTO t VALUES (?, ?)")
            for n in 1...1000 {
                try insert.bind(n, at: 1)
                try insert.bind("row \(n)", at: 2)
                try insert.execute()
            }
        }
        var sum = 0
        var lastText = ""
        try db.forEachRow("SELECT n, s FROM t WHERE n > ? ORDER BY n", [500]) { row in
            sum += row.int(at: 0)
            lastText = row.string(at: 1) ?? ""
        }
        #expect(sum == (501...1000).reduce(0, +))
        #expect(lastText == "row 1000")
        #expect(try db.fetchOne("SELECT s FROM t ORDER BY n DESC") { $0.string(at: 0) } == "row 1000")
        #expect(try db.fetchOne("SELECT s FROM t WHERE n < 0") { $0.string(at: 0) } == nil)
        let statement = try db.prepare("SELECT n AS number, s FROM t")
        #expect(statement.columnNames == ["number", "s"])
        #expect(statement.isReadOnly)
    }
}
