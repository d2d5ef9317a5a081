import DBBCore
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("statement trace")
struct TraceTests {
    @Test("each statement is reported as it starts, with placeholders, cached ones each time; nil stops")
    func traceReportsStatements() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let seen = Locked<[String]>([])
        db.trace { sql in seen.withLock { $0.append(sql) } }
        try db.execute("CREATE TABLE t (a); CREATE TRIGGER t_log AFTER INSERT ON t BEGIN SELECT 1; END")
        for value in ["secret-1", "secret-2"] {
            let insert = try db.cachedStatement("INSERT INTO t VALUES (?)")
            try insert.bind(value, at: 1)
            try insert.execute()
        }
        #expect(
            seen.withLock { $0 } == [
                "CREATE TABLE t (a)",
                "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN SELECT 1; END",
                "INSERT INTO t VALUES (?)", "-- TRIGGER t_log", "-- SELECT 1",
                "INSERT INTO t VALUES (?)", "-- TRIGGER t_log", "-- SELECT 1",
            ])
        #expect(!seen.withLock { $0 }.joined().contains("secret"), "bound values are not reported")

        db.trace(nil)
        try db.execute("DELETE FROM t")
        #expect(seen.withLock { $0.count } == 8)
        db.trace { sql in seen.withLock { $0.append(sql) } }
        db.close()
        db.trace { _ in Issue.record("a closed connection has nothing to trace") }
    }
}
