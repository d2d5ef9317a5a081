#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// Registration on a live PostgreSQL table: a long reader never makes it hold the old
/// version's writers off for longer than its lock bound.
@Suite("Schema changes on a live PostgreSQL table", .serialized)
struct LiveSchemaChangeTests {
    static let indexName = "DeployOrder_quantity"

    /// A session that reads the table for up to ten minutes (holding its `ACCESS SHARE` lock)
    /// until ``end()``.
    final class LongReader: Sendable {
        let manager: DBBManager
        private let done = DispatchSemaphore(value: 0)
        let ended = Atomic<Bool>(false)

        init(_ database: BackendDatabase) throws {
            manager = try database.reopen()
            let manager = self.manager
            let done = self.done
            Thread {
                _ = try? manager.query(#"SELECT count(*) FROM "DeployOrder", pg_sleep(600) AS long_report"#)
                done.signal()
            }.start()
            try ReplicaTests.waitUntil("the reader holds the table") {
                try manager.query(
                    "SELECT count(*) FROM pg_locks AS l JOIN pg_stat_activity AS a USING (pid) "
                        + #"WHERE l.relation = to_regclass('"DeployOrder"') AND l.granted AND a.datname = current_database() "#
                        + "AND a.query LIKE '%long_report%'"
                )[0].decode(Int.self, at: 0) == 1
            }
        }

        /// The reader's process id on the server.
        var pid: Int {
            get throws {
                try manager.query(
                    "SELECT pid FROM pg_stat_activity WHERE query LIKE '%long_report%' AND pid <> pg_backend_pid() "
                        + "AND datname = current_database()"
                )[0].decode(Int.self, at: 0)
            }
        }

        func end() throws {
            ended.store(true, ordering: .sequentiallyConsistent)
            _ = try manager.query(
                "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%long_report%' "
                    + "AND pid <> pg_backend_pid() AND datname = current_database()")
            #expect(done.wait(timeout: .now() + 120) == .success)
        }
    }

    static func database(rows: Int = 50) throws -> BackendDatabase? {
        guard let database = try BackendDatabase(.postgresql, [DeployOrderV1.self]) else { return nil }
        try DeployOrderV1.save(
            (0..<rows).map { index in
                let order = DeployOrderV1(dbManager: database.manager)
                (order.quantity, order.note) = (index % 7, "n\(index)")
                return order
            }, manager: database.manager)
        return database
    }

    static func count(_ manager: DBBManager, _ sql: String) throws -> Int {
        try manager.query(sql)[0].decode(Int.self, at: 0)
    }

    /// Whether the new version's column and both its indexes are there, the indexes valid.
    static func isUpgraded(_ manager: DBBManager) throws -> Bool {
        try columnExists(manager, "code")
            && count(
                manager,
                "SELECT count(*) FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid "
                    + "WHERE c.relname IN ('\(indexName)', 'DeployOrder_code_unique') AND i.indisvalid") == 2
    }

    static func columnExists(_ manager: DBBManager, _ column: String) throws -> Bool {
        try count(
            manager,
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'DeployOrder' AND column_name = '\(column)'"
        ) == 1
    }

