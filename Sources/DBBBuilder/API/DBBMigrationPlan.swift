/// What ``DBBManager/register(_:)`` would do to the database, statement by statement, before
/// anything changes: ``DBBManager/migrationPlan(for:)``. Registration runs the same code, so it
/// runs exactly these statements while the database is as it was when the plan was made.
public struct DBBMigrationPlan: Sendable, CustomStringConvertible {
    /// The statements, in order: those of the registration's transaction, then those made
    /// after its commit (PostgreSQL's online steps).
    public let steps: [DBBMigrationStep]

    /// Whether registering would change nothing.
    public var isEmpty: Bool { steps.isEmpty }

    /// The steps ``DBBManager/register(_:)`` refuses under the manager's ``DBBSchemaChanges``.
    public var refused: [DBBMigrationStep] { steps.filter(\.isRefused) }

    /// One line a step: when, table, lock, work, what the old version can do meanwhile, the SQL.
    public var description: String {
        guard !steps.isEmpty else { return "nothing to change" }
        return steps.map(\.description).joined(separator: "\n")
    }
}

/// One statement of a ``DBBMigrationPlan``.
public struct DBBMigrationStep: Sendable, Equatable, CustomStringConvertible {
    /// When the statement runs.
    public enum Phase: String, Sendable {
        /// In the registration's one transaction, all or nothing.
        case transaction
        /// After the transaction committed, on its own (PostgreSQL: a concurrent index build, a
        /// check's validation, a short transaction under the lock bound).
        case afterCommit
    }

    /// How much of the table the statement reads or writes.
    public enum Work: Sendable, Equatable {
        /// Only the catalog: no row is read.
        case none
        /// Reads every row of the table (it holds about `rows`).
        case scans(rows: Int)
        /// Writes every row of the table again (it holds about `rows`).
        case rewrites(rows: Int)
    }

    /// The table it changes (a join table's own name for a join table).
    public let table: String
    /// The statement.
    public let sql: String
    public let phase: Phase
    /// The lock it takes on `table`, as the engine names it (`ACCESS EXCLUSIVE`,
    /// `SHARE UPDATE EXCLUSIVE`…; SQLite: the database's write lock).
    public let lock: String
    public let work: Work
    /// What the old version's instances can do with the table while it runs.
    public let meanwhile: String
    /// Whether it holds the table's writers off for as long as its work takes, beyond the lock
    /// bound (``DBBSchemaChanges/lockTimeout``) that other steps keep to.
    public let holdsWritersOff: Bool
    /// Whether it deletes rows (join rows whose owner row is gone).
    public let deletesRows: Bool
    /// Whether ``DBBManager/register(_:)`` refuses it: it holds writers off on a table of more
    /// rows than ``DBBSchemaChanges/blockingRowLimit``.
    public let isRefused: Bool

    public var description: String {
        let work: String =
            switch self.work {
            case .none: "no scan"
            case .scans(let rows): "scans \(rows) rows"
            case .rewrites(let rows): "rewrites \(rows) rows"
            }
        let flags =
            (holdsWritersOff ? ", holds writers off" : "") + (deletesRows ? ", deletes rows" : "")
            + (isRefused ? ", REFUSED (schemaChanges.blockingRowLimit)" : "")
        return "[\(phase == .transaction ? "transaction" : "after commit")] \(table): \(lock), \(work)\(flags); "
            + "meanwhile \(meanwhile) — \(sql)"
    }
}
