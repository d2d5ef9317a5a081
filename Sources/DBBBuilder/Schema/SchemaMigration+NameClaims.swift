import DBBFormat

/// The checks of a class's names against the tables the database holds: what a manager that
/// never mapped the other class (another process or program) sees of it. The manager's own
/// classes are compared before, as they are mapped (``TableMapping/clash(with:)``).
extension SchemaMigration {
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
