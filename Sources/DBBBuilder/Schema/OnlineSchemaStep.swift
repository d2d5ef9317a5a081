import Foundation

/// A change to an existing table that a registration makes after its transaction committed,
/// where the dialect changes schemas online (``DBBDialect/changesSchemaOnline``): each holds off
/// the table's writers for at most the lock bound (``DBBSchemaChanges/lockTimeout``), whatever
/// the size of the table.
enum OnlineSchemaStep {
    /// An indexer's index, built concurrently: reads and writes go on while it is built.
    case index(String, table: String, String)
    /// The unique index of a property's `UNIQUE`, built concurrently.
    case uniqueIndex(TableMapping, ColumnProperty)
    /// Checks the existing rows against the unvalidated check that stands for a property's new
    /// `NOT NULL` (the transaction added it), without holding off writes.
    case validateNotNull(TableMapping, ColumnProperty)
    /// `SET NOT NULL`, which the validated check spares a scan, and the check dropped: one short
    /// transaction under the lock bound.
    case setNotNull(TableMapping, ColumnProperty)

    /// Whether the step takes a lock that holds writers off, and so runs under the lock bound
    /// (and is tried again when it is not granted in time).
    var isBounded: Bool {
        if case .setNotNull = self { return true }
        return false
    }

    var table: String {
        switch self {
        case .index(_, let table, _): table
        case .uniqueIndex(let mapping, _), .validateNotNull(let mapping, _), .setNotNull(let mapping, _):
            mapping.tableName
        }
    }
}

/// Runs ``OnlineSchemaStep``s on a connection outside any transaction.
struct OnlineSchemaChange {
    let connection: any DatabaseConnection
    /// The lock bound of the steps that hold writers off, in milliseconds.
    let lockTimeout: Int
    /// When waiting for another registration's build of the same index gives up.
    let deadline: ContinuousClock.Instant
    private var dialect: any DBBDialect { connection.dialect }
    private var sql: ConstraintSQL { ConstraintSQL(dialect: connection.dialect) }

    /// Makes `step`. A failure leaves no invalid index and no unvalidated check behind.
    /// - Returns: what changed, for the log.
    func run(_ step: OnlineSchemaStep) throws -> [String] {
        switch step {
        case .index(let name, let table, let create):
            try build(name, on: table, create)
            return ["created index \"\(name)\" on \"\(table)\" (concurrently)"]
        case .uniqueIndex(let mapping, let property):
            let table = mapping.tableName
            let name = dialect.attributeIndexName(table: table, column: property.column)
            let constraints = ConstraintMigration(connection: connection, online: true)
            do {
                try build(name, on: table, sql.createAttributeIndex(property.column, of: table, concurrently: true))
            } catch {
                // Duplicates an old version wrote since the check: named, as the check names them.
                try constraints.checkNoDuplicate(property, of: mapping)
                throw error
            }
            try constraints.checkUniqueIndex(property.column, of: table)
            return ["added UNIQUE to \"\(property.column)\" of \"\(table)\" (index \"\(name)\", built concurrently)"]
        case .validateNotNull(let mapping, let property):
            let table = mapping.tableName
            let check = dialect.notNullCheckName(table: table, column: property.column)
            // Another registration of the same version validated it and set NOT NULL already.
            if !connection.isPlanning,
                try connection.fetchValue(dialect.constraintCount(check, of: table), as: Int.self) == 0
            {
                return []
            }
            do {
                try connection.change(.validateCheck, on: table, dialect.validateConstraint(check, of: table))
            } catch {
                // A NULL an old version wrote since the check: the constraint goes, the rows say
                // why. (Any other failure leaves it, for the next try to validate.)
                do {
                    try ConstraintMigration(connection: connection, online: true).checkNoNull(property, of: mapping)
                } catch let refusal {
                    try? bounded {
                        try connection.change(
                            .dropConstraint, on: table, sql.dropConstraint(check, of: table, ifExists: true))
                    }
                    throw refusal
                }
                throw error
            }
            return []
        case .setNotNull(let mapping, let property):
            let table = mapping.tableName
            try bounded {
                try connection.change(.setNotNull(scans: false), on: table, sql.setNotNull(property.column, of: table))
                try connection.change(
                    .dropConstraint, on: table,
                    sql.dropConstraint(
                        dialect.notNullCheckName(table: table, column: property.column), of: table, ifExists: true))
            }
            return ["added NOT NULL to \"\(property.column)\" of \"\(table)\" (validated first: no scan under lock)"]
        }
    }

    /// Runs `body` in a transaction whose statements wait at most the lock bound for a lock.
    private func bounded(_ body: () throws -> Void) throws {
        try connection.atomically(.immediate) {
            try connection.boundLockWaits(milliseconds: lockTimeout)
            try body()
        }
    }

    /// Builds the index `name` with `create` (concurrently), or finds it built by another
    /// registration: waits for another's build of it to end, drops an invalid one a failed
    /// build left, and after a build that failed drops what it left. Two registrations that
    /// build it at once may deadlock, and one fails: that one then finds the other's build, or
    /// (its own build rolled back) builds it again.
    private func build(_ name: String, on table: String, _ create: String) throws {
        if connection.isPlanning {
            if try count(dialect.invalidIndexCount, name) != 0 {
                try connection.change(.dropIndexConcurrently, on: table, dialect.dropIndexConcurrently(name))
            }
            return try connection.change(.createIndexConcurrently, on: table, create)
        }
        var failure: (any Error)?
        for _ in 0..<5 {
            try waitForOtherBuild(of: name, on: table)
            if try count(dialect.invalidIndexCount, name) != 0 {
                try connection.change(.dropIndexConcurrently, on: table, dialect.dropIndexConcurrently(name))
            }
            do {
                try connection.change(.createIndexConcurrently, on: table, create)
            } catch {
                failure = error
            }
            if try connection.hasUsableIndex(name) { return }
            if try count(dialect.indexBuildCount, name) != 0 { continue }  // another's, under way
            // What this build left.
            try? connection.change(.dropIndexConcurrently, on: table, dialect.dropIndexConcurrently(name))
            // A deadlock with another registration's build of it: rolled back, so try again.
            if let failure, (failure as? DBBError)?.wasRolledBackForAnother != true { throw failure }
        }
        throw failure
            ?? DBBError(
                .migrationRefused, table: table, "the index \(name) could not be built concurrently: it stayed invalid")
    }

    private func waitForOtherBuild(of name: String, on table: String) throws {
        while try count(dialect.indexBuildCount, name) != 0 {
            guard ContinuousClock.now < deadline else {
                throw DBBError(
                    .timedOut, table: table,
                    "another session was still building the index \(name) when the registration's wait limit passed; "
                        + "nothing more was changed. Register again once it is done, or raise schemaChanges.waitLimit")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    private func count(_ sql: String, _ name: String) throws -> Int {
        try connection.fetchValue(sql, [.text(name)], as: Int.self) ?? 0
    }
}
