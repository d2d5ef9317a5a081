extension DBBTableObject {
    /// Calls `body` with each object `options` selects, in the order they give, holding at
    /// most `batchSize` objects in memory at a time: for results too large to hold as an array.
    ///
    /// ```swift
    /// var total = 0.0
    /// try Project.forEachInstance(matching: .options(sortColumns: ["budget"]), manager: manager) { project in
    ///     total += project.budget
    /// }
    /// ```
    ///
    /// Each batch is fetched in a read transaction of its own — with the properties and join
    /// properties `options` asks for, and the objects they refer to — handed to `body` one by
    /// one, and released before the next batch is fetched. Between batches the database is
    /// free, so `body` may save and delete.
    ///
    /// - Without ``DBBQueryOptions/sorting``, the objects come in id order, a batch at a time
    ///   (`… AND id > <last id of the batch before> ORDER BY id LIMIT batchSize`): memory stays
    ///   at one batch whatever the number of rows. Each batch applies the conditions to the
    ///   database as it is then: an object deleted, or changed so that it no longer matches,
    ///   before its batch is read is not visited; one changed so that it matches is; one added
    ///   after the iteration started is not (only ids up to the highest one then are read; a
    ///   save always gives a new row a higher id, but SQL that inserts a row with an id below
    ///   that, into a gap, puts it in the iteration).
    /// - With a sorting, or ``DBBQueryOptions/distinct``, the ids of the selected objects are read first, in one query (8 bytes
    ///   a row); each batch is then fetched by id. An object deleted before its batch is read is
    ///   skipped, one changed is seen as changed, one added is not visited.
    ///
    /// Within a batch an object referred to twice is one instance; across batches, two
    /// instances. Throwing from `body` stops the iteration and rethrows.
    ///
    /// - Throws: ``DBBError`` of kind ``DBBError/Kind/invalidOption`` when `batchSize` is less
    ///   than 1; errors of ``instances(matching:manager:sparsePopulation:)-4pxff``.
    public static func forEachInstance(
        matching options: DBBQueryOptions = DBBQueryOptions(), manager: DBBManager, batchSize: Int = 1_000,
        sparsePopulation: Bool = false, _ body: (Self) throws -> Void
    ) throws {
        let mapping = try manager.mapping(for: self)
        guard batchSize >= 1 else {
            throw DBBError(.invalidOption, table: mapping.tableName, "batchSize is \(batchSize); it must be at least 1")
        }
        let query = try SelectQuery(mapping, options: options, sparse: sparsePopulation)
        guard query.isOrdered || options.distinct else {
            return try Self.forEachByID(query, mapping, manager: manager, batchSize: batchSize, body)
        }
        let idQuery = try SelectQuery(mapping, options: options, sparse: true)
        let ids = try manager.read(mapping) { connection in
            try connection.fetchAll(idQuery.sql, idQuery.arguments) { $0.int64(at: 0) }
        }
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            let batchIDs = Array(ids[start..<min(start + batchSize, ids.count)])
            let found: [Self] = try Self.fetch(
                SelectQuery(mapping, loading: query, ids: batchIDs), mapping, manager: manager)
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for object in batchIDs.compactMap({ byID[$0] }) { try body(object) }
        }
    }
}

extension DBBTableObjectFetching {
    /// ``forEachInstance(matching:manager:batchSize:sparsePopulation:_:)`` of a query with no
    /// order: keyset paging on the id, up to the highest id when the iteration starts.
    fileprivate static func forEachByID(
        _ query: SelectQuery, _ mapping: TableMapping, manager: DBBManager, batchSize: Int,
        _ body: (Self) throws -> Void
    ) throws {
        let highest = try manager.read(mapping) { connection in
            let check = SelectQuery(mapping, noRowsOf: query)
            _ = try connection.fetchAll(check.sql, check.arguments) { _ in () }
            return try connection.fetchAll(mapping.statements.highestID, []) { $0.optionalInt64(at: 0) }
        }
        guard let last = highest.first ?? nil else { return }
        var after: Int64?
        while true {
            let batch: [Self] = try fetch(
                SelectQuery(mapping, batchOf: query, after: after, through: last, limit: batchSize),
                mapping, manager: manager)
            for object in batch { try body(object) }
            guard batch.count == batchSize, let next = batch.last?.id, next < last else { return }
            after = next
        }
    }
}
