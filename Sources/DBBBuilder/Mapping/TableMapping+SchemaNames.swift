import DBBFormat

/// A name a class's schema gives a table or an index, with what it is, for messages.
///
/// Tables and indexes share one namespace in both engines (SQLite's schema, a PostgreSQL
/// schema's relations), so a class's table may not take the name of another class's join
/// table or index, nor of a table the package keeps for itself.
struct SchemaName: Sendable {
    let name: String
    /// What the name is: `the table of Shop.Book`, `the join table of Shop.Book.tags`.
    let role: String
    /// The property it is for; `nil` for a class's own table and the package's tables.
    let property: String?
    /// What to change so that the name is another, or `nil` when it is not the user's to change.
    let advice: String?
    /// The table an index is on; `nil` for a table's name.
    var indexedTable: String? = nil
}

extension TableMapping {
    /// The tables and indexes this class's schema creates, its own table first.
    var schemaNames: [SchemaName] {
        let type = String(reflecting: objectType)
        let tableAdvice =
            "give \(type) another table name (`override class var databaseTableName`, or "
            + "`@DBBTable(tableName:)`)"
        var names = [SchemaName(name: tableName, role: "the table of \(type)", property: nil, advice: tableAdvice)]
        for join in joins {
            let advice =
                "store \(type).\(join.name) under another column name (`columnName:`, or `@Column`), "
                + "which names its join table, or \(tableAdvice)"
            names.append(
                SchemaName(
                    name: join.joinTable, role: "the join table of \(type).\(join.name)", property: join.name,
                    advice: advice))
            names.append(
                SchemaName(
                    name: join.indexName, role: "the index of \(type).\(join.name)'s join table",
                    property: join.name, advice: advice, indexedTable: join.joinTable))
            if join.access.relation != nil {
                names.append(
                    SchemaName(
                        name: DBBFormat.joinTargetIndex(join.joinTable),
                        role: "the index of \(type).\(join.name)'s references", property: join.name, advice: advice,
                        indexedTable: join.joinTable))
            }
        }
        for column in columns where column.isUnique {
            names.append(
                SchemaName(
                    name: dialect.attributeIndexName(table: tableName, column: column.column),
                    role: "the UNIQUE index of \(type).\(column.name)", property: column.name, advice: tableAdvice,
                    indexedTable: tableName))
        }
        let schema = SchemaSQL(dialect: dialect)
        for indexer in indexers {
            names.append(
                SchemaName(
                    name: schema.indexName(indexer, self),
                    role: "the index of \(type) on \(indexer.columns.joined(separator: ", "))",
                    property: indexer.columns.first, advice: tableAdvice, indexedTable: tableName))
        }
        names.append(
            SchemaName(
                name: TableRebuild.rebuildName(of: tableName),
                role: "the table that rebuilding the table of \(type) writes", property: nil, advice: tableAdvice))
        return names
    }

    /// The first name of this class's schema that `others` (other classes' schemas, and the
    /// package's own tables) take already, ignoring case as SQLite does; `nil` when none.
    func clash(with others: [SchemaName]) -> (mine: SchemaName, theirs: SchemaName)? {
        let taken = Dictionary(others.map { ($0.name.lowercased(), $0) }) { first, _ in first }
        for mine in schemaNames {
            if let theirs = taken[mine.name.lowercased()] { return (mine, theirs) }
        }
        return nil
    }

    /// The error of a name this class's schema shares with `theirs`.
    func clashError(_ mine: SchemaName, _ theirs: SchemaName) -> DBBError {
        DBBError(
            .invalidMapping, table: mine.name, property: mine.property,
            "\(mine.role) would be '\(mine.name)', which is \(theirs.role)"
                + (mine.name == theirs.name ? "" : " ('\(theirs.name)')")
                + ": one name cannot serve both, since their rows would mix (deleting the one's objects would "
                + "delete the other's rows). Nothing was changed; \(mine.advice ?? theirs.advice ?? "rename one")")
    }
}
