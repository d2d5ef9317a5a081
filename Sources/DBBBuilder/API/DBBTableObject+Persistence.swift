import DBBSQLite
import Foundation

// MARK: - Saving

extension DBBTableObject {
    /// Saves the object: INSERT when it has no id yet, UPDATE otherwise. Sets ``id``,
    /// ``createdTime`` and ``modifiedTime``, and calls the save hooks.
    ///
    /// - Throws: ``DBBError`` naming the table, the property (for a constraint) and SQLite's
    ///   message. Nothing is written then, and the object's id and times are as before.
    public func save() throws {
        let object: DBBTableObject = self
        try withUnsafePointer(to: object) {
            try Self.saveBatch(UnsafeBufferPointer(start: $0, count: 1), manager: dbManager)
        }
    }

    /// Saves the object only if its row's stored `modifiedTime` is still `expected`: an
    /// optimistic lock, tested in the UPDATE itself (`… WHERE id = ? AND modifiedTime = ?`), so
    /// that of two writers that read the same row only the first one's save lands, in one process
    /// or many, on SQLite and on PostgreSQL.
    ///
    /// ```swift
    /// let person = try Person.instance(id: 7, manager: manager)!
    /// let seen = person.modifiedTime!          // e.g. sent to a client as an ETag
    /// person.age += 1
    /// try person.save(ifModifiedTimeIs: seen)  // refused if anyone wrote row 7 since
    /// ```
    ///
    /// The row is written (and its `modifiedTime` moved on) even when nothing changed, so that
    /// the condition is always tested. Objects it refers to are saved as ``save()-82mr9`` saves
    /// them, without a condition. Two writes within the clock's resolution could leave the
    /// same `modifiedTime`: the condition compares times, not a counter.
    ///
    /// - Throws: ``DBBError/Kind/rowChanged`` when the row was written since, naming the table
    ///   and id (nothing is written); ``DBBError/Kind/rowNotFound`` when it is gone;
    ///   ``DBBError/Kind/invalidOption`` for a new object, which has no row to compare;
    ///   otherwise as ``save()-82mr9``.
    public func save(ifModifiedTimeIs expected: Date) throws {
        let mapping = try dbManager.mapping(for: type(of: self))
        guard !isNew else {
            throw DBBError(
                .invalidOption, table: mapping.tableName,
                "save(ifModifiedTimeIs:) was given a new object, which has no row to compare: use save()")
        }
        _ = try Self.batchClass([self], manager: dbManager, action: "saved")
        // Dirty, so that the row is written (and the condition tested) even when nothing
        // changed; a commit clears the mark, a failure puts back what it was.
        let wasForced = forcedDirty
        forcedDirty = true
        do {
            try dbManager.saving(mapping) { session in
                let outer = session.precondition
                session.precondition = (ObjectIdentifier(self), expected)
                defer { session.precondition = outer }
                try session.save([self], mapping)
            }
        } catch {
            forcedDirty = wasForced
            throw error
        }
    }

    /// Saves `objects`, all of this class, in one transaction with cached statements: all or
    /// nothing. The save hooks run for every object.
    ///
    /// - Throws: ``DBBError/Kind/nonHomogeneousBatch`` before writing anything when an object
    ///   is of another class; otherwise as ``save()-82mr9``.
    public static func save(_ objects: [DBBTableObject], manager: DBBManager) throws {
        try objects.withUnsafeBufferPointer { try saveBatch($0, manager: manager) }
    }

    /// Saves `objects`, all of this class, as ``save(_:manager:)-1uk8h`` does, reading them
    /// where the array holds them: passing a `[Person]` where a `[DBBTableObject]` is expected
    /// makes Swift copy the array, retaining every object and releasing it again afterwards.
    @inlinable
    public static func save<Object: DBBTableObject>(_ objects: [Object], manager: DBBManager) throws {
        // A reference to an `Object` is a reference to a `DBBTableObject`: the same memory,
        // read as the superclass.
        try objects.withUnsafeBufferPointer { typed in
            try typed.withMemoryRebound(to: DBBTableObject.self) { try saveBatch($0, manager: manager) }
        }
    }

