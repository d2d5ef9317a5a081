#if Postgres
@_spi(DBBBackend) import DBBBuilder
import Foundation
import Synchronization

/// A primary and its read replicas (streaming standbys): writes, transactions and reads inside
/// them go to the primary; other reads go to the replicas in turn. A replica that cannot be
/// reached is left out for ``retryInterval`` and its reads go to the primary, so a read is
/// never lost to a replica going down (a read is retried on the primary when its replica fails
/// in the middle of it: reads change nothing, so running one twice is safe).
///
/// With `readYourWrites`, a manager's reads after its own write go to a replica only once that
/// replica has replayed the write (its `pg_last_wal_replay_lsn()` has reached the primary's
/// WAL position after the write); until then they read the primary. Without it, a read from a
/// replica may not see a write the manager has just made — except a registration's: the
/// tables it created or changed are read on the primary until a replica has them.
///
/// The position is read on the writer's connection once the write is done, and nothing about
/// it can fail the write, which has committed: when it cannot be read (the connection lost
/// right after the commit), the manager's reads go to the primary until it can read the
/// primary's position again (see ``WriteMark``).
final class ReplicatedAccess: AsyncReadingAccess, @unchecked Sendable {
    // @unchecked Sendable: the mutable state is in Mutex and Atomic values.
    let primary: PostgresAccess
    private let replicas: [Replica]
    private let readYourWrites: Bool
    /// Where the primary's WAL was after this manager's last write (with `readYourWrites`), or
    /// its last registration (without).
    private let lastWrite = Mutex<WriteMark>(.none)
    private let turn = Atomic<Int>(0)
    let tracing: TraceSwitch
    /// `dbb_replica_fallbacks_total`, or `nil` when no metrics backend is bootstrapped.
    private let fallbacks: ReplicaInstruments?
    var dialect: any DBBDialect { PostgresDialect() }
    var isReadOnly: Bool { primary.isReadOnly }
    /// How long a replica that failed is left out.
    static let retryInterval: Duration = .seconds(5)

    init(primary: PostgresAccess, replicas: [PostgresAccess], readYourWrites: Bool, tracing: TraceSwitch) {
        self.primary = primary
        self.replicas = replicas.map(Replica.init)
        self.readYourWrites = readYourWrites
        self.tracing = tracing
        fallbacks = replicas.isEmpty ? nil : ReplicaInstruments.resolve(database: primary.place.database)
    }

    var databaseName: String? { primary.databaseName }

