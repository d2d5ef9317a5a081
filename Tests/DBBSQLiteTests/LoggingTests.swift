import DBBCore
import DBBSQLite
import DBBTestSupport
import Foundation
import Logging
import Testing

@Suite("statement logging through swift-log")
struct LoggingTests {
    @Test("at .trace every statement is logged once it finishes, with its SQL and duration, never its values")
    func traceLevel() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let log = CapturedLog()
        // No slow threshold: on a busy machine any statement may take long, and would then be
        // logged at .warning instead.
        db.logging = StatementLogging(logger: log.logger(level: .trace), slowStatementThreshold: nil)
        try db.execute("CREATE TABLE t (a); CREATE TRIGGER t_log AFTER INSERT ON t BEGIN SELECT 1; END")
        for value in ["secret-1", "secret-2"] {
            let insert = try db.cachedStatement("INSERT INTO t VALUES (?)")
            try insert.bind(value, at: 1)
            try insert.execute()
        }
        let entries = log.entries(at: .trace)
        #expect(entries.map(\.message).allSatisfy { $0 == "statement" })
        // The trigger's statements run inside the INSERT: one entry per statement run.
        #expect(
            entries.map { $0.metadata["sql"] ?? "" } == [
                "CREATE TABLE t (a)", "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN SELECT 1; END",
                "INSERT INTO t VALUES (?)", "INSERT INTO t VALUES (?)",
            ])
        for entry in entries {
            let milliseconds = try #require(entry.metadata["duration_ms"].flatMap(Double.init))
            #expect(milliseconds >= 0)
        }
        #expect(!log.entries.description.contains("secret"), "argument values are not logged unless asked")
        #expect(log.entries.count == 4)
    }

    @Test("argument values appear only when asked for, as the expanded SQL")
    func argumentValues() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let log = CapturedLog()
        db.logging = StatementLogging(logger: log.logger(level: .trace), includesArgumentValues: true)
        try db.execute("CREATE TABLE t (a)")
        try db.execute("INSERT INTO t VALUES (?)", ["Zoë's"])
        let insert = try #require(log.entries.last)
        #expect(insert.metadata["sql"] == "INSERT INTO t VALUES (?)")
        #expect(insert.metadata["expanded_sql"] == "INSERT INTO t VALUES ('Zoë''s')")
    }

    @Test("at .warning only statements at or over the threshold are logged, as slow")
    func slowStatements() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.add(Self.sleepFunction)
        let log = CapturedLog()
        // A threshold no ordinary statement reaches, however busy the machine: nothing logged.
        db.logging = StatementLogging(logger: log.logger(level: .warning), slowStatementThreshold: .seconds(600))
        try db.execute("CREATE TABLE t (a)")
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(log.entries.isEmpty, "quick statements are not logged at .warning")
        // A statement slow on purpose (it sleeps 300 ms) against a threshold of 100 ms: logged,
        // however fast the machine.
        db.logging = StatementLogging(logger: log.logger(level: .warning), slowStatementThreshold: .milliseconds(100))
        let slowSQL = "SELECT sleep_ms(300)"
        let started = ContinuousClock.now
        #expect(try db.fetchOne(slowSQL) { $0.int(at: 0) } == 300)
        let elapsed = ContinuousClock.now - started
        let slow = try #require(log.entries.first)
        #expect(log.entries.count == 1)
        #expect(slow.level == .warning && slow.message == "slow statement")
        #expect(slow.metadata["sql"] == slowSQL)
        let milliseconds = try #require(slow.metadata["duration_ms"].flatMap(Double.init))
        #expect(milliseconds >= 300 && milliseconds <= Double(elapsed.components.seconds * 1000 + 1000))
    }

    /// `sleep_ms(n)`: sleeps `n` milliseconds and returns `n` — a statement as slow as a test
    /// needs, whatever the machine.
    static let sleepFunction = SQLiteFunction("sleep_ms", argumentCount: 1, deterministic: false) { arguments in
        let milliseconds = arguments.int64(at: 0)
        Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
        return .integer(milliseconds)
    }

    @Test("a failed statement is logged at .error with its SQL and the error; the values only when asked")
    func failures() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let log = CapturedLog()
        db.logging = StatementLogging(logger: log.logger(level: .error))
        try db.execute("CREATE TABLE t (a NOT NULL UNIQUE)")
        try db.execute("INSERT INTO t VALUES (?)", ["private"])
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?)", ["private"]) }
        #expect(throws: SQLiteError.self) { try db.execute("SELEKT 1") }
        #expect(throws: SQLiteError.self) { _ = try db.prepare("SELECT 1; SELECT 2") }
        let errors = log.entries(at: .error)
        #expect(log.entries.count == 3 && errors.count == 3)
        #expect(errors.map { $0.metadata["sql"] } == ["INSERT INTO t VALUES (?)", "SELEKT 1", "SELECT 1; SELECT 2"])
        #expect(errors[0].metadata["error"]?.contains("UNIQUE constraint failed: t.a") == true)
        #expect(errors[1].metadata["error"]?.contains("syntax error") == true)
        #expect(!log.entries.description.contains("private"))

        log.clear()
        db.logging = StatementLogging(logger: log.logger(level: .error), includesArgumentValues: true)
        #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (?)", ["private"]) }
        #expect(log.entries.first?.metadata["expanded_sql"] == "INSERT INTO t VALUES ('private')")
    }

    @Test("a statement a function runs inside another statement is logged, and timed, as its own")
    func nestedStatements() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        nonisolated(unsafe) let inner = db
        let innerSQL = "SELECT sleep_ms(300)"
        try db.add(Self.sleepFunction)
        try db.add(
            SQLiteFunction("sleep_inside", argumentCount: 0, deterministic: false) { _ in
                .integer(Int64(try inner.fetchOne(innerSQL) { $0.int(at: 0) } ?? 0))
            })
        try db.execute("CREATE TABLE t (a); CREATE TRIGGER t_log AFTER INSERT ON t BEGIN SELECT 1; END")
        let log = CapturedLog()
        db.logging = StatementLogging(logger: log.logger(level: .trace), slowStatementThreshold: .milliseconds(100))
        #expect(try db.fetchOne("SELECT sleep_inside()") { $0.int(at: 0) } == 300)
        let logged = log.entries.map { "\($0.level) \($0.metadata["sql"] ?? "")" }
        // The inner statement sleeps 300 ms: both are slow, the inner one first.
        #expect(logged == ["warning \(innerSQL)", "warning SELECT sleep_inside()"])
        let inside = try #require(log.entries.first?.metadata["duration_ms"].flatMap(Double.init))
        let outside = try #require(log.entries.dropFirst().first?.metadata["duration_ms"].flatMap(Double.init))
        #expect(inside >= 300 && inside <= outside)
        // A trigger's statement is part of its INSERT, logged as the INSERT's (at .trace under a
        // threshold no ordinary statement reaches).
        log.clear()
        db.logging = StatementLogging(logger: log.logger(level: .trace), slowStatementThreshold: .seconds(600))
        try db.execute("INSERT INTO t VALUES (1)")
        #expect(log.entries.map { "\($0.level) \($0.metadata["sql"] ?? "")" } == ["trace INSERT INTO t VALUES (1)"])
    }

    @Test("a value an error message quotes is left out unless values are asked for")
    func quotedValuesInErrors() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let log = CapturedLog()
        db.logging = StatementLogging(logger: log.logger(level: .error))
        #expect(throws: SQLiteError.self) { try db.execute("SELECT json_extract('{}', ?)", ["SECRET['x"]) }
        let error = try #require(log.entries.first?.metadata["error"])
        #expect(error.contains("JSON path error near '…'") && !error.contains("SECRET"), "\(error)")
        log.clear()
        db.logging = StatementLogging(logger: log.logger(level: .error), includesArgumentValues: true)
        #expect(throws: SQLiteError.self) { try db.execute("SELECT json_extract('{}', ?)", ["SECRET['x"]) }
        #expect(log.entries.first?.metadata["error"]?.contains("SECRET[") == true, "\(log.entries)")
    }

    @Test("logging and the trace handler work side by side; nil and a closed connection stop both")
    func withTrace() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let log = CapturedLog()
        let traced = Locked<[String]>([])
        db.trace { sql in traced.withLock { $0.append(sql) } }
        db.logging = StatementLogging(logger: log.logger(level: .trace), slowStatementThreshold: nil)
        try db.execute("CREATE TABLE t (a)")
        db.trace(nil)
        try db.execute("INSERT INTO t VALUES (1)")
        db.logging = nil
        try db.execute("INSERT INTO t VALUES (2)")
        #expect(traced.withLock { $0 } == ["CREATE TABLE t (a)"])
        #expect(log.entries.map { $0.metadata["sql"] } == ["CREATE TABLE t (a)", "INSERT INTO t VALUES (1)"])
        db.logging = StatementLogging(logger: log.logger(level: .trace))
        db.close()
        #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
    }

    @Test("a logger given when opening logs from the first statement after opening")
    func loggerAtOpen() throws {
        let directory = try TemporaryDirectory()
        let log = CapturedLog()
        let db = try SQLiteConnection(
            path: directory.url.appendingPathComponent("a.sqlite").path, logger: log.logger(level: .trace))
        try db.execute("CREATE TABLE t (a)")
        #expect(log.entries.map { $0.metadata["sql"] } == ["CREATE TABLE t (a)"])
        #expect(db.logging?.slowStatementThreshold == .milliseconds(500))
    }
}
