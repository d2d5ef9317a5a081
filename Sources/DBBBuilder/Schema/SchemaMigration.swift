import DBBFormat
import DBBSQLite

/// Creates and migrates the tables of table-object classes. Migrations add: a missing table,
/// column, join table, index or trigger is created; nothing is dropped or converted.
///
/// Every class is checked before anything changes; a change that would alter or lose stored
/// data is refused with ``DBBError/Kind/migrationRefused`` naming class, property and reason:
/// - a column (or join-table column) whose declared type no longer holds the property's type
///   (an `Integer` column for a `String` property: its text would read back as 0);
/// - a property whose new number type would not give back a stored value (300 for an `Int8`,
///   2^53 + 1 for a `Double`): see ``TypeMigration``, which applies the changes that every
///   stored value survives, changing the column's declared type when the values need it;
/// - a `NOT NULL UNIQUE` property added to a table that has rows (every row would get the
///   same default, which the unique index refuses);
/// - a `NOT NULL` or `UNIQUE` attribute added to an existing property whose rows do not allow
///   it (see ``ConstraintMigration``, which also lifts the constraints a property no longer
///   declares).
///
/// A table DBBBuilder did not create (made by raw SQL or another program) is adopted: it gets
/// the `createdTime`/`modifiedTime` columns it lacks, in the same transaction. It must have an
/// `id INTEGER PRIMARY KEY` (the row id, which every save and fetch uses); one without is
/// refused with ``DBBError/Kind/migrationRefused`` naming table and column, untouched.
///
/// A property removed from a class keeps its column and data; when that column is
/// `NOT NULL` without a default, the table is rebuilt without that constraint (see
/// ``TableRebuild``) so inserts that no longer name the column still work.
///
/// What each property is, is recorded in the package's catalog (``SchemaCatalog``), in the same
/// transaction and only where it differs.
///
/// On a read-only connection (``DatabaseAccess/isReadOnly``) nothing is changed: the tables
/// and columns the classes map must exist, and a class whose table needs more is refused.
struct SchemaMigration {
    let connection: any DatabaseConnection
    /// Whether to check only: a class whose tables need a change is refused.
    var readOnly = false
    /// Whether existing tables may be changed after the transaction (see ``online``): not
    /// inside a save's transaction.
    var mayChangeLater = true
    private var schema: SchemaSQL { SchemaSQL(dialect: connection.dialect) }

    /// What one class needs.
    private struct Plan {
        let mapping: TableMapping
        let exists: Bool
        /// `createdTime`/`modifiedTime`, when an adopted table lacks them.
        var addedTimeColumns: [String] = []
        let addedColumns: [ColumnProperty]
        var constraints = ConstraintMigration.Changes()
        /// Join tables that do not exist yet.
        var missingJoinTables: [String] = []
        /// Columns whose declared type changes with their property's type.
        var retypes: [TypeMigration.Retype] = []
        /// What the catalog held of the table.
        var recorded: [SchemaCatalog.Entry] = []
        /// Former columns given back to their properties (``DBBTableObject/formerColumnNames``).
        var renames: [(from: String, to: String)] = []
        /// For a new column, the column a property of the same type no longer maps: maybe its
        /// former name, said in the log.
        var mayHaveBeen: [String: String] = [:]
    }

    /// Whether existing tables are changed without holding their writers off (see
    /// ``DBBDialect/changesSchemaOnline``): what would is left to ``Outcome/later``.
    private var online: Bool { !readOnly && mayChangeLater && connection.dialect.changesSchemaOnline }

    /// What a registration's transaction changed, and what it leaves for after its commit.
    struct Outcome {
        /// What changed, one line each (`created table "Person"`), for the log.
        var changes: [String] = []
        /// The changes to existing tables made after the commit, one at a time (online only).
        var later: [OnlineSchemaStep] = []
    }