    @Test("behind a long reader, registration gives up after its wait limit, names the reader, and keeps nothing")
    func givesUpNamingTheReader() throws {
        guard let database = try Self.database() else { return }
        let reader = try LongReader(database)
        defer { try? reader.end() }
        let readerPID = try reader.pid
        let log = CapturedLog()
        let upgrade = try database.reopen()
        upgrade.logging = StatementLogging(logger: log.logger(level: .notice))
        upgrade.schemaChanges = DBBSchemaChanges(lockTimeout: .milliseconds(50), waitLimit: .seconds(1))
        let error = try #require(throws: DBBError.self) { try upgrade.register([DeployOrderV2.self]) }
        #expect(error.kind == .timedOut && error.isRetryable, "\(error)")
        #expect(error.table == "DeployOrder", "\(error)")
        #expect(error.message.contains("session \(readerPID)") && error.message.contains("long_report"), "\(error)")
        #expect(error.message.contains("ALTER TABLE"), "the statement that waited: \(error)")
        #expect(log.entries(at: .notice).contains { $0.message.contains("schema: try 1:") }, "each try is logged")
        // Nothing of it was kept: no column, no check, no index.
        #expect(try !Self.columnExists(database.manager, "code"))
        #expect(
            try Self.count(
                database.manager,
                "SELECT count(*) FROM pg_constraint WHERE conname LIKE 'DeployOrder_%' AND contype = 'c'") == 0)
        #expect(
            try Self.count(database.manager, "SELECT count(*) FROM pg_class WHERE relname = '\(Self.indexName)'") == 0)
    }

    @Test("while registration waits behind a long reader, the old version's saves complete; it then finishes online")
    func writersGoOnWhileItWaits() throws {
        guard let database = try Self.database() else { return }
        let reader = try LongReader(database)
        let log = CapturedLog()
        let upgrade = try database.reopen()
        upgrade.logging = StatementLogging(logger: log.logger(level: .notice))
        upgrade.schemaChanges = DBBSchemaChanges(lockTimeout: .milliseconds(50), waitLimit: .seconds(300))
        let outcome = Mutex<(any Error)??>(nil)
        let registered = DispatchSemaphore(value: 0)
        Thread {
            let result = Result { try upgrade.register([DeployOrderV2.self]) }
            outcome.withLock { $0 = .some(result.error) }
            registered.signal()
        }.start()
        try ReplicaTests.waitUntil("the registration has been refused the lock twice") {
            log.entries(at: .notice).contains { $0.message.contains("schema: try 2:") }
        }
        // The old version writes while the registration waits: every save completes before the
        // reader ends (with a registration queued for the lock indefinitely, the first would
        // wait for the reader).
        let old = try database.reopen([DeployOrderV1.self])
        for index in 0..<20 {
            let order = DeployOrderV1(dbManager: old)
            (order.quantity, order.note) = (index, "during")
            try order.save()
        }
        let readerEnded = reader.ended.load(ordering: .sequentiallyConsistent)
        #expect(!readerEnded, "the saves finished while the reader read")
        #expect(try Self.count(old, #"SELECT count(*) FROM "DeployOrder" WHERE note = 'during'"#) == 20)
        try reader.end()
        #expect(registered.wait(timeout: .now() + 300) == .success)
        let failure = outcome.withLock { $0 } ?? nil
        #expect(failure == nil, "\(String(describing: failure))")
        // Done online: the column, a valid index, a valid unique index, NOT NULL, and no check left.
        #expect(try Self.isUpgraded(database.manager))
        #expect(
            try Self.count(
                database.manager,
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'DeployOrder' "
                    + "AND column_name = 'note' AND is_nullable = 'NO'") == 1)
        #expect(
            try Self.count(
                database.manager,
                "SELECT count(*) FROM pg_constraint WHERE conname LIKE 'DeployOrder_note%' AND contype = 'c'") == 0)
        let new = try database.reopen([DeployOrderV2.self])
        let fetched = try DeployOrderV2.all(manager: new)
        #expect(fetched.count == 70)
        let duplicate = DeployOrderV2(dbManager: new)
        duplicate.code = "x"
        try duplicate.save()
        let again = DeployOrderV2(dbManager: new)
        again.code = "x"
        #expect(throws: DBBError.self) { try again.save() }
    }

    @Test("an invalid index a failed concurrent build left is found and rebuilt")
    func invalidIndexRebuilt() throws {
        guard let database = try Self.database() else { return }
        // A unique build over duplicate quantities fails, and leaves its index invalid.
        #expect(throws: (any Error).self) {
            try database.manager.execute(
                #"CREATE UNIQUE INDEX CONCURRENTLY "\#(Self.indexName)" ON "DeployOrder" ("quantity")"#)
        }
        let invalid =
            "SELECT count(*) FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid "
            + "WHERE c.relname = '\(Self.indexName)' AND NOT i.indisvalid"
        #expect(try Self.count(database.manager, invalid) == 1)
        let upgrade = try database.reopen([DeployOrderV2.self])
        #expect(try Self.count(upgrade, invalid) == 0)
        #expect(
            try Self.count(
                upgrade,
                "SELECT count(*) FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid "
                    + "WHERE c.relname = '\(Self.indexName)' AND i.indisvalid AND NOT i.indisunique") == 1)
    }

    @Test("NOT NULL over a NULL the old version stored is refused by name, and nothing is left behind")
    func notNullRefused() throws {
        guard let database = try Self.database() else { return }
        try database.manager.execute(#"INSERT INTO "DeployOrder" (quantity, note) VALUES (1, NULL)"#)
        let upgrade = try database.reopen()
        let error = try #require(throws: DBBError.self) { try upgrade.register([DeployOrderV2.self]) }
        #expect(error.kind == .migrationRefused && error.property == "note", "\(error)")
        #expect(try !Self.columnExists(database.manager, "code"))
        #expect(
            try Self.count(
                database.manager,
                "SELECT count(*) FROM pg_constraint WHERE conname LIKE 'DeployOrder_%' AND contype = 'c'") == 0)
    }

    @Test("instances registering the new version at once: one migrates, the others wait and find it done")
    func registeringAtOnce() throws {
        guard let database = try Self.database() else { return }
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            let place = database.place
            Thread {
                defer { group.leave() }
                do {
                    let instance = try DBBManager(postgres: place)
                    try instance.register([DeployOrderV2.self])
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 300) == .success)
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(try Self.isUpgraded(database.manager))
    }
}

extension Result {
    /// The failure, or `nil`.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
#endif
