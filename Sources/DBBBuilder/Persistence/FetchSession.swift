import DBBSQLite
import Foundation

/// One fetch: the selected objects, their join properties with one query per property for the
/// whole set, and the objects they refer to, fetched in batches level by level. Within a
/// fetch, one row is one object: a person referred to twice is the same instance.
///
/// A plan of round trips (``RoundTripPlan``): which statement comes next depends on the rows of
/// the one before, and whoever runs the plan waits for them — a thread on SQLite and in the
/// synchronous forms, a suspended task in the `async` forms on PostgreSQL. It runs in one read
/// transaction, so rows, join rows and referenced objects come from one committed state. Every
/// object it makes gets its snapshot (``ObjectSnapshot``): the values its properties were
/// given, for change tracking.
///
/// On a server a bounded fetch reads its objects' join rows within its own statement
/// (``SelectQuery/foldsJoins``): then its first statement is all it needs unless a relation
/// refers to objects not fetched yet, and the backend may run that statement outside a
/// transaction (``RoundTripPlan/firstStatementMayBeAll``), restarting the plan in one if it
/// asks for more.
final class FetchSession: RoundTripPlan {
    private let dialect: any DBBDialect
    private let manager: DBBManager
    /// The query whose objects the fetch returns: its first statement.
    private let query: SelectQuery
    private let mapping: TableMapping
    /// The objects fetched so far, by class, in batches; indexed by id only for the classes a
    /// relation looks up (most fetches never need the index).
    private var fetched: [ObjectIdentifier: [[DBBTableObject]]] = [:]
    private var identity: [ObjectIdentifier: (byID: [Int64: DBBTableObject], batches: Int)] = [:]
    /// The round trips still to make, in order, and the one whose rows come next.
    private var steps: [Step]
    private var current: Step?
    /// Every batch of objects with joins: their join snapshots are completed last, once every
    /// reference is resolved.
    private var withJoins: [JoinedBatch] = []
    /// The objects the query selected, once its rows are in.
    private(set) var objects: [DBBTableObject] = []

    /// A round trip of the fetch.
    private enum Step {
        /// The objects of a query's rows: those the fetch returns, or those a relation's join
        /// rows refer to, which are then assigned.
        case objects(SelectQuery, TableMapping, then: Referring?)
        /// The join rows of one join property of a batch.
        case joinRows(JoinProperty, JoinedBatch)
        /// The values of one join property of a batch, read with its objects (one array per
        /// object): taken without a statement.
        case foldedJoin(JoinProperty, JoinedBatch, [[DBBValue]])
    }

    /// A relation's join rows, read, waiting for the objects they refer to.
    private struct Referring {
        let relation: RelationAccess
        let objects: [DBBTableObject]
        let targets: [[Int64]]
    }

    /// Rows per snapshot allocation.
    private static let snapshotChunkRows = 1024

    /// A fetch of the objects `query` selects, with the join properties it asks for and
    /// everything they refer to.
    init(_ query: SelectQuery, _ mapping: TableMapping, dialect: any DBBDialect, manager: DBBManager) {
        self.dialect = dialect
        self.manager = manager
        self.query = query
        self.mapping = mapping
        steps = [.objects(query, mapping, then: nil)]
    }

    /// Whether the fetch may end after its first statement: it reads no join rows, or reads
    /// them within that statement.
    var firstStatementMayBeAll: Bool { query.joins.isEmpty || query.foldsJoins }

    func restart() {
        fetched = [:]
        identity = [:]
        steps = [.objects(query, mapping, then: nil)]
        current = nil
        withJoins = []
        objects = []
    }

    func nextStatement() throws -> PlannedStatement? {
        while !steps.isEmpty {
            let step = steps.removeFirst()
            switch step {
            case .objects(let query, _, _):
                current = step
                return PlannedStatement(query.sql, query.arguments, arraysFrom: query.foldedJoinsFrom)
            case .joinRows(let join, let batch):
                current = step
                return Self.joinRowsQuery(join, of: batch, dialect: dialect)
            case .foldedJoin(let join, let batch, let elements):
                try loaded(join, of: batch, folded: elements)
            }
        }
        if current != nil {
            current = nil
            for batch in withJoins { batch.completeSnapshots() }
        }
        return nil
    }

