import DBBSQLite
import Foundation

/// The row work of saves, fetches and deletes, on one connection: cached statements, binding
/// and reading by column index, join rows loaded with one query per property.
enum Persistence {
    /// The ids as a JSON array, bound to `json_each(?)`.
    static func idList(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    // MARK: - Deleting

    /// Deletes the rows of `ids`, their join rows, and the join rows of other classes that
    /// refer to them, inside the caller's transaction.
    static func delete(ids: [Int64], _ mapping: TableMapping, manager: DBBManager, on connection: SQLiteConnection) throws {
        guard !ids.isEmpty else { return }
        let list: [SQLiteValue] = [.text(idList(ids))]
        for join in mapping.joins {
            try connection.execute(JoinSQL.deleteRowsOfOwners(join), list)
        }
        for reference in manager.registry.references(to: mapping.objectType) {
            try connection.execute(JoinSQL.deleteReferences(reference), list)
        }
        try connection.execute(mapping.statements.deleteByIDs, list)
    }

    /// Deletes every row of `mapping`'s table, its join rows, and other classes' join rows
    /// that refer to them.
    static func deleteAll(_ mapping: TableMapping, manager: DBBManager, on connection: SQLiteConnection) throws {
        for join in mapping.joins { try connection.execute(JoinSQL.deleteAllRows(join)) }
        for reference in manager.registry.references(to: mapping.objectType) {
            try connection.execute(JoinSQL.deleteReferencesToAll(reference, of: mapping))
        }
        try connection.execute(mapping.statements.deleteAll)
    }
}

/// One save: objects and the objects they refer to, in one transaction. Each object's row is
/// written before its relations are followed, so cycles (a spouse's spouse) end: an object
/// met again already has its id.
final class SaveSession {
    private let connection: SQLiteConnection
    private let manager: DBBManager
    private let now = Date()
    private var visited: Set<ObjectIdentifier> = []
    /// Every object written, with its id and times before: to restore them if the
    /// transaction rolls back, and to call post-save hooks once it commits.
    private(set) var written: [(object: DBBTableObject, id: Int64, created: Date?, modified: Date?)] = []

    init(connection: SQLiteConnection, manager: DBBManager) {
        self.connection = connection
        self.manager = manager
    }

    /// Writes `objects`, all of `mapping`'s class, and what they refer to.
    func save(_ objects: [DBBTableObject], _ mapping: TableMapping) throws {
        for object in objects { try save(object, mapping) }
    }

    /// Puts every written object back as it was before the session.
    func restore() {
        for entry in written.reversed() {
            (entry.object.id, entry.object.createdTime, entry.object.modifiedTime) = (entry.id, entry.created, entry.modified)
        }
    }

    private func save(_ object: DBBTableObject, _ mapping: TableMapping) throws {
        guard visited.insert(ObjectIdentifier(object)).inserted else { return }
        written.append((object, object.id, object.createdTime, object.modifiedTime))
        object.performPreSaveActions()
        try writeRow(object, mapping)
        for join in mapping.joins {
            if let relation = join.access.relation {
                try saveRelated(of: object, join, relation)
            }
        }
        try writeJoins(of: object, mapping)
    }

    /// Saves the objects `join` refers to: unsaved references, and every object of an array.
    private func saveRelated(of object: DBBTableObject, _ join: JoinProperty, _ relation: RelationAccess) throws {
        let related = relation.objects(object)
        guard !related.isEmpty else { return }
        let isArray = if case .dbbObjectArray = join.storageType { true } else { false }
        for target in related {
            guard type(of: target) == relation.targetType else {
                throw DBBError(.invalidOption, table: manager.tableName(of: type(of: object)), property: join.name,
                               "holds a \(type(of: target)), but references are stored by the declared class \(relation.targetType)")
            }
            if isArray || target.id == 0 {
                try save(target, try manager.mapping(for: relation.targetType))
            }
        }
    }

    /// INSERT when `id` is 0, else UPDATE (an UPDATE that finds no row inserts with that id).
    private func writeRow(_ object: DBBTableObject, _ mapping: TableMapping) throws {
        let statements = mapping.statements
        let created = object.createdTime ?? now
        if object.id == 0 {
            let insert = try connection.cachedStatement(statements.insert)
            try bindRow(object, created: created, mapping, insert, from: 1)
            try insert.execute()
            object.id = connection.lastInsertedRowID
        } else {
            let update = try connection.cachedStatement(statements.update)
            let next = try bindRow(object, created: created, mapping, update, from: 1)
            try update.bind(object.id, at: next)
            try update.execute()
            if connection.changes == 0 {
                let insert = try connection.cachedStatement(statements.insertWithID)
                try insert.bind(object.id, at: 1)
                try bindRow(object, created: created, mapping, insert, from: 2)
                try insert.execute()
            }
        }
        object.createdTime = created
        object.modifiedTime = now
    }