    /// Brings the tables of `mappings` up to date; the caller runs it in a transaction, and
    /// then the outcome's ``Outcome/later`` steps.
    func apply(_ mappings: [TableMapping], targets: (DBBTableObject.Type) throws -> TableMapping) throws -> Outcome {
        if !readOnly, let lock = connection.dialect.schemaLock { try connection.bookkeeping(lock) }
        var catalog = try SchemaCatalog(connection: connection)
        let plans = try mappings.map { try plan($0, catalog) }
        if readOnly {
            try refuseChanges(plans)
            return Outcome()
        }
        var changes: [String] = []
        var later: [OnlineSchemaStep] = []
        let constraints = ConstraintMigration(connection: connection, online: online)
        for plan in plans {
            let table = plan.mapping.tableName
            changes += try TypeMigration(connection: connection).apply(plan.retypes)
            if !plan.exists {
                try connection.change(.createTable, on: table, schema.createTable(plan.mapping))
                changes.append("created table \"\(table)\"")
                continue
            }
            for rename in plan.renames {
                try connection.change(
                    .renameColumn, on: table, schema.renameColumn(rename.from, to: rename.to, of: table))
                changes.append("renamed column \"\(rename.from)\" of \"\(table)\" to \"\(rename.to)\"")
            }
            for column in plan.addedTimeColumns {
                try connection.change(.addColumn, on: table, schema.addTimeColumn(column, to: table))
                changes.append("added column \"\(column)\" to the adopted table \"\(table)\"")
            }
            changes += try constraints.apply(plan.constraints, to: plan.mapping, later: &later)
            for column in plan.addedColumns {
                try connection.change(.addColumn, on: table, schema.addColumn(column, to: plan.mapping))
                if column.isUnique {
                    if online {
                        later.append(.uniqueIndex(plan.mapping, column))
                    } else {
                        try constraints.addUniqueIndex(column.column, to: table)
                    }
                }
                let maybe = plan.mayHaveBeen[column.column].map { former in
                    " — its rows read the default; if it is \"\(former)\" renamed (whose values stay there), "
                        + "say so in formerColumnNames ([\"\(column.name)\": \"\(former)\"]) before a new version writes it"
                }
                changes.append("added column \"\(column.column)\" to \"\(table)\"\(maybe ?? "")")
            }
        }
        for plan in plans {
            let mapping = plan.mapping
            for join in mapping.joins {
                let target = try join.access.relation.map { try targets($0.targetType) }
                let isNew = plan.missingJoinTables.contains(join.joinTable)
                if isNew {
                    try connection.change(
                        .createJoinTable, on: join.joinTable,
                        schema.createJoinTable(join, owner: mapping, target: target))
                }
                try createIndex(
                    join.indexName, on: join.joinTable, newTable: isNew, later: &later
                ) { schema.createJoinIndex(join, concurrently: $0) }
                if connection.dialect.deletesJoinRowsWithTriggers {
                    try addTrigger(
                        schema.ownerTriggerName(join), on: join.joinTable,
                        schema.ownerDeleteTrigger(join, owner: mapping),
                        purge: schema.deleteOrphanRows(join, owner: mapping), changes: &changes)
                }
                if let target {
                    try createIndex(
                        DBBFormat.joinTargetIndex(join.joinTable), on: join.joinTable, newTable: isNew, later: &later
                    ) { schema.createJoinTargetIndex(join, concurrently: $0) }
                    if connection.dialect.deletesJoinRowsWithTriggers {
                        try addTrigger(
                            schema.targetTriggerName(join), on: join.joinTable,
                            schema.targetDeleteTrigger(join, target: target),
                            purge: schema.deleteDanglingReferences(join, target: target), changes: &changes)
                    }
                }
            }
            for indexer in mapping.indexers {
                try createIndex(
                    schema.indexName(indexer, mapping), on: mapping.tableName, newTable: !plan.exists, later: &later
                ) { schema.createIndex(indexer, mapping, concurrently: $0) }
            }
        }
        for plan in plans {
            try catalog.record(
                plan.mapping, previous: plan.recorded, renamed: Set(plan.renames.map { $0.from.lowercased() }),
                targets: targets)
        }
        return Outcome(changes: changes, later: later)
    }