    func consume(_ rows: any DatabaseRows) throws {
        switch current {
        case .objects(let query, let mapping, let referring):
            let (made, folded) = try makeObjects(from: rows, query, mapping)
            queueJoins(query, mapping, of: made, folded: folded)
            if let referring {
                assign(referring)
            } else {
                objects = made
            }
        case .joinRows(let join, let batch):
            try loaded(join, of: batch, rows)
        case .foldedJoin, nil:
            return
        }
    }

    /// Records the batch of objects `query` returned when their class has join properties,
    /// and queues the loading of those the query asks for (from `folded`, the values its rows
    /// held, when it read them: one list per join property, of one array per object).
    private func queueJoins(
        _ query: SelectQuery, _ mapping: TableMapping, of objects: [DBBTableObject], folded: [[[DBBValue]]]
    ) {
        guard !mapping.joins.isEmpty, !objects.isEmpty else { return }
        let batch = JoinedBatch(objects: objects, mapping: mapping)
        withJoins.append(batch)
        let loaded = Set(query.joins.map(\.name))
        let unloaded = mapping.joins.indices.reduce(UInt64(0)) { mask, index in
            index < 64 && !loaded.contains(mapping.joins[index].name) ? mask | 1 &<< UInt64(index) : mask
        }
        if unloaded != 0 { for object in objects { object.unloadedJoins = unloaded } }
        for (index, join) in query.joins.enumerated() {
            steps.append(query.foldsJoins ? .foldedJoin(join, batch, folded[index]) : .joinRows(join, batch))
        }
    }

    /// The objects of `query`'s rows, registered in the identity map, each with its snapshot,
    /// and the join values the rows held (see ``queueJoins(_:_:of:folded:)``).
    private func makeObjects(from statement: any DatabaseRows, _ query: SelectQuery, _ mapping: TableMapping) throws
        -> ([DBBTableObject], [[[DBBValue]]])
    {
        var objects: [DBBTableObject] = []
        let foldedFrom = query.foldedJoinsFrom
        var folded = [[[DBBValue]]](repeating: [], count: foldedFrom == nil ? 0 : query.joins.count)
        let readers = query.columns.map { ColumnReader(read: $0.access.read) }
        let objectType = mapping.objectType
        let row = statement.reader
        // A loop inside one closure call, not a closure per row: appending to a captured
        // array from a per-row closure costs a dynamic exclusivity check per row.
        let manager = manager
        let width = mapping.columns.count
        var chunks = SnapshotChunks(width: width, rows: Self.snapshotChunkRows)
        defer { chunks.seal() }
        if query.columns.count == width, mapping.generatedColumns {
            // Every column, read by the class's own code (`@DBBTable`).
            while try statement.step() {
                let object = objectType.init(dbManager: manager)
                TableMapping.readKeys(row, into: object)
                if let foldedFrom { try Self.readFolded(statement, from: foldedFrom, into: &folded) }
                let line = chunks.nextLine()
                var decoder = DBBRowDecoder(row, first: 3, into: line, width: width)
                do {
                    try object.readColumns(&decoder)
                } catch {
                    line.deinitialize(count: decoder.count)
                    throw Self.unreadable(error, query.columns[decoder.count].name, object, mapping)
                }
                guard decoder.count == width else {
                    line.deinitialize(count: decoder.count)
                    throw DBBError(
                        .invalidMapping, table: mapping.tableName,
                        "\(objectType).readColumns(_:) read \(decoder.count) of the \(width) columns it maps")
                }
                object.snapshot = chunks.lineFilled()
                objects.append(consume object)
            }
        } else if query.columns.count == width {
            // Every column: the snapshot row is what the readers return, in mapping order.
            let slots = query.columns.map(\.access.slot)
            try readers.withUnsafeBufferPointer { readers in
                try slots.withUnsafeBufferPointer { slots in
                    while try statement.step() {
                        let object = objectType.init(dbManager: manager)
                        TableMapping.readKeys(row, into: object)
                        if let foldedFrom { try Self.readFolded(statement, from: foldedFrom, into: &folded) }
                        let line = chunks.nextLine()
                        for index in readers.indices {
                            // The usual value of a common type straight into the storage; anything
                            // else through the property's reader, which keeps it or names the error.
                            if let slot = slots[index],
                                let value = withExtendedLifetime(object, { slot.read(row, index + 3, into: object) })
                            {
                                (line + index).initialize(to: value)
                                continue
                            }
                            do {
                                (line + index).initialize(to: try readers[index].read(row, index + 3, object))
                            } catch {
                                line.deinitialize(count: index)
                                throw Self.unreadable(error, query.columns[index].name, object, mapping)
                            }
                        }
                        mapping.setSnapshot(chunks.lineFilled(), of: object)
                        objects.append(consume object)
                    }
                }
            }
        } else {
            // Some columns: the others snapshot the value the new object holds, so a save
            // writes them only when the application sets them.
            let slots = query.columns.map { column in mapping.columns.firstIndex { $0.name == column.name }! }
            let unloaded = mapping.columns.indices.reduce(UInt64(0)) { mask, index in
                index < 64 && !slots.contains(index) ? mask | 1 &<< UInt64(index) : mask
            }
            let values = mapping.values
            var line = [DBBValue](repeating: .null, count: width)
            while try statement.step() {
                let object = objectType.init(dbManager: manager)
                TableMapping.readKeys(row, into: object)
                if let foldedFrom { try Self.readFolded(statement, from: foldedFrom, into: &folded) }
                values.forEachValue(of: object) { index, value in line[index] = value }
                for index in readers.indices {
                    do {
                        line[slots[index]] = try readers[index].read(row, index + 3, object)
                    } catch {
                        throw Self.unreadable(error, query.columns[index].name, object, mapping)
                    }
                }
                chunks.nextLine().initialize(from: line, count: width)
                mapping.setSnapshot(chunks.lineFilled(), of: object)
                // What the making of the object set is not the application's doing.
                (object.unloadedColumns, object.assignedMarks) = (unloaded, 0)
                objects.append(consume object)
            }
        }
        fetched[ObjectIdentifier(objectType), default: []].append(objects)
        return (objects, folded)
    }

