import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// The old version of a table that a deploy changes: a quantity and a note, unconstrained.
class PlanOrderVersion: DBBTableObject {
    override class var databaseTableName: String { "PlanOrder" }
    var quantity = 0
    var note = ""
    var code: String?
    var tags: [String] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        let upgraded = Self.self == PlanOrderV2.self
        var mapping: [String: DBBPropertyPersistence] = [
            "quantity": DBBPropertyPersistence(\PlanOrderVersion.quantity),
            "note": DBBPropertyPersistence(\PlanOrderVersion.note),
        ]
        if upgraded {
            mapping["code"] = DBBPropertyPersistence(\PlanOrderVersion.code)
            mapping["tags"] = DBBPropertyPersistence(\PlanOrderVersion.tags)
        }
        dbManager.addPersistenceMapping(
            mapping, for: self, indexer: upgraded ? DBBIndexer(columnsToIndex: ["quantity"]) : nil)
        if upgraded { attributesDictionary = ["note": .notNull, "code": .unique] }
    }
}

final class PlanOrderV1: PlanOrderVersion {}

/// A new column (unique), a new array property (a join table), an index on an existing column
/// and `NOT NULL` on an existing one.
final class PlanOrderV2: PlanOrderVersion {}

@Suite("A migration plan: what registration would do, before it does it")
struct MigrationPlanTests {
    static func database(_ backend: Backend) throws -> BackendDatabase? {
        guard let database = try BackendDatabase(backend, [PlanOrderV1.self]) else { return nil }
        try PlanOrderV1.save(
            (0..<40).map { index in
                let order = PlanOrderV1(dbManager: database.manager)
                (order.quantity, order.note) = (index % 5, "n\(index)")
                return order
            }, manager: database.manager)
        return database
    }

    @Test(
        "the plan is what registration then runs, statement for statement (golden); after it, nothing",
        arguments: Backend.allCases)
    func planIsWhatRuns(_ backend: Backend) throws {
        guard let database = try Self.database(backend) else { return }
        let upgrade = try database.reopen()
        let plan = try upgrade.migrationPlan(for: [PlanOrderV2.self])
        #expect(try !Self.hasColumn(database.manager, "code"), "planning changed nothing")
        #expect(plan.refused.isEmpty)

        let run = Mutex<[String]>([])
        upgrade.trace { sql in run.withLock { $0.append(sql) } }
        try upgrade.register([PlanOrderV2.self])
        upgrade.trace(nil)
        // Every statement of the plan ran, in the plan's order.
        let ran = run.withLock { $0 }
        var position = ran.startIndex
        for step in plan.steps {
            let found = ran[position...].firstIndex { $0 == step.sql }
            #expect(found != nil, "planned, not run: \(step.sql)")
            position = found.map { ran.index(after: $0) } ?? position
        }
        // Nothing ran that changes the schema and was not planned.
        let planned = Set(plan.steps.map(\.sql))
        let unplanned = ran.filter { sql in
            ["CREATE ", "ALTER ", "DROP ", "INSERT INTO \"PlanOrder_rebuild", "INSERT INTO PlanOrder_rebuild"].contains
            {
                sql.hasPrefix($0)
            } && !planned.contains(sql)
        }
        #expect(unplanned.isEmpty, "run, not planned: \(unplanned)")

        let described = plan.steps.map(\.description).joined(separator: "\n") + "\n"
        try GoldenSQLTests.compare(described, with: "migration-plan-\(backend.rawValue).txt")
        #expect(try database.reopen().migrationPlan(for: [PlanOrderV2.self]).isEmpty, "registered: nothing left to do")
    }

