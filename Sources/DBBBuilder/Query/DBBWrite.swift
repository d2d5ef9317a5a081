import DBBSQLite
import Foundation

/// A set-based write of `Root`'s rows by condition: one `UPDATE … SET … WHERE …` or
/// `DELETE FROM … WHERE …`, rendered from the expression tree by each backend's dialect with its
/// values bound. Made by ``DBBTableObjectFetching/updating(_:where:)`` and
/// ``DBBTableObjectFetching/deleting(where:)``; `update(_:where:manager:)`
/// and `delete(where:manager:)` run one at once. See <doc:Queries>.
///
/// What the object API promises holds: an update sets `modifiedTime` to the time it runs (so a
/// copy fetched before is refused by ``DBBTableObject/save(ifModifiedTimeIs:)-jirm``); a delete
/// removes the deleted rows' join rows and the join rows that refer to them, in the same
/// statement (so a copy fetched before is refused by ``DBBTableObject/save()-82mr9`` with
/// ``DBBError/Kind/rowNotFound``). The statement is all or nothing. No object is loaded, so no
/// object's hooks run (``DBBTableObject/willSave()``, ``DBBTableObject/performPreSaveActions()``,
/// ``DBBTableObject/performPostSaveActions()``), and objects already in memory keep the
/// values they were fetched with.
public struct DBBWrite<Root: DBBTableObject>: @unchecked Sendable {
    // @unchecked Sendable: see DBBExpression.
    private let action: Action
    private let filter: SQLNode

    private enum Action {
        case update([WriteNode.Assignment])
        case delete
    }

    fileprivate init(update assignments: [DBBAssignment<Root>], _ condition: DBBCondition<Root>) {
        action = .update(assignments.map { $0.assignment })
        filter = condition.node
    }

    fileprivate init(deleting condition: DBBCondition<Root>) {
        action = .delete
        filter = condition.node
    }

    /// The SQL the write runs on `manager`'s backend and the values it binds, in placeholder
    /// order (an update's first value is the `modifiedTime` it sets, the time of this call).
    /// - Throws: what `run(_:)` throws before it runs anything.
    public func sql(on manager: DBBManager) throws -> DBBQuerySQL {
        try rendered(manager, at: Date()).1
    }

    /// Runs the write as one statement and returns how many rows it updated or deleted (not
    /// counting join rows).
    /// - Throws: ``DBBError/Kind/readOnly`` on a read-only manager, before any SQL;
    ///   ``DBBError/Kind/invalidOption`` for an update of no property, of `id`, `createdTime`
    ///   or `modifiedTime`, of an array or a reference, or of one property twice, and for an
    ///   aggregate in a value or the condition;
    ///   ``DBBError/Kind/invalidValue`` for a value a save would refuse (NaN; on PostgreSQL,
    ///   text with NUL), naming the property, and on SQLite for an expression that gives a row
    ///   a number its property cannot hold (a division by zero, a sum past `Int64`), naming the
    ///   property and the row id (PostgreSQL's server error says so there);
    ///   ``DBBError/Kind/unknownProperty`` for a key path
    ///   the class does not map; what the database reports (a `NOT NULL` or `UNIQUE` column
    ///   violated): then no row has changed.
    @discardableResult
    public func run(_ manager: DBBManager) throws -> Int {
        let table = Root.databaseTableName
        let (operation, action) = isUpdate ? (DatabaseOperation.update, "an update") : (.delete, "a delete")
        try manager.refuseWriteIfReadOnly("\(action) of \(table) rows", table: table)
        let (mapping, statement, diagnosis) = try rendered(manager, at: Date())
        return try manager.observing(operation, table: mapping.tableName, sql: statement.sql) {
            try manager.write(mapping) { connection in
                try connection.atomically(.immediate) {
                    // One statement: on PostgreSQL sent alone (no BEGIN and COMMIT round trips),
                    // atomic by itself; in a save hook's transaction, a savepoint of it.
                    connection.commitsWithNextStatement()
                    do {
                        try connection.execute(statement.sql, statement.arguments)
                    } catch {
                        guard let diagnosis else { throw error }
                        // A guard failed, or something else did: the unguarded update names the
                        // row, and the transaction rolls back either way. What else fails in it
                        // (a UNIQUE column) is the first statement's error, reported as it was.
                        var misstored: DBBError?
                        try? connection.forEachRow(diagnosis.sql, statement.arguments) { row in
                            do throws(DBBError) {
                                try Self.refuseMisstored(row, diagnosis.checked, table: mapping.tableName)
                            } catch {
                                misstored = error
                                throw error
                            }
                        }
                        throw misstored ?? error
                    }
                    return connection.changes
                }
            }
        }
    }