    /// Appends the arrays of the current row's columns from `from` on to `folded`, one each.
    private static func readFolded(_ rows: any DatabaseRows, from: Int, into folded: inout [[[DBBValue]]]) throws {
        for index in folded.indices { folded[index].append(try rows.elements(at: from + index)) }
    }

    /// The failure to read `property` of the row of `object`, naming class, property and row id.
    private static func unreadable(
        _ error: any Error, _ property: String, _ object: DBBTableObject,
        _ mapping: TableMapping
    ) -> any Error {
        guard let error = error as? DBBError else { return error }
        return error.about(table: mapping.tableName, property: property, rowID: object.id)
            .reading(row: object.id, of: mapping.objectType)
    }

    /// Loads one join property of a batch's objects from its rows, which come ordered by
    /// owner: each owner's values are one run of them, matched to the objects by walking both
    /// in id order (no dictionary per row, no array growing per owner). A relation's objects
    /// not met yet are fetched next, and assigned then.
    private func loaded(_ join: JoinProperty, of batch: JoinedBatch, _ rows: any DatabaseRows) throws {
        // At least a value and a run per object: no growing through the small sizes.
        var values = ContiguousArray<DBBValue>()
        values.reserveCapacity(batch.objects.count)
        var runs: [(owner: Int64, end: Int)] = []
        runs.reserveCapacity(batch.objects.count)
        let row = rows.reader
        while try rows.step() {
            let owner = row.int64(at: 0)
            if let last = runs.last, last.owner == owner {
                runs[runs.count - 1].end += 1
            } else {
                runs.append((owner, values.count + 1))
            }
            values.append(row.value(at: 1))
        }
        // Each object's run of values; objects with no rows get none.
        var objectRuns = [Range<Int>](repeating: 0..<0, count: batch.objects.count)
        var next = runs.startIndex
        var start = 0
        for position in batch.positionsByID {
            let id = batch.objects[position].id
            while next < runs.endIndex, runs[next].owner < id {
                start = runs[next].end
                next += 1
            }
            if next < runs.endIndex, runs[next].owner == id { objectRuns[position] = start..<runs[next].end }
        }
        try distribute(join, of: batch, values, objectRuns)
    }

