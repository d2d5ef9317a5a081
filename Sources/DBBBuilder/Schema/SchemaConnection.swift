import DBBFormat
import DBBSQLite

/// The connection a registration changes the schema through: each of its statements goes
/// through ``run(_:on:_:_:)`` with what it does, and is either run or, when planning, only
/// written down as a ``DBBMigrationStep``. Planning and registering run the same code, so a
/// registration runs the statements of its plan. Everything else (the reads that decide what
/// to change) goes to the connection underneath.
final class SchemaConnection: DatabaseConnection {
    let base: any DatabaseConnection
    /// Whether statements are written down rather than run.
    let planning: Bool
    /// Beyond this many rows, a statement that holds writers off while it works is refused
    /// where the dialect changes schemas online.
    let blockingRowLimit: Int
    /// When the statements now run.
    var phase = DBBMigrationStep.Phase.transaction
    /// The statements written down, when planning.
    private(set) var steps: [DBBMigrationStep] = []
    private var rows: [String: Int] = [:]

    init(_ base: any DatabaseConnection, planning: Bool, blockingRowLimit: Int) {
        (self.base, self.planning, self.blockingRowLimit) = (base, planning, blockingRowLimit)
    }

    /// Runs (or, planning, writes down) `sql`, a statement of `kind` on `table`.
    /// - Throws: ``DBBError/Kind/migrationRefused`` for a statement that would hold the writers
    ///   of a table of more than ``blockingRowLimit`` rows off while it works (online dialects).
    func run(_ kind: SchemaStatementKind, on table: String, _ sql: String, _ arguments: [DBBValue] = []) throws {
        let impact = dialect.impact(of: kind)
        let limited = impact.holdsWritersOff && dialect.changesSchemaOnline
        let count = (planning && impact.work != .none) || limited ? try rowCount(table) : 0
        let refused = limited && count > blockingRowLimit
        let step = DBBMigrationStep(
            table: table, sql: sql, phase: phase, lock: impact.lock,
            work: impact.work == .none ? .none : impact.work == .scan ? .scans(rows: count) : .rewrites(rows: count),
            meanwhile: impact.meanwhile, holdsWritersOff: impact.holdsWritersOff, deletesRows: kind == .deleteOrphans,
            isRefused: refused)
        // A table made by the statements before: empty (when planning, it is not there yet).
        if kind == .createTable || kind == .createJoinTable { rows[table] = 0 }
        if planning {
            steps.append(step)
            return
        }
        if refused {
            throw DBBError(
                .migrationRefused, table: table,
                "registration would run `\(sql)`, which holds the writers of \(table) (about \(count) rows) off while "
                    + "it \(impact.work == .rewrite ? "writes every row again" : "reads every row") — \(impact.meanwhile). "
                    + "Nothing was changed. Make the change as new columns (expand, then contract), or run it when no "
                    + "one writes and allow it with schemaChanges.blockingRowLimit")
        }
        try base.execute(sql, arguments)
    }

    /// How many rows `table` holds: the engine's estimate, else a count.
    private func rowCount(_ table: String) throws -> Int {
        if let known = rows[table] { return known }
        let estimate = try base.fetchValue(dialect.rowEstimate(table), as: Int.self)
        let count = try estimate ?? base.fetchValue(SchemaSQL(dialect: dialect).count(table), as: Int.self) ?? 0
        rows[table] = count
        return count
    }

    // MARK: - The connection underneath

    var dialect: any DBBDialect { base.dialect }

    func statement(_ sql: String, clearing: Bool) throws -> any DatabaseStatement {
        try base.statement(sql, clearing: clearing)
    }

    /// A statement that did not say what it does: a write to the catalog.
    func execute(_ sql: String, _ arguments: [DBBValue]) throws {
        try run(.catalog, on: DBBFormat.columnsTable, sql, arguments)
    }

    var lastInsertedRowID: Int64 { base.lastInsertedRowID }
    var changes: Int { base.changes }

    func atomically<T>(_ mode: DatabaseTransactionMode, _ body: () throws -> T) throws -> T {
        try base.atomically(mode, body)
    }

    func savepoint<T>(_ body: () throws -> T) throws -> T { try base.savepoint(body) }
    func read(_ plan: any RoundTripPlan) throws { try base.read(plan) }
    var hasOpenTransaction: Bool { base.hasOpenTransaction }
    func observe(trace handler: DBBTraceHandler?, logging: StatementLogging?) {
        base.observe(trace: handler, logging: logging)
    }
    func close() { base.close() }
}

extension DatabaseConnection {
    /// Runs a registration's statement of `kind` on `table`, through the ``SchemaConnection``
    /// this is (which may only write it down), else as it is.
    func change(_ kind: SchemaStatementKind, on table: String, _ sql: String, _ arguments: [DBBValue] = []) throws {
        if let schema = self as? SchemaConnection {
            try schema.run(kind, on: table, sql, arguments)
        } else {
            try execute(sql, arguments)
        }
    }

    /// Runs a statement that changes no table (a lock, a setting), unless this only plans.
    func bookkeeping(_ sql: String) throws {
        if let schema = self as? SchemaConnection {
            if !schema.planning { try schema.base.execute(sql, []) }
        } else {
            try execute(sql, [])
        }
    }

    /// Bounds how long each later statement of the open transaction waits for a lock
    /// (``DBBDialect/lockTimeout(milliseconds:)``; nothing where the dialect has no bound).
    func boundLockWaits(milliseconds: Int) throws {
        if let bound = dialect.lockTimeout(milliseconds: milliseconds) { try bookkeeping(bound) }
    }

    /// Whether the index `name` is there and usable: not missing, nor left invalid by a
    /// concurrent build that failed.
    func hasUsableIndex(_ name: String) throws -> Bool {
        try fetchValue(dialect.indexExists, [.text(name)], as: Int.self) != 0
            && fetchValue(dialect.invalidIndexCount, [.text(name)], as: Int.self) == 0
    }

    /// Whether this only writes a registration's statements down (``SchemaConnection``).
    var isPlanning: Bool { (self as? SchemaConnection)?.planning ?? false }
}