    /// Throws when a row the update wrote holds, in a column it set to an expression, a value
    /// a save could not have stored (`row`: the unguarded update's `RETURNING`, see
    /// ``SQLRenderer``'s `diagnosis`).
    private static func refuseMisstored(_ row: DBBColumnReader, _ checked: [ColumnProperty], table: String)
        throws(DBBError)
    {
        for (index, column) in checked.enumerated() where row.type(at: index + 1) != .null {
            let stored = row.value(at: index + 1)
            let text = if case .text(let text) = stored { text } else { "\(stored)" }
            let rowID = row.int64(at: 0)
            throw DBBError(
                .invalidValue, table: table, property: column.name, rowID: rowID,
                "the update gives row id \(rowID) the value \(text), which \(column.valueTypeName) cannot hold "
                    + "(SQLite keeps what an expression gives: NULL for a division by zero, a REAL for an integer "
                    + "past Int64, any integer in a column of a narrower type): nothing was written; keep the "
                    + "expression within the property's type (a divisor that is never 0, a sum that fits)")
        }
    }

    /// Runs the write (see `run(_:)`) off the caller's thread, serialized with the manager's
    /// other writes, as ``DBBTableObject/save()-36bkr`` does.
    @discardableResult
    public func run(_ manager: DBBManager) async throws -> Int {
        let changed = Locked(0)
        let write = self
        try await manager.offThreadWrite {
            let count = try write.run(manager)
            changed.withLock { $0 = count }
        }
        return changed.withLock { $0 }
    }

    private var isUpdate: Bool {
        if case .update = action { return true }
        return false
    }

    /// The write's mapping and SQL on `manager`'s backend, an update setting `modifiedTime` to `now`.
    private func rendered(_ manager: DBBManager, at now: Date) throws -> (
        TableMapping, DBBQuerySQL, diagnosis: (sql: String, checked: [ColumnProperty])?
    ) {
        let mapping = try manager.mapping(for: Root.self)
        let node =
            switch action {
            case .update(let assignments):
                WriteNode(source: Root.self, action: .update(assignments, modifiedTime: now), filter: filter)
            case .delete: WriteNode(source: Root.self, action: .delete, filter: filter)
            }
        var renderer = SQLRenderer(dialect: mapping.dialect) { try manager.mapping(for: $0) }
        let sql = try renderer.statement(node)
        manager.access.knowRendered(sql, parameterCount: renderer.arguments.count, isQuery: false)
        return (
            mapping, DBBQuerySQL(sql: sql, arguments: renderer.arguments),
            renderer.diagnosis.map { ($0, renderer.checkedColumns) }
        )
    }
}

extension DBBTableObjectFetching {
    /// Sets `assignments` in every row that `condition` selects, in one `UPDATE` with
    /// `modifiedTime` set to now, and returns how many rows it changed (see ``DBBWrite``).
    ///
    /// ```swift
    /// let touched = try Visit.update(
    ///     .set(\.clicks, to: .column(\.clicks) + 1), .set(\.referrer, to: nil),
    ///     where: \.page == "/", manager: manager)
    /// ```
    ///
    /// There is no default condition: `where: .all` updates every row.
    /// - Throws: see `run(_:)`.
    @discardableResult
    public static func update(
        _ assignments: DBBAssignment<Self>..., where condition: DBBCondition<Self>, manager: DBBManager
    ) throws -> Int {
        try updating(assignments, where: condition).run(manager)
    }

    /// `update(_:where:manager:)`, off the caller's thread.
    @discardableResult
    public static func update(
        _ assignments: DBBAssignment<Self>..., where condition: DBBCondition<Self>, manager: DBBManager
    ) async throws -> Int {
        try await updating(assignments, where: condition).run(manager)
    }

    /// Deletes every row that `condition` selects, with their join rows and the join rows that
    /// refer to them, in one `DELETE`, and returns how many rows it deleted (see ``DBBWrite``).
    ///
    /// ```swift
    /// let gone = try Visit.delete(where: \.seconds < 1 && .isNull(\.referrer), manager: manager)
    /// ```
    ///
    /// There is no default condition: `where: .all` deletes every row.
    /// - Throws: see `run(_:)`.
    @discardableResult
    public static func delete(where condition: DBBCondition<Self>, manager: DBBManager) throws -> Int {
        try deleting(where: condition).run(manager)
    }

    /// `delete(where:manager:)`, off the caller's thread.
    @discardableResult
    public static func delete(where condition: DBBCondition<Self>, manager: DBBManager) async throws -> Int {
        try await deleting(where: condition).run(manager)
    }

    /// The `UPDATE` of `update(_:where:manager:)`, to show its SQL or run it later.
    public static func updating(_ assignments: DBBAssignment<Self>..., where condition: DBBCondition<Self>)
        -> DBBWrite<Self>
    {
        updating(assignments, where: condition)
    }

    /// The `DELETE` of `delete(where:manager:)`, to show its SQL or run it later.
    public static func deleting(where condition: DBBCondition<Self>) -> DBBWrite<Self> {
        DBBWrite(deleting: condition)
    }

    private static func updating(_ assignments: [DBBAssignment<Self>], where condition: DBBCondition<Self>)
        -> DBBWrite<Self>
    {
        DBBWrite(update: assignments, condition)
    }
}