    /// The class of every object of `objects`, `nil` when empty.
    /// - Throws: ``DBBError/Kind/nonHomogeneousBatch`` naming the first object of another
    ///   class, ``DBBError/Kind/foreignObject`` naming the first object of another manager.
    static func batchClass<Objects: RandomAccessCollection<DBBTableObject>>(
        _ objects: Objects, manager: DBBManager, action: String
    ) throws -> DBBTableObject.Type? where Objects.Index == Int {
        guard let first = objects.first else { return nil }
        let type = Swift.type(of: first)
        if let index = objects.firstIndex(where: { Swift.type(of: $0) != type }) {
            throw DBBError(
                .nonHomogeneousBatch, table: String(describing: type),
                "object \(index) of the batch is a \(Swift.type(of: objects[index])), not a \(type): nothing was \(action)"
            )
        }
        if let index = objects.firstIndex(where: { $0.dbManager !== manager }) {
            throw DBBError(
                .foreignObject, table: manager.tableName(of: type), rowID: objects[index].id,
                "object \(index) of the batch belongs to another manager (\(objects[index].dbManager.databaseLabel)) "
                    + "than the one given (\(manager.databaseLabel)): nothing was \(action); "
                    + "use DBBManager.copy(_:) to put objects into another database")
        }
        return type
    }

    /// Saves the objects of a batch (the array's or the rebound buffer of a typed array's).
    @usableFromInline
    static func saveBatch(_ objects: UnsafeBufferPointer<DBBTableObject>, manager: DBBManager) throws {
        guard let type = try batchClass(objects, manager: manager, action: "saved") else { return }
        let mapping = try manager.mapping(for: type)
        try manager.saving(mapping) { session in try session.save(objects, mapping) }
    }
}

extension DBBManager {
    /// Runs `body` with the save session of the writer connection: a new one in a new
    /// transaction, or, from a save hook, the session running the hook (in a savepoint).
    /// Restores the objects when the transaction rolls back; gives them their snapshots and
    /// runs their post-save hooks once it commits.
    func saving(_ mapping: TableMapping?, _ body: (SaveSession) throws -> Void) throws {
        try refuseWriteIfReadOnly(
            mapping.map { "a save of \($0.tableName) objects" } ?? "a save", table: mapping?.tableName)
        // Observed once, from the outside: a save from a save hook belongs to the outer one.
        guard let observer, activeSave.sessionOfCallingThread == nil else {
            var tally = StatementTally()
            return try saving(mapping, instruments: nil, tally: &tally, body)
        }
        try observer.run(.save, table: mapping?.tableName, sql: nil, queryText: false) { tally in
            try saving(mapping, instruments: observer.instruments, tally: &tally, body)
        }
    }

    /// ``saving(_:_:)``, the rows counted into `tally` and the transaction timed with
    /// `instruments` (when given).
    private func saving(
        _ mapping: TableMapping?, instruments: StatementInstruments?, tally: inout StatementTally,
        _ body: (SaveSession) throws -> Void
    ) throws {
        let saved = try write(mapping) { connection -> [DBBTableObject] in
            if let outer = activeSave.session {
                try outer.nested { try body(outer) }
                return []
            }
            let session = SaveSession(connection: connection, manager: self)
            activeSave.session = session
            defer { activeSave.session = nil }
            let began = instruments == nil ? 0 : StatementInstruments.now
            do {
                try connection.atomically(.immediate) {
                    try body(session)
                    try session.flush(last: true)
                }
            } catch {
                tally = session.tally
                instruments?.recordTransaction(committed: false, since: began)
                // The rows are gone with the transaction: so are the ids and times it gave.
                session.restore()
                throw error
            }
            tally = session.tally
            instruments?.recordTransaction(committed: true, since: began)
            session.committed()
            return session.hooked
        }
        for object in saved { object.performPostSaveActions() }
    }
}

// MARK: - Fetching

