/// How a registration changes the tables of a live database, where the old version's
/// instances keep reading and writing while the new version's register (PostgreSQL; on SQLite a
/// registration is one transaction, which holds the database's one writer until it ends).
///
/// Each statement that needs a table to itself (`ALTER TABLE`, `CREATE TABLE` of a join table
/// with a foreign key) waits at most ``lockTimeout`` for it. Until it is granted, the table's
/// writers queue behind the request, so ``lockTimeout`` is the longest a registration holds
/// them off. When the lock is not granted in time, the registration's transaction rolls back,
/// which keeps nothing, and the registration tries again after a pause that grows (with jitter)
/// from ``lockTimeout`` to 2 s, each try logged at `notice`. When ``waitLimit`` has passed, it
/// fails with ``DBBError/Kind/timedOut`` naming the table, the statement and the sessions that
/// held the lock. Nothing it did is kept.
///
/// Set it on the manager before ``DBBManager/register(_:)``:
/// ```swift
/// manager.schemaChanges = DBBSchemaChanges(lockTimeout: .milliseconds(100), waitLimit: .seconds(120))
/// ```
public struct DBBSchemaChanges: Sendable, Equatable {
    /// The longest one statement waits for a lock, and so holds off the table's writers.
    public var lockTimeout: Duration
    /// How long a registration keeps trying before it gives up with ``DBBError/Kind/timedOut``.
    public var waitLimit: Duration
    /// The most rows a table may hold for a registration to run a statement that holds its
    /// writers off while it reads or rewrites every row — on PostgreSQL, a change of a column's
    /// type (`ALTER COLUMN … TYPE` rewrites the table under `ACCESS EXCLUSIVE`). Beyond it, the
    /// registration is refused with ``DBBError/Kind/migrationRefused`` before anything changes
    /// (``DBBMigrationStep/isRefused`` in its plan). `Int.max` allows any.
    public var blockingRowLimit: Int

    /// - Parameters:
    ///   - lockTimeout: from 1 ms; the default is 200 ms.
    ///   - waitLimit: the default is 30 s.
    ///   - blockingRowLimit: the default is 10,000 rows.
    public init(
        lockTimeout: Duration = .milliseconds(200), waitLimit: Duration = .seconds(30), blockingRowLimit: Int = 10_000
    ) {
        (self.lockTimeout, self.waitLimit, self.blockingRowLimit) = (lockTimeout, waitLimit, blockingRowLimit)
    }

    /// ``lockTimeout`` in whole milliseconds, at least 1.
    var lockTimeoutMilliseconds: Int {
        let (seconds, attoseconds) = lockTimeout.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
