import DBBFormat

/// The checks of a class's names against the tables the database holds: what a manager that
/// never mapped the other class (another process or program) sees of it. The manager's own
/// classes are compared before, as they are mapped (``TableMapping/clash(with:)``).
extension SchemaMigration {
    /// Refuses a name of the class's schema that the database holds as an object of another
    /// kind or place — its table or a join table's name taken by an index, a sequence or a view;
    /// one of its indexes' names taken by a table, or by an index on another table — which the
    /// engine would refuse, or (an index created `IF NOT EXISTS`) silently not create.
    func checkSchemaObjects(of mapping: TableMapping) throws {
        let names = mapping.schemaNames
        let dialect = connection.dialect
        let objects = try connection.fetchAll(
            dialect.schemaObjects(named: names.count), names.map { .text($0.name) }
        ) { row in
            (name: row.string(at: 0) ?? "", kind: row.string(at: 1) ?? "", table: row.string(at: 2) ?? "")
        }
        for name in names {
            let key = dialect.namesIgnoreCase ? name.name.lowercased() : name.name
            for object in objects where (dialect.namesIgnoreCase ? object.name.lowercased() : object.name) == key {
                let fits: Bool
                if let indexed = name.indexedTable {
                    fits = object.kind == "index" && object.table.lowercased() == indexed.lowercased()
                } else {
                    fits = object.kind == "table"
                }
                guard !fits else { continue }
                let what =
                    object.kind == "index"
                    ? "an index on table \(object.table)"
                    : object.kind == "table" ? "a table" : "a \(object.kind)"
                throw DBBError(
                    .invalidMapping, table: name.name, property: name.property,
                    "\(name.role) would be '\(name.name)', which in this database is \(what): one name cannot serve "
                        + "both (the engine would refuse the one, or keep it from being made). Nothing was changed; "
                        + (name.advice ?? "rename the other"))
            }
        }
    }

    /// Refuses a class whose table the catalog records as another class's, when it maps none
    /// of what that class maps (columns and join tables): a class that takes the table over
    /// rather than a new version of its class (renamed, generated or converted from it, which
    /// maps its columns), so another program's class, whose rows it would read as its own and
    /// whose join rows its deletes would delete. `recorded`: the catalog's rows of the table's
    /// name, in any case where the engine takes that for one table.
    func checkNotTakenOver(_ recorded: [SchemaCatalog.Entry], by mapping: TableMapping) throws {
        let type = String(reflecting: mapping.objectType)
        let others = recorded.filter { $0.mapped && $0.className != type }
        guard let owner = others.first?.className else { return }
        let theirs = others.filter { $0.className == owner }
        let formerColumns = Set(mapping.objectType.formerColumnNames.values.map { $0.lowercased() })
        let shared = theirs.contains { entry in
            mapping.columns.contains { entry.describes(column: $0.column, joinTable: nil) }
                || (entry.joinTable == nil && formerColumns.contains(entry.column.lowercased()))
                || mapping.joins.contains { entry.describes(column: $0.column, joinTable: $0.joinTable) }
        }
        guard !shared else { return }
        let table = theirs[0].table
        let properties = theirs.map(\.property).sorted().joined(separator: ", ")
        throw DBBError(
            .invalidMapping, table: mapping.tableName,
            "the table of \(type) would be '\(mapping.tableName)', which in this database is the table of \(owner)"
                + (table == mapping.tableName ? "" : " ('\(table)')")
                + " (the catalog \(DBBFormat.columnsTable) records it mapping \(properties)), and \(type) maps none of "
                + "those: one table cannot serve both, since \(type) would read \(owner)'s rows as its own and its "
                + "deletes would delete them and their join rows. Nothing was changed; give \(type) another table name "
                + "(`override class var databaseTableName`, or `@DBBTable(tableName:)`). A new version of \(owner) "
                + "(renamed, generated or converted) maps at least one of its columns, or names one in formerColumnNames"
        )
    }

    /// Refuses a class's table that is in this database another class's join table: a table
    /// of DBBBuilder's join-table layout `<Owner>_<column>(id, <Owner>_ID, <column>)`. Adopted,
    /// its rows would read as the class's objects, and deleting those would delete the
    /// owner's values. The owner's class is named when the catalog records it.
    func checkNotJoinTable(_ existing: [String: ExistingColumn], of mapping: TableMapping, _ catalog: SchemaCatalog)
        throws
    {
        guard existing.count == 3, existing[SchemaSQL.idColumn] != nil,
            let owner = existing.values.first(where: {
                $0.name.lowercased().hasSuffix("_id") && $0.name.count > 3
            }),
            let value = existing.values.first(where: {
                $0.name.lowercased() != SchemaSQL.idColumn && $0.name != owner.name
            })
        else { return }
        let ownerTable = String(owner.name.dropLast(3))
        guard DBBFormat.joinTable(ownerTable, column: value.name).lowercased() == mapping.tableName.lowercased()
        else { return }
        let type = String(reflecting: mapping.objectType)
        let recorded = try catalog.recorded(ownerTable).first {
            $0.joinTable?.lowercased() == mapping.tableName.lowercased()
        }
        let joinOf = recorded.map { "\($0.className).\($0.property)" } ?? "table \(ownerTable)'s column \(value.name)"
        throw DBBError(
            .invalidMapping, table: mapping.tableName,
            "the table of \(type) would be '\(mapping.tableName)', which in this database is the join table of "
                + "\(joinOf) (its columns are id, \(owner.name), \(value.name)): one name cannot serve both, since "
                + "their rows would mix (deleting \(type) objects would delete the values of \(ownerTable)'s rows). "
                + "Nothing was changed; give \(type) another table name (`override class var databaseTableName`, "
                + "or `@DBBTable(tableName:)`)")
    }

    /// Refuses a join table that exists with other columns than the join table of `join`
    /// has: another class's table, or another property's join table (`A_b`.`c` and `A`.`b_c`
    /// both name `A_b_c`), whose rows the property would read and replace. The other class is
    /// named when the catalog records it.
    func checkJoinTable(
        _ existing: [String: ExistingColumn], of join: JoinProperty, in mapping: TableMapping, _ catalog: SchemaCatalog
    ) throws {
        let expected = [SchemaSQL.idColumn, join.parentColumn, join.column]
        guard !existing.isEmpty, Set(existing.keys) != Set(expected.map { $0.lowercased() }) else { return }
        let type = String(reflecting: mapping.objectType)
        let found = existing.values.map(\.name).sorted { $0.lowercased() < $1.lowercased() }
        let owner = try catalog.recorded(join.joinTable).first.map { "the table of \($0.className)" }
        throw DBBError(
            .invalidMapping, table: join.joinTable, property: join.name,
            "the join table of \(type).\(join.name) would be '\(join.joinTable)', but a table of that name is in this "
                + "database with the columns \(found.joined(separator: ", ")), not \(expected.joined(separator: ", ")): "
                + (owner ?? "another class's table, or another property's join table") + ", whose rows \(join.name) "
                + "would read and replace. Nothing was changed; store \(type).\(join.name) under another column name "
                + "(`columnName:`, or `@Column`), which names its join table, or give \(type) another table name")
    }
}
