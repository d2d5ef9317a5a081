/// What a statement of a registration does, for its plan (``DBBMigrationStep``): each dialect
/// says what lock it takes and what it holds off (``DBBDialect/impact(of:)``).
@_spi(DBBBackend)
public enum SchemaStatementKind: Sendable, Equatable {
    case createTable, addColumn, renameColumn, changeType,
        /// A join table, whose foreign keys (PostgreSQL) lock the tables they refer to briefly.
        createJoinTable, dropNotNull, addCheck, validateCheck, dropConstraint
    /// `NOT NULL` added; `scans`: no validated check proves it, so the rows are read under the lock.
    case setNotNull(scans: Bool)
    /// An index built in the transaction; `newTable`: on a table the transaction created.
    case createIndex(newTable: Bool)
    case createIndexConcurrently, dropIndex, dropIndexConcurrently, createTrigger
    /// Join rows whose owner row is gone, deleted before the trigger that keeps them in step.
    case deleteOrphans
    /// A statement of a table's rebuild (SQLite); `copiesRows`: the one that copies the rows.
    case rebuild(copiesRows: Bool)
    /// Holds the table's writers off until the transaction ends, so that a check counts every row.
    case lockAgainstWrites
    /// A write to the package's catalog (`dbb_columns`).
    case catalog
}

/// What a statement holds off, as a dialect describes it.
@_spi(DBBBackend)
public struct SchemaImpact: Sendable {
    /// The lock it takes, as the engine names it.
    public var lock: String
    /// What other sessions can do with the table meanwhile.
    public var meanwhile: String
    /// Whether writers wait for as long as its work takes (not only the lock bound).
    public var holdsWritersOff: Bool
    /// Whether it reads every row (`scan`) or writes every row again (`rewrite`).
    public var work: Work

    public enum Work: Sendable { case none, scan, rewrite }

    public init(_ lock: String, _ meanwhile: String, holdsWritersOff: Bool = false, work: Work = .none) {
        (self.lock, self.meanwhile, self.holdsWritersOff, self.work) = (lock, meanwhile, holdsWritersOff, work)
    }
}