    func write<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try write(marking: readYourWrites, body)
    }

    /// A registration's write marks its position with or without `readYourWrites`: the
    /// manager's reads of the tables it has just created or changed (or found made by another
    /// manager an instant earlier) wait for a replica that has them, reading the primary until then.
    func changeSchema<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        try write(marking: true, body)
    }

    /// Runs `body` on the primary; with `marking`, records where the primary's WAL is once it is
    /// done, for the reads after it (see ``lastWrite``).
    private func write<T>(marking: Bool, _ body: (any DatabaseConnection) throws -> T) throws -> T {
        guard marking && !primary.isWriting else { return try primary.write(body) }
        return try primary.write { connection in
            let result: T
            do {
                result = try body(connection)
            } catch {
                // A commit that may have landed: a read that looks for it must see it if it did.
                if Self.mayHaveCommitted(error) { lastWrite.withLock { $0 = .unknown } }
                throw error
            }
            // Done and committed: what follows only steers later reads, and cannot fail the write.
            let position = try? WALPosition.read(connection, WALPosition.primarySQL)
            lastWrite.withLock { $0 = $0.after(position) }
            return result
        }
    }

    /// Whether `error` is a commit whose outcome is unknown.
    static func mayHaveCommitted(_ error: any Error) -> Bool {
        (error as? PostgresFailure)?.isCommitInFlight == true || (error as? DBBError)?.kind == .commitOutcomeUnknown
    }

    func read<T>(_ body: (any DatabaseConnection) throws -> T) throws -> T {
        guard !primary.isWriting, let replica = nextReplica() else { return try primary.read(body) }
        // Not known (the primary's position cannot be read now): the primary has the write.
        guard let written = try? lastWrittenPosition() else { return try primary.read(body) }
        do {
            if !(try replica.hasReplayed(written)) {
                fallbacks?.fellBack(lagging: true)
                return try primary.read(body)
            }
            return try replica.access.read(body)
        } catch {
            try recover(from: error, on: replica)
            fallbacks?.fellBack(lagging: false)
            return try primary.read(body)
        }
    }

    var asyncReading: (any AsyncReadingAccess)? { self }

    /// Runs `plan` where ``read(_:)`` would run a synchronous read, the calling task suspended
    /// (no thread held) while it waits.
    func read(_ plan: any RoundTripPlan) async throws {
        guard let replica = nextReplica() else { return try await primary.read(plan) }
        let written: WALPosition?
        do {
            written = try await lastWrittenPosition()
        } catch {
            written = nil
        }
        guard let written else { return try await primary.read(plan) }
        do {
            if !(try await replica.hasReplayed(written)) {
                fallbacks?.fellBack(lagging: true)
                return try await primary.read(plan)
            }
            return try await replica.access.read(plan)
        } catch {
            try recover(from: error, on: replica)
            fallbacks?.fellBack(lagging: false)
            return try await primary.read(plan)
        }
    }

    /// Rethrows `error`, the failure of a read on `replica`, unless the read is to go to the
    /// primary instead: the replica cannot be reached (it is left out for a while), or it
    /// cancelled the read to replay WAL that conflicts with it.
    private func recover(from error: any Error, on replica: Replica) throws {
        if Self.isUnreachable(error) {
            replica.leaveOut(for: Self.retryInterval)
        } else if !Self.isRecoveryConflict(error) {
            throw error
        }
    }

    func addSetup(_ setup: @escaping @Sendable (any DatabaseConnection) throws -> Void) throws {
        try primary.addSetup(setup)
        for replica in replicas { try replica.access.addSetup(setup) }
    }

    func close() {
        primary.close()
        for replica in replicas { replica.access.close() }
    }

    /// The position a replica must have replayed before it serves this manager's reads: zero
    /// when the manager has not written. After a write whose position was not read, the
    /// primary's current position (at or after that write's), once it can be read.
    /// - Throws: when it cannot be read yet: the read goes to the primary.
    private func lastWrittenPosition() throws -> WALPosition {
        if let known = lastWrite.withLock({ $0.known }) { return known }
        return try primaryPosition(try primary.read { try WALPosition.read($0, WALPosition.primarySQL) })
    }

    /// ``lastWrittenPosition()``, awaited.
    private func lastWrittenPosition() async throws -> WALPosition {
        if let known = lastWrite.withLock({ $0.known }) { return known }
        return try primaryPosition(try await WALPosition.read(primary, WALPosition.primarySQL))
    }

    /// The primary's position read now (`nil`: it gave none), recorded as the last write's.
    private func primaryPosition(_ position: WALPosition?) throws -> WALPosition {
        guard let position else { throw DBBError(backend: .unavailable, "the primary gave no WAL position") }
        lastWrite.withLock { $0 = $0.after(position) }
        return position
    }

    /// The next replica in turn that is not left out, or `nil` when every one is.
    private func nextReplica() -> Replica? {
        guard !replicas.isEmpty else { return nil }
        let start = turn.add(1, ordering: .relaxed).oldValue
        for offset in 0..<replicas.count {
            let replica = replicas[(start + offset) % replicas.count]
            if replica.isAvailable { return replica }
        }
        return nil
    }

    /// Whether `error` says the server could not be reached or went away (not a refused statement).
    static func isUnreachable(_ error: any Error) -> Bool {
        if let failure = error as? PostgresFailure { return failure.server == nil || failure.endsSession }
        if let error = error as? DBBError { return error.kind == .unavailable }
        return false
    }

    /// Whether `error` is a standby cancelling a read that conflicts with recovery (40001).
    static func isRecoveryConflict(_ error: any Error) -> Bool {
        if let failure = error as? PostgresFailure { return failure.server?.sqlState == "40001" }
        if let error = error as? DBBError { return error.serverError?.sqlState == "40001" }
        return false
    }

    /// One replica: its connections, when it may be tried again, the WAL it is known to have replayed.
    final class Replica: Sendable {
        let access: PostgresAccess
        private let leftOutUntil = Mutex<ContinuousClock.Instant?>(nil)
        private let replayed = Mutex<WALPosition>(.zero)

        init(_ access: PostgresAccess) { self.access = access }

        var isAvailable: Bool {
            leftOutUntil.withLock { until in
                guard let instant = until else { return true }
                if ContinuousClock.now >= instant { until = nil }
                return until == nil
            }
        }

        func leaveOut(for interval: Duration) { leftOutUntil.withLock { $0 = ContinuousClock.now + interval } }

        /// Whether this replica has replayed the WAL up to `position` (asked only while it is
        /// not known to have).
        func hasReplayed(_ position: WALPosition) throws -> Bool {
            if replayed.withLock({ $0 >= position }) { return true }
            return recordReplayed(try access.read { try WALPosition.read($0, WALPosition.replaySQL) }, position)
        }

        /// ``hasReplayed(_:)``, awaited.
        func hasReplayed(_ position: WALPosition) async throws -> Bool {
            if replayed.withLock({ $0 >= position }) { return true }
            return recordReplayed(try await WALPosition.read(access, WALPosition.replaySQL), position)
        }

        /// Records that the replica has replayed up to `now`, and says whether that reaches `position`.
        private func recordReplayed(_ now: WALPosition?, _ position: WALPosition) -> Bool {
            let now = now ?? .zero
            replayed.withLock { if now > $0 { $0 = now } }
            return now >= position
        }
    }
}