    /// Creates the index `name` of `table` with `create(concurrently)` when it is missing (or
    /// left invalid by a build that failed): in the transaction on a table it created, else
    /// (online) concurrently after the commit.
    private func createIndex(
        _ name: String, on table: String, newTable: Bool, later: inout [OnlineSchemaStep],
        _ create: (Bool) -> String
    ) throws {
        guard try newTable || !connection.hasUsableIndex(name) else { return }
        if online && !newTable {
            later.append(.index(name, table: table, create(true)))
        } else {
            try connection.change(.createIndex(newTable: newTable), on: table, create(false))
        }
    }

    /// Creates a trigger that keeps join rows in step with their rows; the first time, first
    /// deletes the rows it would have deleted (left by versions or programs without it).
    private func addTrigger(
        _ name: String, on table: String, _ sql: String, purge: String, changes: inout [String]
    ) throws {
        guard try connection.fetchValue(schema.triggerExists, [.text(name)], as: Int.self) == 0 else { return }
        try connection.change(.deleteOrphans, on: table, purge)
        try connection.change(.createTrigger, on: table, sql)
        changes.append("created trigger \"\(name)\"")
    }

    // MARK: - Checks

    struct ExistingColumn {
        let name: String
        let type: String
        let notNull: Bool
        let hasDefault: Bool
        let hidden: Bool
        /// The column's position in the primary key, 0 when not in it.
        let primaryKey: Int
        /// The role that may not read the column (PostgreSQL), `nil` when the connection may.
        let deniedTo: String?
    }