/// Gives the fetches of ``DBBTableObject`` results typed as the class they are called on
/// (`try Person.all(manager:)` is a `[Person]`). Every table object conforms.
public protocol DBBTableObjectFetching: DBBTableObject {}

extension DBBTableObject: DBBTableObjectFetching {}

extension DBBTableObjectFetching {
    /// The objects of this class that `options` select, in its order.
    ///
    /// ```swift
    /// var options = DBBQueryOptions.options(withConditions: ["age > ?"], sortColumns: ["lastName"])
    /// options.arguments = [30]
    /// let people = try Person.instances(matching: options, manager: manager)
    /// ```
    ///
    /// - Parameters:
    ///   - options: the conditions, arguments, properties, sorting and distinctness.
    ///   - manager: the manager whose database to read; the objects belong to it.
    ///   - sparsePopulation: load only `id`, `createdTime` and `modifiedTime`.
    /// - Throws: ``DBBError`` naming an unknown property of the options, or the failing SQL.
    public static func instances(
        matching options: DBBQueryOptions, manager: DBBManager, sparsePopulation: Bool = false
    ) throws -> [Self] {
        let mapping = try manager.mapping(for: self)
        return try fetch(SelectQuery(mapping, options: options, sparse: sparsePopulation), mapping, manager: manager)
    }

    /// Runs `query` in one read transaction: rows, join rows and referenced objects all come
    /// from the same committed state of the database.
    static func fetch(_ query: SelectQuery, _ mapping: TableMapping, manager: DBBManager) throws -> [Self] {
        let objects = try manager.observing(.fetch, table: mapping.tableName) {
            try manager.read(mapping) { connection in
                let session = FetchSession(query, mapping, dialect: connection.dialect, manager: manager)
                try connection.read(session)
                return session.objects
            }
        }
        return retyped(objects)
    }

