import DBBSQLite

/// The SQL of join rows.
struct JoinSQL {
    let dialect: any DBBDialect

    func deleteRows(_ join: JoinProperty) -> String {
        "DELETE FROM \(dialect.quote(join.joinTable)) WHERE \(dialect.quote(join.parentColumn)) = ?"
    }

    /// The id a reference holds for the row of the enclosing query on `owner`'s table, or
    /// `NULL`: a reference read as a nullable column inside conditions. `table` names the
    /// owner's table in the enclosing query when it is not its quoted name (a join's alias).
    func referencedID(_ join: JoinProperty, owner: TableMapping, as table: String? = nil) -> String {
        "(SELECT \(dialect.quote(join.column)) FROM \(dialect.quote(join.joinTable))"
            + " WHERE \(dialect.quote(join.parentColumn)) = \(table ?? dialect.quote(owner.tableName)).\(dialect.quote(SchemaSQL.idColumn)) LIMIT 1)"
    }

    /// The values of `join` for the row of the enclosing query on `owner`'s table, in insertion
    /// order, as one array (empty for none): a fetch's join rows read within its own statement.
    func elements(_ join: JoinProperty, owner: TableMapping) -> String {
        let joinTable = dialect.quote(join.joinTable)
        return
            "ARRAY(SELECT \(dialect.selected("\(joinTable).\(dialect.quote(join.column))", join.storageType)) FROM \(joinTable)"
            + " WHERE \(joinTable).\(dialect.quote(join.parentColumn)) = \(dialect.quote(owner.tableName)).\(dialect.quote(SchemaSQL.idColumn))"
            + " ORDER BY \(joinTable).\(dialect.quote(SchemaSQL.idColumn)))"
    }

    func insertRow(_ join: JoinProperty) -> String {
        "INSERT INTO \(dialect.quote(join.joinTable)) (\(dialect.quote(join.parentColumn)), \(dialect.quote(join.column)))"
            + " VALUES (?, \(dialect.parameter(join.storageType)))"
    }

    /// Every join row of the owners whose ids are the list bound to `?`, by owner then insertion order.
    func selectRows(_ join: JoinProperty) -> String {
        selectRows(join, where: dialect.inIDList(dialect.quote(join.parentColumn)))
    }

    /// Every join row of the owners whose ids lie from the first `?` to the second, by owner
    /// then insertion order: one range of the owner index, for a batch whose ids fill most of it.
    func selectRowsInRange(_ join: JoinProperty) -> String {
        selectRows(join, where: "\(dialect.quote(join.parentColumn)) BETWEEN ? AND ?")
    }

    private func selectRows(_ join: JoinProperty, where condition: String) -> String {
        "SELECT \(dialect.quote(join.parentColumn)), \(dialect.selected(dialect.quote(join.column), join.storageType))"
            + " FROM \(dialect.quote(join.joinTable))"
            + " WHERE " + condition
            + " ORDER BY \(dialect.quote(join.parentColumn)), \(dialect.quote(SchemaSQL.idColumn))"
    }
}