    private func columns(of table: String) throws -> [String: ExistingColumn] {
        let rows = try connection.fetchAll(connection.dialect.tableColumns, [.text(table)]) { row in
            ExistingColumn(
                name: row.string(at: 0) ?? "", type: row.string(at: 1) ?? "", notNull: row.int64(at: 2) != 0,
                hasDefault: !row.isNull(at: 3), hidden: row.int64(at: 4) != 0,
                primaryKey: Int(row.int64(at: 5)), deniedTo: row.count > 6 ? row.string(at: 6) : nil)
        }
        return Dictionary(rows.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func plan(_ mapping: TableMapping, _ catalog: SchemaCatalog) throws -> Plan {
        try checkNameLengths(mapping)
        try checkSchemaObjects(of: mapping)
        let existing = try columns(of: mapping.tableName)
        let recordedInAnyCase = try catalog.recorded(mapping.tableName, ignoringCase: true)
        let recorded = recordedInAnyCase.filter { $0.table == mapping.tableName }
        var missingJoinTables: [String] = []
        try checkReadable(existing, of: mapping, table: mapping.tableName)
        var retypes: [TypeMigration.Retype] = []
        for join in mapping.joins {
            let joinColumns = try columns(of: join.joinTable)
            try checkReadable(joinColumns, of: mapping, table: join.joinTable)
            if joinColumns.isEmpty { missingJoinTables.append(join.joinTable) }
            try checkJoinTable(joinColumns, of: join, in: mapping, catalog)
            if let column = joinColumns[join.column.lowercased()] {
                retypes += try judge(
                    column, in: join.joinTable, owner: join.parentColumn, of: mapping, property: join.name,
                    swiftType: join.valueTypeName, storage: join.storageType,
                    previous: SchemaCatalog.swiftType(in: recorded, column: join.column, joinTable: join.joinTable))
            }
        }
        guard !existing.isEmpty else {
            return Plan(
                mapping: mapping, exists: false, addedColumns: [], missingJoinTables: missingJoinTables,
                retypes: retypes, recorded: recorded)
        }
        try checkNotJoinTable(existing, of: mapping, catalog)
        try checkNotTakenOver(
            connection.dialect.namesIgnoreCase ? recordedInAnyCase : recorded, by: mapping)
        try checkRowID(existing, of: mapping)
        var addedTimes: [String] = []
        for time in [SchemaSQL.createdTimeColumn, SchemaSQL.modifiedTimeColumn] {
            if let stored = existing[time.lowercased()] {
                try check(
                    stored, holds: .date, of: mapping, property: time, swiftType: "Date?",
                    advice: "DBBBuilder keeps its times there; copy the rows into a table whose "
                        + "\(time) is REAL, or map the class to another table (databaseTableName)")
            } else {
                addedTimes.append(time)
            }
        }
        var added: [ColumnProperty] = []
        let renames = try formerColumns(of: mapping, existing)
        for column in mapping.columns {
            if let stored = existing[(renames[column.name] ?? column.column).lowercased()] {
                retypes += try judge(
                    stored, in: mapping.tableName, owner: SchemaSQL.idColumn, of: mapping, property: column.name,
                    swiftType: column.valueTypeName, storage: column.storageType,
                    previous: SchemaCatalog.swiftType(in: recorded, column: stored.name, joinTable: nil))
            } else {
                added.append(column)
            }
        }
        if let unique = added.first(where: { $0.isNotNull && $0.isUnique }) {
            let rows = try connection.fetchValue(schema.count(mapping.tableName), as: Int.self) ?? 0
            if rows > 0 {
                throw DBBError(
                    .migrationRefused, table: mapping.tableName, property: unique.name,
                    "\(String(reflecting: mapping.objectType)).\(unique.name) is a new NOT NULL UNIQUE property, but the "
                        + "table has \(rows) row(s): each would get the same default value, which UNIQUE refuses. "
                        + "Add it without NOT NULL (or UNIQUE), fill it, then tighten it in a new table")
            }
        }
        let mapped = Self.mappedColumns(mapping).union(renames.values.map { $0.lowercased() })
        let released = existing.values
            .filter { !mapped.contains($0.name.lowercased()) && $0.notNull && !$0.hasDefault && !$0.hidden }
            .map(\.name).sorted()
        // A read-only manager leaves constraints to the managers that write: nothing to check.
        let constraints =
            readOnly
            ? ConstraintMigration.Changes()
            : try ConstraintMigration(connection: connection, online: online).plan(
                mapping, notNull: existing.mapValues(\.notNull), released: released)
        return Plan(
            mapping: mapping, exists: true, addedTimeColumns: addedTimes, addedColumns: added,
            constraints: constraints, missingJoinTables: missingJoinTables, retypes: retypes, recorded: recorded,
            renames: mapping.columns.compactMap { column in
                renames[column.name].flatMap { existing[$0.lowercased()]?.name }.map { ($0, column.column) }
            },
            mayHaveBeen: Self.formerCandidates(for: added, of: mapping, recorded, existing))
    }

    /// For each new column, the one column that a property of the same Swift type mapped until
    /// now (the catalog says so) and no property maps any more, when there is exactly one.
    private static func formerCandidates(
        for added: [ColumnProperty], of mapping: TableMapping, _ recorded: [SchemaCatalog.Entry],
        _ existing: [String: ExistingColumn]
    ) -> [String: String] {
        let mapped = mappedColumns(mapping)
        let unmapped = recorded.filter {
            $0.mapped && $0.joinTable == nil && !mapped.contains($0.column.lowercased())
                && existing[$0.column.lowercased()] != nil
        }
        var candidates: [String: String] = [:]
        for column in added {
            let sameType = unmapped.filter { $0.swiftType == column.valueTypeName }
            if sameType.count == 1 { candidates[column.column] = sameType[0].column }
        }
        return candidates
    }

    /// The former columns to give back to `mapping`'s properties, by property name: those of
    /// ``DBBTableObject/formerColumnNames`` whose property's column is missing and whose former
    /// column is there.
    /// - Throws: ``DBBError/Kind/invalidMapping`` for a key that names no mapped property;
    ///   ``DBBError/Kind/migrationRefused`` for a former column another property maps.
    private func formerColumns(of mapping: TableMapping, _ existing: [String: ExistingColumn]) throws -> [String:
        String]
    {
        let type = String(reflecting: mapping.objectType)
        var renames: [String: String] = [:]
        for (property, former) in mapping.objectType.formerColumnNames.sorted(by: { $0.key < $1.key }) {
            guard let column = mapping.columns.first(where: { $0.name == property }) else {
                throw DBBError(
                    .invalidMapping, table: mapping.tableName, property: property,
                    "\(type).formerColumnNames names '\(property)', which is not a mapped property of the class "
                        + "(an array's join table cannot be renamed this way): use the property's name")
            }
            guard existing[column.column.lowercased()] == nil, existing[former.lowercased()] != nil else { continue }
            if let other = mapping.columns.first(where: { $0.column.lowercased() == former.lowercased() }) {
                throw DBBError(
                    .migrationRefused, table: mapping.tableName, property: property,
                    "\(type).\(property) was stored in column '\(former)' (formerColumnNames), but the property "
                        + "\(other.name) maps that column now. Nothing was changed: map \(other.name) to another column, "
                        + "or drop the entry")
            }
            renames[property] = former
        }
        return renames
    }

    /// Refuses, on a read-only connection, the first class whose table, columns or join
    /// tables do not exist (its fetches would fail). Constraints, indexes and triggers are the
    /// business of a manager that writes, and are not checked.
    private func refuseChanges(_ plans: [Plan]) throws {
        for plan in plans {
            let missing =
                !plan.exists
                ? ["its table"]
                : (plan.addedTimeColumns + plan.addedColumns.map(\.column)).map { "column '\($0)'" }
                    + plan.renames.map { "column '\($0.to)' (renamed from '\($0.from)')" }
                    + plan.missingJoinTables.map { "join table '\($0)'" }
            if missing.isEmpty, let retype = plan.retypes.first {
                throw DBBError(
                    .migrationRefused, table: plan.mapping.tableName, property: retype.property,
                    "\(String(reflecting: plan.mapping.objectType)).\(retype.property) is now \(retype.swiftType), "
                        + "whose values need column '\(retype.stored.column)' of \(retype.stored.table) declared "
                        + "\(retype.newType), not '\(retype.stored.declaredType)', and a read-only manager changes nothing. "
                        + "Register the class once through a manager that may write")
            }
            guard let first = missing.first else { continue }
            let type = String(reflecting: plan.mapping.objectType)
            throw DBBError(
                .migrationRefused, table: plan.mapping.tableName,
                "\(type) cannot be registered by a read-only manager: "
                    + (first == "its table"
                        ? "its table \(plan.mapping.tableName) does not exist"
                        : "\(missing.joined(separator: ", ")) of table \(plan.mapping.tableName) "
                            + (missing.count == 1 ? "does" : "do") + " not exist")
                    + ", and a read-only manager changes nothing. Register the class once through a manager that may write"
            )
        }
    }

    /// Refuses a class whose table (or join table `table`) has columns the connection's role
    /// may not read (PostgreSQL's privileges): every fetch would fail with "permission denied".
    /// Of `mapping`'s own table, only the columns it maps count.
    private func checkReadable(_ columns: [String: ExistingColumn], of mapping: TableMapping, table: String) throws {
        let read = table == mapping.tableName ? Self.mappedColumns(mapping) : nil
        let denied = columns.values.filter { $0.deniedTo != nil && read?.contains($0.name.lowercased()) != false }
        guard let role = denied.first?.deniedTo else { return }
        let names = denied.map(\.name).sorted()
        throw DBBError(
            .migrationRefused, table: mapping.tableName,
            "\(String(reflecting: mapping.objectType)) cannot be registered: permission denied for table \(table) — "
                + "the role \(role) may not read its column(s) \(names.joined(separator: ", ")), and every fetch "
                + "would fail. Grant it reading (GRANT SELECT ON \(connection.dialect.quote(table)) TO \(role), "
                + "or GRANT pg_read_all_data TO \(role)), or connect as a role that may read it")
    }

    /// The columns of `mapping`'s table it reads and writes, in lower case: its properties' and
    /// the reserved ones.
    private static func mappedColumns(_ mapping: TableMapping) -> Set<String> {
        Set(mapping.columns.map { $0.column.lowercased() } + DBBFormat.reservedColumns.map { $0.lowercased() })
    }

    /// Refuses a mapping with a name longer than the engine keeps (PostgreSQL: 63 bytes),
    /// which the server would cut: the mapping would then look for a table, column or index
    /// under a name that is not there, and find none.
    private func checkNameLengths(_ mapping: TableMapping) throws {
        guard let longest = connection.dialect.longestName,
            let long = schema.names(of: mapping).first(where: { $0.name.utf8.count > longest })
        else { return }
        throw DBBError(
            .invalidMapping, table: mapping.tableName, property: long.property,
            "the name '\(long.name)' of \(String(reflecting: mapping.objectType)) is \(long.name.utf8.count) bytes, and "
                + "PostgreSQL keeps \(longest) of a name: shorten it (databaseTableName, columnName) to \(longest) "
                + "bytes or less, join tables and indexes included (<Table>_<column>_idx, and <Table>_<column>_target_idx "
                + "of a reference or an array of objects)")
    }

    /// Refuses a table whose `id` is not its `INTEGER PRIMARY KEY` (the row id): missing, of
    /// another type, not the key, part of a composite key, or in a `WITHOUT ROWID` table.
    private func checkRowID(_ existing: [String: ExistingColumn], of mapping: TableMapping) throws {
        let table = mapping.tableName
        let problem: String
        if let id = existing[SchemaSQL.idColumn] {
            let keyColumns = existing.values.filter { $0.primaryKey > 0 }.count
            let keyIndexes =
                try connection.fetchValue(connection.dialect.primaryKeyIndexCount, [.text(table)], as: Int.self) ?? 0
            if id.type.uppercased() != connection.dialect.idType {
                problem = "its column '\(id.name)' is declared '\(id.type)'"
            } else if id.primaryKey == 0 || keyColumns > 1 {
                problem = "its column '\(id.name)' is not the table's (only) PRIMARY KEY"
            } else if keyIndexes > 0 {
                problem = "its column '\(id.name)' is not the row id (a WITHOUT ROWID table, or a key declared DESC)"
            } else {
                return
            }
        } else {
            problem = "it has no column 'id'"
        }
        throw DBBError(
            .migrationRefused, table: table, property: SchemaSQL.idColumn,
            "table \(table) cannot hold \(String(reflecting: mapping.objectType)) objects: \(problem), and "
                + "DBBBuilder needs 'id INTEGER PRIMARY KEY' (the row id) to save and fetch them. Nothing was changed; "
                + "copy the rows into a table with such a column, or map the class to another table (databaseTableName)"
        )
    }

    /// Judges a stored column for its property's type (see ``TypeMigration``): the change of
    /// declared type it needs, if any; a column of another kind than the property's is refused.
    private func judge(
        _ column: ExistingColumn, in table: String, owner: String, of mapping: TableMapping, property: String,
        swiftType: String, storage: DBBStorageType, previous: String?
    ) throws -> [TypeMigration.Retype] {
        let stored = TypeMigration.StoredColumn(
            table: table, column: column.name, declaredType: column.type, owner: owner)
        switch try TypeMigration(connection: connection, readOnly: readOnly).judge(
            stored, property: property, swiftType: swiftType, storage: storage, previous: previous, of: mapping)
        {
        case .fits: return []
        case .retype(let retype): return [retype]
        case .otherKind:
            try check(column, holds: storage, of: mapping, property: property, swiftType: swiftType)
            return []
        }
    }

    private func check(
        _ column: ExistingColumn, holds type: DBBStorageType, of mapping: TableMapping, property: String,
        swiftType: String,
        advice: String = "migrations only add, so map the property to a new column (columnName:) instead"
    ) throws {
        guard !connection.dialect.holds(type, declaredType: column.type) else { return }
        let affinity = connection.dialect.explain(declaredType: column.type)
        throw DBBError(
            .migrationRefused, table: mapping.tableName, property: property,
            "\(String(reflecting: mapping.objectType)).\(property) is a \(swiftType), but its column '\(column.name)' "
                + "is declared '\(column.type)'\(affinity), which would not give its values back "
                + "as stored; \(advice)")
    }
}