extension ReplicatedAccess: CustomReflectable {
    var customMirror: Mirror {
        Mirror(self, children: ["primary": primary, "replicas": replicas.map(\.access)], displayStyle: .class)
    }
}

/// Where the primary's WAL was after a manager's last write.
enum WriteMark: Sendable {
    /// The manager has not written.
    case none
    /// At or before this position.
    case at(WALPosition)
    /// Not known: the position could not be read after the write (reads go to the primary
    /// until its current position, which is at or after the write's, can be read).
    case unknown

    /// The position a replica must have replayed, when known without asking the primary.
    var known: WALPosition? {
        switch self {
        case .none: .zero
        case .at(let position): position
        case .unknown: nil
        }
    }

    /// The mark after a write whose position is `position` (`nil`: it could not be read).
    func after(_ position: WALPosition?) -> WriteMark {
        guard let position else { return .unknown }
        if case .at(let earlier) = self, earlier > position { return self }
        return .at(position)
    }
}

/// A WAL position (`pg_lsn`), read from its text form `16/B374D848`.
struct WALPosition: Comparable, Sendable {
    let value: UInt64
    static let zero = WALPosition(value: 0)
    /// The primary's WAL position now: at or after every write it has acknowledged.
    static let primarySQL = "SELECT pg_current_wal_insert_lsn()::text"
    /// A standby's replayed position now.
    static let replaySQL = "SELECT pg_last_wal_replay_lsn()::text"

    static func < (a: WALPosition, b: WALPosition) -> Bool { a.value < b.value }

    /// The position `sql` returns, `nil` when it returns `NULL` (a server that is not a standby).
    static func read(_ connection: any DatabaseConnection, _ sql: String) throws -> WALPosition? {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return parsed(statement.reader.string(at: 0))
    }

    /// The position `sql` returns, read by a task that awaits `access`.
    static func read(_ access: PostgresAccess, _ sql: String) async throws -> WALPosition? {
        let plan = RowsPlan(sql) { $0.string(at: 0) }
        try await access.read(plan)
        return plan.values.first.flatMap(parsed)
    }

    /// The position written `16/B374D848`.
    private static func parsed(_ text: String?) -> WALPosition? {
        guard let text else { return nil }
        let parts = text.split(separator: "/")
        guard parts.count == 2, let high = UInt64(parts[0], radix: 16), let low = UInt64(parts[1], radix: 16) else {
            return nil
        }
        return WALPosition(value: high << 32 | low)
    }
}
#endif
