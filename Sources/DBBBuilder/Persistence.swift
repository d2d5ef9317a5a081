import DBBSQLite
import Foundation

/// The row work of saves, fetches and deletes, on one connection: cached statements, binding
/// and reading by column index, join rows loaded with one query per property.
enum Persistence {
    // MARK: - Saving

    /// Writes `objects` (all of `mapping`'s class) inside the caller's transaction: INSERT
    /// when `id` is 0, else UPDATE (an UPDATE that finds no row inserts with that id).
    static func save(_ objects: [DBBTableObject], _ mapping: TableMapping, on connection: SQLiteConnection) throws {
        let now = Date()
        let statements = mapping.statements
        for object in objects {
            object.performPreSaveActions()
            let created = object.createdTime ?? now
            if object.id == 0 {
                let insert = try connection.cachedStatement(statements.insert)
                try bindRow(object, created: created, modified: now, mapping, insert, from: 1)
                try insert.execute()
                object.id = connection.lastInsertedRowID
            } else {
                let update = try connection.cachedStatement(statements.update)
                let next = try bindRow(object, created: created, modified: now, mapping, update, from: 1)
                try update.bind(object.id, at: next)
                try update.execute()
                if connection.changes == 0 {
                    let insert = try connection.cachedStatement(statements.insertWithID)
                    try insert.bind(object.id, at: 1)
                    try bindRow(object, created: created, modified: now, mapping, insert, from: 2)
                    try insert.execute()
                }
            }
            object.createdTime = created
            object.modifiedTime = now
            try saveJoins(of: object, mapping, on: connection)
        }
    }

    /// Binds the times and the column properties from parameter `first`; returns the next index.
    @discardableResult
    private static func bindRow(
        _ object: DBBTableObject, created: Date, modified: Date, _ mapping: TableMapping,
        _ statement: SQLiteStatement, from first: Int
    ) throws -> Int {
        try statement.bind(created.timeIntervalSinceReferenceDate, at: first)
        try statement.bind(modified.timeIntervalSinceReferenceDate, at: first + 1)
        var index = first + 2
        for column in mapping.columns {
            try column.access.bind(object, statement, index)
            index += 1
        }
        return index
    }

    /// Replaces the join rows of `object`.
    private static func saveJoins(of object: DBBTableObject, _ mapping: TableMapping, on connection: SQLiteConnection) throws {
        for join in mapping.joins {
            let delete = try connection.cachedStatement(JoinSQL.deleteRows(join))
            try delete.bind(object.id, at: 1)
            try delete.execute()
            let values = join.access.values(object)
            guard !values.isEmpty else { continue }
            let insert = try connection.cachedStatement(JoinSQL.insertRow(join))
            try insert.bind(object.id, at: 1)
            for value in values {
                try insert.bind(value, at: 2)
                try insert.execute()
            }
        }
    }

    // MARK: - Fetching

    /// The objects `query` selects, their join properties loaded.
    static func fetch(
        _ query: SelectQuery, _ mapping: TableMapping, manager: DBBManager, on connection: SQLiteConnection
    ) throws -> [DBBTableObject] {
        let statement = try connection.cachedStatement(query.sql)
        try statement.bind(query.arguments)
        var objects: [DBBTableObject] = []
        let readers = query.columns.map(\.access.read)
        let objectType = mapping.objectType
        try readers.withUnsafeBufferPointer { readers in
            try statement.forEachRow { row in
                let object = objectType.init(dbManager: manager)
                object.id = row.int64(at: 0)
                object.createdTime = Date.read(from: row, at: 1)
                object.modifiedTime = Date.read(from: row, at: 2)
                for index in readers.indices {
                    readers[index](row, index + 3, object)
                }
                objects.append(object)
            }
        }
        try loadJoins(query.joins, of: objects, on: connection)
        return objects
    }

    /// Fills `joins` of every object with one query per join property.
    static func loadJoins(_ joins: [JoinProperty], of objects: [DBBTableObject], on connection: SQLiteConnection) throws {
        guard !joins.isEmpty, !objects.isEmpty else { return }
        let ids = idList(objects.map(\.id))
        for join in joins {
            var rows: [Int64: [SQLiteValue]] = [:]
            try connection.forEachRow(JoinSQL.selectRows(join), [.text(ids)]) { row in
                rows[row.int64(at: 0), default: []].append(row.value(at: 1))
            }
            for object in objects {
                join.access.assign(rows[object.id] ?? [], object)
            }
        }
    }

    /// The ids as a JSON array, bound to `json_each(?)`.
    static func idList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    // MARK: - Deleting

    /// Deletes the rows (and join rows) of `ids`, inside the caller's transaction.
    static func delete(ids: [Int64], _ mapping: TableMapping, on connection: SQLiteConnection) throws {
        guard !ids.isEmpty else { return }
        let list = idList(ids)
        for join in mapping.joins {
            try connection.execute(JoinSQL.deleteRowsOfOwners(join), [.text(list)])
        }
        try connection.execute(mapping.statements.deleteByIDs, [.text(list)])
    }

    /// Deletes every row (and join row) of `mapping`'s table.
    static func deleteAll(_ mapping: TableMapping, on connection: SQLiteConnection) throws {
        for join in mapping.joins { try connection.execute(JoinSQL.deleteAllRows(join)) }
        try connection.execute(mapping.statements.deleteAll)
    }
}
