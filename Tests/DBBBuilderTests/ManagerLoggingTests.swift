import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Logging
import Testing

@Suite("a manager's logging: statements, schema changes, failures, on both backends")
struct ManagerLoggingTests {
    @Test(
        "schema changes are logged at .notice once committed; a refused migration logs none",
        arguments: Backend.allCases)
    func schemaNotices(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        let log = CapturedLog()
        db.manager.logging = StatementLogging(logger: log.logger(level: .notice), slowStatementThreshold: nil)
        try db.manager.register([ShipmentV1.self])
        #expect(log.entries.map(\.message) == [#"schema: created table "Shipment""#])
        #expect(log.entries.allSatisfy { $0.level == .notice })

        let second = try db.reopen()
        second.logging = StatementLogging(logger: log.logger(level: .notice), slowStatementThreshold: nil)
        log.clear()
        try second.register([ShipmentV3.self])
        #expect(
            Set(log.entries.map(\.message))
                == Set(
                    ["weight", "label", "count", "fragile", "memo"].map {
                        #"schema: added column "\#($0)" to "Shipment""#
                    }))
        try second.register([ShipmentV3.self])
        #expect(log.entries.count == 5, "registering again changes nothing and logs nothing")

        let third = try db.reopen([GadgetV1.self])
        let gadget = GadgetV1(dbManager: third)
        try gadget.save()
        let fourth = try db.reopen()
        fourth.logging = StatementLogging(logger: log.logger(level: .notice), slowStatementThreshold: nil)
        log.clear()
        #expect(throws: DBBError.self) { try fourth.register([GadgetV2.self]) }
        #expect(log.entries.isEmpty, "nothing changed, so nothing is logged as changed")
    }

    @Test("at .trace each statement is logged with its duration, values only when asked", arguments: Backend.allCases)
    func statements(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ShipmentV1.self]) else { return }
        let log = CapturedLog()
        db.manager.logging = StatementLogging(logger: log.logger(level: .trace), slowStatementThreshold: nil)
        let shipment = ShipmentV1(dbManager: db.manager)
        shipment.note = "private note"
        try shipment.save()
        let fetched = try ShipmentV1.instances(
            matching: .options(withConditions: ["note = 'nothing'"]), manager: db.manager)
        #expect(fetched.isEmpty)
        let statements = log.entries(at: .trace)
        // PostgreSQL inserts new rows in a statement that starts WITH (set-based writes).
        #expect(statements.contains { ($0.metadata["sql"] ?? "").contains("INSERT INTO") })
        #expect(statements.allSatisfy { $0.metadata["duration_ms"].flatMap(Double.init) != nil })
        #expect(!log.entries.description.contains("private note"))

        log.clear()
        db.manager.logging = StatementLogging(
            logger: log.logger(level: .trace), slowStatementThreshold: nil, includesArgumentValues: true)
        shipment.note = "changed note"
        try shipment.save()
        let key = backend == .sqlite ? "expanded_sql" : "arguments"
        #expect(log.entries.contains { $0.metadata[key]?.contains("changed note") == true })
    }

    @Test("a failed statement is logged at .error with its SQL; other levels stay quiet", arguments: Backend.allCases)
    func failures(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [ShipmentV1.self]) else { return }
        let log = CapturedLog()
        db.manager.logging = StatementLogging(logger: log.logger(level: .error))
        #expect(throws: (any Error).self) {
            try db.manager.execute(#"INSERT INTO "Nowhere" VALUES (?)"#, arguments: [1])
        }
        _ = try ShipmentV1.instances(matching: .options(), manager: db.manager)
        let errors = log.entries(at: .error)
        #expect(log.entries.count == 1 && errors.count == 1)
        #expect(errors.first?.metadata["sql"] == #"INSERT INTO "Nowhere" VALUES (?)"#)
        #expect(errors.first?.metadata["error"]?.contains("Nowhere") == true)
    }

    @Test("setting the logging a million times leaves one trace handler, called once a statement")
    func loggingSetOverAndOver() throws {
        let manager = try DBBManager.inMemory()
        let traced = Locked(0)
        manager.trace { _ in traced.withLock { $0 += 1 } }
        let log = CapturedLog()
        for _ in 0..<1_000_000 { manager.logging = StatementLogging(logger: log.logger(level: .error)) }
        _ = try manager.query("SELECT 1")
        #expect(traced.withLock { $0 } == 1)
    }

    @Test("a locale the locale functions refuse is not in the logged error unless values are asked for")
    func refusedLocaleStaysOut() throws {
        let manager = try DBBManager.inMemory()
        let log = CapturedLog()
        manager.logging = StatementLogging(logger: log.logger(level: .error))
        #expect(throws: (any Error).self) { try manager.query("SELECT dbb_week(0, ?)", arguments: ["SECRET_xx"]) }
        let error = try #require(log.entries.first?.metadata["error"])
        #expect(error.contains("dbb_week") && !error.contains("SECRET"), "\(error)")
    }

    @Test(
        "a value the database refuses is not in the logged error unless values are asked for",
        arguments: Backend.allCases)
    func refusedValuesStayOut(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        try db.manager.execute(#"CREATE TABLE "Secretive" ("email" TEXT UNIQUE)"#)
        let insert = #"INSERT INTO "Secretive" ("email") VALUES (?)"#
        try db.manager.execute(insert, arguments: ["SECRET@example.com"])
        // PostgreSQL quotes a value it cannot convert; SQLite's JSON functions quote a bad path.
        let refusing = backend == .sqlite ? "SELECT json_extract('{}', ?)" : "SELECT CAST(? AS integer)"
        for includingValues in [false, true] {
            let log = CapturedLog()
            db.manager.logging = StatementLogging(
                logger: log.logger(level: .error), includesArgumentValues: includingValues)
            #expect(throws: (any Error).self) { try db.manager.execute(insert, arguments: ["SECRET@example.com"]) }
            #expect(throws: (any Error).self) { _ = try db.manager.query(refusing, arguments: ["SECRET["]) }
            #expect(log.entries.count == 2)
            #expect(log.entries.description.contains("SECRET") == includingValues, "\(log.entries)")
        }
    }
}
