import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Synchronization
import Testing

@Suite("A migration plan: what registration would do, before it does it")
struct MigrationPlanTests {
    static func database(_ backend: Backend) throws -> BackendDatabase? {
        guard let database = try BackendDatabase(backend, [DeployOrderV1.self]) else { return nil }
        try DeployOrderV1.save(
            (0..<40).map { index in
                let order = DeployOrderV1(dbManager: database.manager)
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
        let plan = try upgrade.migrationPlan(for: [DeployOrderV2.self])
        #expect(try !Self.hasColumn(database.manager, "code"), "planning changed nothing")
        #expect(plan.refused.isEmpty)

        let run = Mutex<[String]>([])
        upgrade.trace { sql in run.withLock { $0.append(sql) } }
        try upgrade.register([DeployOrderV2.self])
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
            ["CREATE ", "ALTER ", "DROP ", "INSERT INTO \"DeployOrder_rebuild", "INSERT INTO DeployOrder_rebuild"]
                .contains {
                    sql.hasPrefix($0)
                } && !planned.contains(sql)
        }
        #expect(unplanned.isEmpty, "run, not planned: \(unplanned)")

        let described = plan.steps.map(\.description).joined(separator: "\n") + "\n"
        try GoldenSQLTests.compare(described, with: "migration-plan-\(backend.rawValue).txt")
        #expect(
            try database.reopen().migrationPlan(for: [DeployOrderV2.self]).isEmpty, "registered: nothing left to do")
    }

    @Test("a plan says what each step locks and reads", arguments: Backend.allCases)
    func planDescribesLocks(_ backend: Backend) throws {
        guard let database = try Self.database(backend) else { return }
        let plan = try database.reopen().migrationPlan(for: [DeployOrderV2.self])
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
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'DeployOrder' AND column_name = ?",
                arguments: [column])[0].decode(Int.self, at: 0) == 1
            : try manager.query(
                "SELECT count(*) FROM pragma_table_info('DeployOrder') WHERE name = ?", arguments: [column])[
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

/// A quantity stored in column `qty`, then renamed.
final class RenameOrderV1: DBBTableObject {
    override class var databaseTableName: String { "RenameOrder" }
    var qty = 0
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["qty": DBBPropertyPersistence(\RenameOrderV1.qty)], for: self)
    }
}

final class RenameOrderV2: DBBTableObject {
    override class var databaseTableName: String { "RenameOrder" }
    override class var formerColumnNames: [String: String] { ["quantity": "qty"] }
    var quantity = 0
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["quantity": DBBPropertyPersistence(\RenameOrderV2.quantity)], for: self)
    }
}

/// Renamed without saying so.
final class RenameOrderForgot: DBBTableObject {
    override class var databaseTableName: String { "RenameOrder" }
    var quantity = 0
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["quantity": DBBPropertyPersistence(\RenameOrderForgot.quantity)], for: self)
    }
}

/// Names a property it does not map.
final class RenameOrderUnknown: DBBTableObject {
    override class var databaseTableName: String { "RenameOrder" }
    override class var formerColumnNames: [String: String] { ["amount": "qty"] }
    var quantity = 0
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["quantity": DBBPropertyPersistence(\RenameOrderUnknown.quantity)], for: self)
    }
}

/// Renames `qty` for `quantity` while another property still maps `qty`.
final class RenameOrderClash: DBBTableObject {
    override class var databaseTableName: String { "RenameOrder" }
    override class var formerColumnNames: [String: String] { ["quantity": "qty"] }
    var quantity = 0
    var qty = 0
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "quantity": DBBPropertyPersistence(\RenameOrderClash.quantity),
                "qty": DBBPropertyPersistence(\RenameOrderClash.qty),
            ], for: self)
    }
}

@Suite("A property's column renamed: formerColumnNames")
struct ColumnRenameTests {
    static func database(_ backend: Backend) throws -> BackendDatabase? {
        guard let database = try BackendDatabase(backend, [RenameOrderV1.self]) else { return nil }
        try RenameOrderV1.save(
            (1...25).map { index in
                let order = RenameOrderV1(dbManager: database.manager)
                order.qty = index
                return order
            }, manager: database.manager)
        return database
    }

