import DBBSQLite
import Foundation

extension DBBManager {
    /// Registers table-object classes: creates each table, its join tables, indexes and the
    /// triggers that delete join rows with their rows, or brings existing tables up to date.
    /// The classes they refer to are registered with them. Properties added to a class become
    /// new columns (`ALTER TABLE ADD COLUMN`); properties removed keep their columns and data.
    /// All of it happens in one transaction, after every class was checked. On PostgreSQL, an
    /// existing table's new indexes and `NOT NULL` are made after that transaction, without
    /// holding its writers off (see ``DBBSchemaChanges`` and ``migrationPlan(for:)``).
    ///
    /// - Throws: ``DBBError`` naming the class and property of a bad mapping, two classes with
    ///   one table name (``DBBError/Kind/invalidMapping``), a migration that would change stored
    ///   data (``DBBError/Kind/migrationRefused``), or the SQL that failed. Nothing was changed then.
    public func register(_ tableClasses: [DBBTableObject.Type]) throws {
        do {
            let mappings = try tableClasses.map { type throws(DBBError) in
                try registry.mapping(for: type, manager: self)
            }
            try prepareTables(mappings, always: true)
        } catch {
            // A class refused leaves no claim on its names behind: the mappings this call made
            // (of its classes and the classes they refer to) go with it.
            registry.forget { !isTableReady($0) }
            throw error
        }
    }

    /// Creates or migrates the tables of `roots` (always, when `always`; else unless done
    /// already) and of every class they refer to, directly or not, that is not ready yet, in
    /// one transaction (a savepoint inside a save's transaction), then (where the dialect
    /// changes schemas online) makes the changes to existing tables left for after its commit.
    func prepareTables(_ roots: [TableMapping], always: Bool) throws {
        let pending = try pendingMappings(roots, always: always)
        guard !pending.isEmpty else { return }
        let tables = pending.flatMap { [$0.tableName] + $0.joins.map(\.joinTable) }
        let settings = schemaChanges
        let deadline = ContinuousClock.now + settings.waitLimit
        // Each change is logged once committed: a transaction that failed changed nothing, and
        // a later step that failed leaves the transaction's changes (and its own earlier ones).
        let log = { (changes: [String]) in
            if let logger = self.logging?.logger { for change in changes { logger.notice("schema: \(change)") } }
        }
        try observing(.schema, table: pending.count == 1 ? pending[0].tableName : nil) {
            var nested = false
            let outcome = try retryingLockWaits(on: tables, until: deadline, settings) {
                try write(nil, schema: true) { connection in
                    // Inside a save's transaction (a class registered as a save needs it), nothing
                    // can wait for after a commit, nor be tried again alone: as one transaction.
                    nested = connection.hasOpenTransaction
                    return try connection.atomically(.immediate) {
                        if !nested { try connection.boundLockWaits(milliseconds: settings.lockTimeoutMilliseconds) }
                        let schema = SchemaConnection(
                            connection, planning: false, blockingRowLimit: settings.blockingRowLimit)
                        return try SchemaMigration(
                            connection: schema, readOnly: access.isReadOnly, mayChangeLater: !nested
                        )
                        .apply(pending) { type in try self.registry.mapping(for: type, manager: self) }
                    }
                }
            } retryable: {
                !nested
            }
            log(outcome.changes)
            for step in outcome.later {
                let once = {
                    try self.write(nil, schema: true) { connection in
                        let schema = SchemaConnection(
                            connection, planning: false, blockingRowLimit: settings.blockingRowLimit)
                        schema.phase = .afterCommit
                        return try OnlineSchemaChange(
                            connection: schema, lockTimeout: settings.lockTimeoutMilliseconds, deadline: deadline
                        ).run(step)
                    }
                }
                // A deadlock with another registration of the same version rolled the step back:
                // it is tried again (a few times).
                let run = {
                    var tries = 0
                    while true {
                        do {
                            return try once()
                        } catch let error as DBBError
                            where error.isRetryable && !error.isTimeout && tries < 3
                        {
                            tries += 1
                        }
                    }
                }
                log(
                    try step.isBounded
                        ? retryingLockWaits(on: [step.table], until: deadline, settings, run) { true } : run())
            }
        }
        markTablesReady(pending)
    }

    /// The mappings of `roots` (always, when `always`; else unless their tables are ready) and
    /// of every class they refer to, directly or not, whose tables are not ready yet.
    private func pendingMappings(_ roots: [TableMapping], always: Bool) throws -> [TableMapping] {
        var all: [TableMapping] = []
        var seen: Set<ObjectIdentifier> = []
        var queue = roots
        while let mapping = queue.popLast() {
            guard seen.insert(ObjectIdentifier(mapping.objectType)).inserted else { continue }
            all.append(mapping)
            for case let relation? in mapping.joins.map(\.access.relation) {
                queue.append(try registry.mapping(for: relation.targetType, manager: self))
            }
        }
        let rootKeys = Set(roots.map { ObjectIdentifier($0.objectType) })
        return all.filter { (always && rootKeys.contains(ObjectIdentifier($0.objectType))) || !isTableReady($0) }
    }

    /// What ``register(_:)`` would do to the database for `tableClasses` (and the classes they
    /// refer to), statement by statement, without changing anything: each statement's table,
    /// lock, how many rows it reads or rewrites, and what the old version's instances can do
    /// meanwhile. Registration runs the same code: while the database stays as it is, it runs
    /// exactly these statements, and refuses the plan's ``DBBMigrationPlan/refused`` steps.
    ///
    /// ```swift
    /// let plan = try manager.migrationPlan(for: [Order.self])
    /// print(plan)   // [transaction] Order: ACCESS EXCLUSIVE, no scan; meanwhile … — ALTER TABLE …
    /// ```
    /// - Throws: what ``register(_:)`` would throw before changing anything (a bad mapping, a
    ///   change refused by the rows).
    public func migrationPlan(for tableClasses: [DBBTableObject.Type]) throws -> DBBMigrationPlan {
        let alreadyMapped = Set(tableClasses.filter { registry.isMapped($0) }.map(ObjectIdentifier.init))
        do {
            let mappings = try tableClasses.map { type throws(DBBError) in
                try registry.mapping(for: type, manager: self)
            }
            let pending = try pendingMappings(mappings, always: true)
            let settings = schemaChanges
            return try write(nil) { connection in
                let schema = SchemaConnection(connection, planning: true, blockingRowLimit: settings.blockingRowLimit)
                let outcome = try connection.atomically(.deferred) {
                    try SchemaMigration(connection: schema, readOnly: access.isReadOnly).apply(pending) { type in
                        try self.registry.mapping(for: type, manager: self)
                    }
                }
                schema.phase = .afterCommit
                let runner = OnlineSchemaChange(
                    connection: schema, lockTimeout: settings.lockTimeoutMilliseconds, deadline: .now)
                for step in outcome.later { _ = try runner.run(step) }
                return DBBMigrationPlan(steps: schema.steps)
            }
        } catch {
            registry.forget { !isTableReady($0) && !alreadyMapped.contains(ObjectIdentifier($0.objectType)) }
            throw error
        }
    }
}