    /// Binds the times and the column properties from parameter `first`; returns the next index.
    @discardableResult
    private func bindRow(
        _ object: DBBTableObject, created: Date, _ mapping: TableMapping, _ statement: SQLiteStatement, from first: Int
    ) throws -> Int {
        try statement.bind(created.timeIntervalSinceReferenceDate, at: first)
        try statement.bind(now.timeIntervalSinceReferenceDate, at: first + 1)
        var index = first + 2
        for column in mapping.columns {
            try column.access.bind(object, statement, index)
            index += 1
        }
        return index
    }

    /// Replaces the join rows of `object`.
    private func writeJoins(of object: DBBTableObject, _ mapping: TableMapping) throws {
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
}

/// One fetch: the selected objects, their join properties with one query per property for the
/// whole set, and the objects they refer to, fetched in batches level by level. Within a
/// fetch, one row is one object: a person referred to twice is the same instance.
final class FetchSession {
    private let connection: SQLiteConnection
    private let manager: DBBManager
    /// The objects fetched so far, by class, in batches; indexed by id only for the classes a
    /// relation looks up (most fetches never need the index).
    private var fetched: [ObjectIdentifier: [[DBBTableObject]]] = [:]
    private var identity: [ObjectIdentifier: (byID: [Int64: DBBTableObject], batches: Int)] = [:]
    /// Objects whose join properties are still to load.
    private var pending: [(objects: [DBBTableObject], joins: [JoinProperty])] = []

    init(connection: SQLiteConnection, manager: DBBManager) {
        self.connection = connection
        self.manager = manager
    }

    /// The objects `query` selects, with the join properties it asks for and everything they refer to.
    func fetch(_ query: SelectQuery, _ mapping: TableMapping) throws -> [DBBTableObject] {
        let objects = try rows(query, mapping)
        pending.append((objects, query.joins))
        while !pending.isEmpty {
            let (objects, joins) = pending.removeFirst()
            for join in joins { try load(join, of: objects) }
        }
        return objects
    }

    /// The objects of `query`'s rows, registered in the identity map.
    private func rows(_ query: SelectQuery, _ mapping: TableMapping) throws -> [DBBTableObject] {
        let statement = try connection.cachedStatement(query.sql)
        try statement.bind(query.arguments)
        defer { statement.reset() }
        var objects: [DBBTableObject] = []
        let readers = query.columns.map(\.access.read)
        let objectType = mapping.objectType
        let row = statement.row
        // A loop inside one closure call, not a closure per row: appending to a captured
        // array from a per-row closure costs a dynamic exclusivity check per row.
        let manager = manager
        let readKeys = mapping.readKeys
        try readers.withUnsafeBufferPointer { readers in
            while try statement.step() {
                let object = objectType.init(dbManager: manager)
                readKeys(row, object)
                for index in readers.indices {
                    readers[index](row, index + 3, object)
                }
                objects.append(object)
            }
        }
        fetched[ObjectIdentifier(objectType), default: []].append(objects)
        return objects
    }

    /// Loads one join property of `objects` with one query.
    private func load(_ join: JoinProperty, of objects: [DBBTableObject]) throws {
        guard !objects.isEmpty else { return }
        var rows: [Int64: [SQLiteValue]] = [:]
        try connection.forEachRow(JoinSQL.selectRows(join), [.text(Persistence.idList(objects.map(\.id)))]) { row in
            rows[row.int64(at: 0), default: []].append(row.value(at: 1))
        }
        guard let relation = join.access.relation else {
            for object in objects { join.access.assign(rows[object.id] ?? [], object) }
            return
        }
        let targets = try referenced(relation.targetType, ids: rows.values.flatMap { $0.compactMap(\.integerValue) })
        for object in objects {
            let related = (rows[object.id] ?? []).compactMap { $0.integerValue.flatMap { targets[$0] } }
            relation.assignObjects(related, object)
        }
    }

    /// The objects of `type` with `ids`: those already met, and the others fetched in one query
    /// (their own join properties queued for loading).
    private func referenced(_ type: DBBTableObject.Type, ids: [Int64]) throws -> [Int64: DBBTableObject] {
        let key = ObjectIdentifier(type)
        let missing: [Int64] = {
            let known = index(key)  // released before the index grows again below
            return Array(Set(ids.filter { known[$0] == nil }))
        }()
        if !missing.isEmpty {
            let mapping = try manager.mapping(for: type)
            var options = DBBQueryOptions.options(withConditions: ["id IN (SELECT value FROM json_each(?))"])
            options.arguments = [.text(Persistence.idList(missing))]
            let query = try SelectQuery(mapping, options: options, sparse: false)
            let objects = try rows(query, mapping)
            pending.append((objects, query.joins))
        }
        return index(key)
    }

    /// The objects of a class fetched so far, by id (the first object of an id wins).
    private func index(_ key: ObjectIdentifier) -> [Int64: DBBTableObject] {
        let batches = fetched[key] ?? []
        var entry = identity.removeValue(forKey: key) ?? ([:], 0)
        for batch in batches[entry.batches...] {
            for object in batch where entry.byID[object.id] == nil { entry.byID[object.id] = object }
        }
        entry.batches = batches.count
        identity[key] = entry
        return entry.byID
    }
}

extension SQLiteValue {
    /// The integer of an `.integer` value.
    var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }
}