    static func columns(_ database: BackendDatabase) throws -> Set<String> {
        let sql =
            database.backend == .postgresql
            ? "SELECT column_name FROM information_schema.columns WHERE table_name = 'RenameOrder'"
            : "SELECT name FROM pragma_table_info('RenameOrder')"
        return Set(try database.manager.query(sql).map { try $0.decode(String.self, at: 0) })
    }

    @Test(
        "the values come along, once; the plan says so; the catalog describes the new property only",
        arguments: Backend.allCases)
    func renamed(_ backend: Backend) throws {
        guard let database = try Self.database(backend) else { return }
        let upgrade = try database.reopen()
        let plan = try upgrade.migrationPlan(for: [RenameOrderV2.self])
        let schemaSteps = plan.steps.filter { $0.table == "RenameOrder" }
        #expect(schemaSteps.count == 1 && schemaSteps[0].sql.contains("RENAME COLUMN"), "\(plan)")
        #expect(schemaSteps.first?.work == DBBMigrationStep.Work.none)
        try upgrade.register([RenameOrderV2.self])
        // Before: a new column "quantity", every row reading 0, the values left in "qty".
        #expect(try RenameOrderV2.all(manager: upgrade).map(\.quantity).sorted() == Array(1...25))
        let columns = try Self.columns(database)
        #expect(columns.contains("quantity") && !columns.contains("qty"), "\(columns)")
        let catalog = try database.manager.query(
            "SELECT property, column_name, mapped FROM dbb_columns WHERE table_name = 'RenameOrder' ORDER BY property")
        #expect(
            try catalog.map {
                try "\($0.decode(String.self, at: 0)) \($0.decode(String.self, at: 1)) \($0.decode(Int.self, at: 2))"
            } == ["quantity quantity 1"])
        // Once: the next registration finds the new name there.
        #expect(try database.reopen().migrationPlan(for: [RenameOrderV2.self]).isEmpty)
        #expect(try RenameOrderV2.all(manager: database.reopen([RenameOrderV2.self])).count == 25)
    }

    @Test(
        "a property renamed without formerColumnNames adds a column, and the log names the likely former one",
        arguments: Backend.allCases)
    func forgotten(_ backend: Backend) throws {
        guard let database = try Self.database(backend) else { return }
        // The same class in its next version (the catalog records the class by name).
        try database.manager.execute(
            "UPDATE dbb_columns SET class_name = '\(String(reflecting: RenameOrderForgot.self))' "
                + "WHERE table_name = 'RenameOrder'")
        let log = CapturedLog()
        let upgrade = try database.reopen()
        upgrade.logging = StatementLogging(logger: log.logger(level: .notice))
        try upgrade.register([RenameOrderForgot.self])
        let added = log.entries(at: .notice).map(\.message).filter { $0.contains("added column \"quantity\"") }
        #expect(added.count == 1 && added[0].contains(#"formerColumnNames (["quantity": "qty"])"#), "\(added)")
        #expect(try Self.columns(database).isSuperset(of: ["qty", "quantity"]), "the values stay in qty")
    }

    @Test(
        "a key that names no property, and a former column another property maps, are refused by name",
        arguments: Backend.allCases)
    func refused(_ backend: Backend) throws {
        guard let database = try Self.database(backend) else { return }
        let unknown = try #require(throws: DBBError.self) { try database.reopen().register([RenameOrderUnknown.self]) }
        #expect(unknown.kind == .invalidMapping && unknown.property == "amount", "\(unknown)")
        let clash = try #require(throws: DBBError.self) { try database.reopen().register([RenameOrderClash.self]) }
        #expect(clash.kind == .migrationRefused && clash.message.contains("qty"), "\(clash)")
        #expect(try Self.columns(database).contains("qty"), "nothing changed")
        #expect(try RenameOrderV1.all(manager: database.manager).count == 25)
    }
}