    @Test("a plan says what each step locks and reads", arguments: Backend.allCases)
    func planDescribesLocks(_ backend: Backend) throws {
        guard let database = try Self.database(backend) else { return }
        let plan = try database.reopen().migrationPlan(for: [PlanOrderV2.self])
        let addColumn = try #require(plan.steps.first { $0.sql.contains("ADD COLUMN") })
        #expect(addColumn.phase == .transaction && addColumn.work == .none)
        if backend == .postgresql {
            #expect(addColumn.lock == "ACCESS EXCLUSIVE" && !addColumn.holdsWritersOff)
            let index = try #require(
                plan.steps.first { $0.sql.contains("CONCURRENTLY") && $0.sql.contains("quantity") })
            #expect(index.phase == .afterCommit && index.work == .scans(rows: 40) && !index.holdsWritersOff)
            let validate = try #require(plan.steps.first { $0.sql.contains("VALIDATE CONSTRAINT") })
            #expect(validate.lock == "SHARE UPDATE EXCLUSIVE" && validate.work == .scans(rows: 40))
            let setNotNull = try #require(plan.steps.first { $0.sql.contains("SET NOT NULL") })
            #expect(setNotNull.work == .none && !setNotNull.holdsWritersOff)
            let holding = plan.steps.filter(\.holdsWritersOff)
            #expect(holding.isEmpty, "\(holding)")
        } else {
            let copy = try #require(plan.steps.first { $0.work == .rewrites(rows: 40) }, "\(plan)")
            #expect(copy.holdsWritersOff && copy.lock.contains("write lock"))
        }
    }

    @Test(
        "a step that would hold writers off on a table over the limit is refused before anything changes",
        arguments: Backend.allCases)
    func blockingStepRefused(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [PlanNarrow.self]) else { return }
        try PlanNarrow.save(
            (0..<30).map { index in
                let row = PlanNarrow(dbManager: database.manager)
                row.count = Int32(index)
                return row
            }, manager: database.manager)
        let upgrade = try database.reopen()
        upgrade.schemaChanges.blockingRowLimit = 10
        let plan = try upgrade.migrationPlan(for: [PlanWide.self])
        if backend == .postgresql {
            // bigint → double precision rewrites the table under ACCESS EXCLUSIVE.
            let retype = try #require(plan.steps.first { $0.sql.contains("TYPE") }, "\(plan)")
            #expect(retype.isRefused && retype.holdsWritersOff && retype.work == .rewrites(rows: 30))
            let error = try #require(throws: DBBError.self) { try upgrade.register([PlanWide.self]) }
            #expect(error.kind == .migrationRefused && error.table == "PlanCount", "\(error)")
            #expect(error.message.contains("blockingRowLimit") && error.message.contains("30 rows"), "\(error)")
            #expect(
                try database.manager.query(
                    "SELECT data_type FROM information_schema.columns WHERE table_name = 'PlanCount' AND column_name = 'count'"
                )[0].decode(String.self, at: 0) == "bigint", "nothing changed")
            upgrade.schemaChanges.blockingRowLimit = .max
            try upgrade.register([PlanWide.self])
        } else {
            // SQLite rebuilds the table, holding its one writer, and refuses nothing: there is no
            // other way to change a declared type, and no writer gets in meanwhile anyway.
            #expect(plan.refused.isEmpty && plan.steps.contains { $0.work == .rewrites(rows: 30) }, "\(plan)")
            try upgrade.register([PlanWide.self])
        }
        #expect(try PlanWide.all(manager: upgrade).count == 30)
    }

    static func hasColumn(_ manager: DBBManager, _ column: String) throws -> Bool {
        manager.databaseSystem == "postgresql"
            ? try manager.query(
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'PlanOrder' AND column_name = ?",
                arguments: [column])[0].decode(Int.self, at: 0) == 1
            : try manager.query(
                "SELECT count(*) FROM pragma_table_info('PlanOrder') WHERE name = ?", arguments: [column])[
                    0
                ].decode(Int.self, at: 0) == 1
    }
}

/// A count stored as an `Int32`, then widened to a `Double` (PostgreSQL: `bigint` to
/// `double precision`, a rewrite; SQLite: a rebuild).
final class PlanNarrow: DBBTableObject {
    override class var databaseTableName: String { "PlanCount" }
    var count: Int32 = 0
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["count": DBBPropertyPersistence(\PlanNarrow.count)], for: self)
    }
}

final class PlanWide: DBBTableObject {
    override class var databaseTableName: String { "PlanCount" }
    var count = 0.0
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["count": DBBPropertyPersistence(\PlanWide.count)], for: self)
    }
}
