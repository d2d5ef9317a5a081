/// The SQL of judging a change of a property's Swift type against the stored values (see
/// ``TypeMigration``).
struct TypeChangeSQL {
    let dialect: any DBBDialect

    /// The values stored in `column` of `table` that are not `NULL`, each with the id of the
    /// object it belongs to (the `owner` column: `id`, or a join table's `<Table>_ID`), in
    /// the order of those ids; with `outsideBounds`, only the values below `?` or above `?`.
    func storedValues(_ column: String, of table: String, owner: String, outsideBounds: Bool) -> String {
        let (value, owner) = (dialect.quote(column), dialect.quote(owner))
        return "SELECT \(owner), \(value) FROM \(dialect.quote(table)) WHERE \(value) IS NOT NULL"
            + (outsideBounds ? " AND (\(value) < ? OR \(value) > ?)" : "") + " ORDER BY \(owner)"
    }
}