    /// `objects`, which the mapping of Self made (so all of Self), as `[Self]`: one pass that
    /// casts the references (a check of each object's class), where `map` would go through the
    /// generic collection witnesses for each element (about 400 instructions an object, `Self`
    /// being known only at run time).
    static func retyped(_ objects: [DBBTableObject]) -> [Self] {
        [Self](unsafeUninitializedCapacity: objects.count) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            objects.withUnsafeBufferPointer { source in
                for index in source.indices { (base + index).initialize(to: source[index] as! Self) }
            }
            count = objects.count
        }
    }

    /// Every object of this class, in id order.
    public static func all(manager: DBBManager) throws -> [Self] {
        try instances(matching: .options(sortColumns: [SchemaSQL.idColumn]), manager: manager)
    }

    /// The object with id `id`, or `nil`.
    public static func instance(id: Int64, manager: DBBManager, sparsePopulation: Bool = false) throws -> Self? {
        try instances(matching: .options(id: id), manager: manager, sparsePopulation: sparsePopulation).first
    }

    /// The objects with the ids `ids`, in the order of `ids` (ids without an object are skipped).
    public static func instances(ids: [Int64], manager: DBBManager, sparsePopulation: Bool = false) throws -> [Self] {
        let mapping = try manager.mapping(for: self)
        let found = try fetch(SelectQuery(mapping, ids: ids, sparse: sparsePopulation), mapping, manager: manager)
        return ordered(found, as: ids)
    }

    /// `objects` in the order of `ids`, skipping ids without an object.
    static func ordered(_ objects: [Self], as ids: [Int64]) -> [Self] {
        let byID = Dictionary(objects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// The ids of every object of this class, ascending.
    public static func allIDs(manager: DBBManager) throws -> [Int64] {
        let mapping = try manager.mapping(for: self)
        return try manager.read(mapping) { connection in
            try connection.fetchAll(mapping.statements.allIDs) { $0.int64(at: 0) }
        }
    }
}

extension DBBQueryOptions {
    /// The options that select the object with id `id`.
    static func options(id: Int64) -> DBBQueryOptions {
        var options = DBBQueryOptions.options(withConditions: ["id = ?"])
        options.arguments = [.integer(id)]
        options.rowBound = 1
        return options
    }
}

// MARK: - Deleting

extension DBBTableObject {
    /// Deletes the object's row and join rows, in one transaction. The object keeps its ``id``
    /// and is marked ``isDeleted``: saving it again throws ``DBBError/Kind/rowNotFound``.
    public func delete() throws {
        try Self.delete([self], manager: dbManager)
    }

    /// Deletes `objects`, all of this class, in one transaction; they are marked ``isDeleted``
    /// (see ``delete()-2ymqc``).
    /// - Throws: ``DBBError/Kind/nonHomogeneousBatch`` before deleting anything when an object
    ///   is of another class; ``DBBError/Kind/foreignObject`` when one belongs to another manager.
    public static func delete(_ objects: [DBBTableObject], manager: DBBManager) throws {
        guard let type = try batchClass(objects, manager: manager, action: "deleted") else { return }
        // From a save hook: the rows the save holds get their ids first (see SaveSession.flush).
        try manager.activeSave.sessionOfCallingThread?.flush()
        let stored = objects.filter { !$0.isNew }
        try delete(ids: stored.map(\.id), of: type, manager: manager, marking: stored)
    }

    /// Deletes the object's row (as ``delete()-2ymqc``) only if its stored `modifiedTime` is
    /// still `expected`: the optimistic lock of ``save(ifModifiedTimeIs:)-jirm`` for deletes,
    /// tested in the DELETE itself (`… WHERE id = ? AND modifiedTime = ?`).
    ///
    /// - Throws: ``DBBError/Kind/rowChanged`` when the row was written since (nothing is
    ///   deleted); ``DBBError/Kind/rowNotFound`` when it is gone; ``DBBError/Kind/invalidOption``
    ///   for a new object.
    public func delete(ifModifiedTimeIs expected: Date) throws {
        let type = Swift.type(of: self)
        try dbManager.activeSave.sessionOfCallingThread?.flush()
        guard !isNew else {
            throw DBBError(
                .invalidOption, table: dbManager.tableName(of: type),
                "delete(ifModifiedTimeIs:) was given a new object, which has no row to delete")
        }
        _ = try Self.batchClass([self], manager: dbManager, action: "deleted")
        try Self.delete(ids: [id], of: type, manager: dbManager, marking: [self]) { mapping, connection in
            try Persistence.delete(id: self.id, ifModifiedTimeIs: expected, mapping, on: connection)
        }
    }

    /// Deletes the rows of `type` with `ids` (and, through the schema's triggers, their join
    /// rows and the join rows that refer to them) in one transaction, and marks `objects` as
    /// deleted — inside a save (from a hook), through the save, which takes the marks off if
    /// its transaction rolls back and the rows come back. `rows` does the deleting, by default
    /// every row of `ids`.
    static func delete(
        ids: [Int64], of type: DBBTableObject.Type, manager: DBBManager,
        marking objects: [DBBTableObject] = [],
        rows: ((TableMapping, any DatabaseConnection) throws -> Void)? = nil
    ) throws {
        let mapping = try manager.mapping(for: type)
        try manager.refuseWriteIfReadOnly("a delete of \(mapping.tableName) rows", table: mapping.tableName)
        try manager.observing(.delete, table: mapping.tableName) {
            try manager.write(mapping) { connection in
                try connection.atomically(.immediate) {
                    if let rows {
                        try rows(mapping, connection)
                    } else {
                        try Persistence.delete(ids: ids, mapping, on: connection)
                    }
                }
                if let session = manager.activeSave.session {
                    session.noteDeleted(objects)
                } else {
                    for object in objects { object.isDeleted = true }
                }
            }
        }
    }

    /// Deletes every object of this class, with their join rows, in one transaction.
    public static func deleteAll(manager: DBBManager) throws {
        let mapping = try manager.mapping(for: self)
        try manager.refuseWriteIfReadOnly("deleteAll of \(mapping.tableName)", table: mapping.tableName)
        try manager.observing(.delete, table: mapping.tableName) {
            try manager.write(mapping) { connection in
                try connection.atomically(.immediate) { try Persistence.deleteAll(mapping, on: connection) }
            }
        }
    }
}
