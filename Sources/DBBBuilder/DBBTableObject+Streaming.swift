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
    /// The ids of the selected objects are read first, in one query (8 bytes a row); then each
    /// batch of `batchSize` objects is fetched by id — with the properties and join properties
    /// `options` asks for, and the objects they refer to — handed to `body` one by one, and
    /// released before the next batch is fetched. Each batch reads the database as it is then,
    /// outside any transaction of the iteration's own, so `body` may save and delete: an object
    /// deleted after the ids were read is skipped, one changed is seen as changed, one added is
    /// not visited. Within a batch an object referred to twice is one instance; across batches,
    /// two instances. Throwing from `body` stops the iteration and rethrows.
    ///
    /// - Throws: ``DBBError`` of kind ``DBBError/Kind/invalidOption`` when `batchSize` is less
    ///   than 1; errors of ``instances(matching:manager:sparsePopulation:)``.
    public static func forEachInstance(
        matching options: DBBQueryOptions = DBBQueryOptions(), manager: DBBManager, batchSize: Int = 1_000,
        sparsePopulation: Bool = false, _ body: (Self) throws -> Void
    ) throws {
        let mapping = try manager.mapping(for: self)
        guard batchSize >= 1 else {
            throw DBBError(.invalidOption, table: mapping.tableName, "batchSize is \(batchSize); it must be at least 1")
        }
        let query = try SelectQuery(mapping, options: options, sparse: sparsePopulation)
        let idQuery = try SelectQuery(mapping, options: options, sparse: true)
        let ids = try manager.read(mapping) { connection in
            try connection.fetchAll(idQuery.sql, idQuery.arguments) { $0.int64(at: 0) }
        }
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            let batchIDs = Array(ids[start..<min(start + batchSize, ids.count)])
            let found: [Self] = try Self.fetch(SelectQuery(mapping, loading: query, ids: batchIDs), mapping, manager: manager)
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for object in batchIDs.compactMap({ byID[$0] }) { try body(object) }
        }
    }
}