    /// Loads one join property of a batch's objects from the values their rows held: one
    /// array per object, in the batch's order.
    private func loaded(_ join: JoinProperty, of batch: JoinedBatch, folded: [[DBBValue]]) throws {
        var values = ContiguousArray<DBBValue>()
        var objectRuns: [Range<Int>] = []
        objectRuns.reserveCapacity(folded.count)
        for elements in folded {
            let start = values.count
            values.append(contentsOf: elements)
            objectRuns.append(start..<values.count)
        }
        try distribute(join, of: batch, values, objectRuns)
    }

    /// Gives each object of `batch` its run of `values` (`objectRuns`, by position): a value
    /// join's values at once; a relation's objects once fetched (those not met yet next).
    private func distribute(
        _ join: JoinProperty, of batch: JoinedBatch, _ values: ContiguousArray<DBBValue>, _ objectRuns: [Range<Int>]
    ) throws {
        guard let relation = join.access.relation else {
            var snapshots: [[DBBValue]] = []
            snapshots.reserveCapacity(batch.objects.count)
            for (object, run) in zip(batch.objects, objectRuns) {
                do {
                    snapshots.append(try join.access.assign(Array(values[run]), object))
                } catch let error as DBBError {
                    throw DBBError(
                        error.kind, table: manager.tableName(of: type(of: object)), property: join.name,
                        rowID: object.id, "\(error.message) (object \(object.id))")
                }
            }
            batch.loaded(join.name, snapshots)
            return
        }
        // Only the objects' own runs: rows of owners outside the batch (a range query) refer to nothing fetched.
        let referring = Referring(
            relation: relation, objects: batch.objects,
            targets: objectRuns.map { values[$0].compactMap(\.integerValue) })
        let key = ObjectIdentifier(relation.targetType)
        let missing: [Int64] = {
            let known = index(key)  // released before the index grows again
            return Array(Set(referring.targets.joined().filter { known[$0] == nil }))
        }()
        guard !missing.isEmpty else { return assign(referring) }
        let mapping = try manager.mapping(for: relation.targetType)
        steps.insert(.objects(SelectQuery(mapping, ids: missing), mapping, then: referring), at: 0)
    }

    /// Gives a relation's objects the objects their join rows refer to, all fetched by now.
    private func assign(_ referring: Referring) {
        let targets = index(ObjectIdentifier(referring.relation.targetType))
        for (object, ids) in zip(referring.objects, referring.targets) {
            referring.relation.assignObjects(ids.compactMap { targets[$0] }, object)
        }
    }

    /// The query for the join rows of a batch's objects. When their ids fill at least half of
    /// the range from the least to the greatest (a whole table, a run of ids), one range of the
    /// owner index: rows of owners outside the batch come along and match no object. Otherwise
    /// the list of ids, which the database sorts into an index of its own first.
    private static func joinRowsQuery(_ join: JoinProperty, of batch: JoinedBatch, dialect: any DBBDialect)
        -> PlannedStatement
    {
        let sql = JoinSQL(dialect: dialect)
        let order = batch.positionsByID
        if let first = order.first, let last = order.last {
            let (least, greatest) = (batch.objects[first].id, batch.objects[last].id)
            let (span, overflow) = greatest.subtractingReportingOverflow(least)
            if !overflow, span / 2 < Int64(batch.objects.count) {
                return PlannedStatement(sql.selectRowsInRange(join), [.integer(least), .integer(greatest)])
            }
        }
        return PlannedStatement(sql.selectRows(join), [SQLText.idList(batch.objects.lazy.map(\.id))])
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

/// A column's reader, held in an array: a closure stored in a struct keeps its own calling
/// convention, where an array of closures holds each behind a reabstraction thunk (a second
/// call, and a context retained and released, per value read).
private struct ColumnReader {
    let read: ColumnAccess.Reader
}
