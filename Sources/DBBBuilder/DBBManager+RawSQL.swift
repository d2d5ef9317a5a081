import DBBSQLite

/// One row of a raw query: values by column index or name.
public struct DBBRow: Sendable, Hashable {
    /// The column names of the query, in order.
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [SQLiteValue]

    /// The value of column `index`.
    public subscript(index: Int) -> SQLiteValue { values[index] }

    /// The value of the first column named `name`, or `nil` when there is none.
    public subscript(name: String) -> SQLiteValue? {
        columnNames.firstIndex(of: name).map { values[$0] }
    }
}

extension DBBManager {
    /// Runs raw SQL (one or more statements), binding `arguments` to its `?` placeholders.
    ///
    /// ```swift
    /// try manager.execute("UPDATE Person SET age = age + 1 WHERE lastName = ?", arguments: ["Doe"])
    /// ```
    public func execute(_ sql: String, arguments: [SQLiteValue] = []) throws {
        try write(nil) { try $0.execute(sql, arguments) }
    }

    /// Runs a raw query and returns its rows. The locale date functions are available:
    ///
    /// ```swift
    /// let weeks = try manager.query(
    ///     "SELECT dbb_week(startTime, 'en_US') AS week, COUNT(*) AS meetings FROM Meeting GROUP BY week")
    /// for row in weeks { print(row["week"]!, row["meetings"]!) }
    /// ```
    public func query(_ sql: String, arguments: [SQLiteValue] = []) throws -> [DBBRow] {
        try read(nil) { connection in
            let statement = try connection.cachedStatement(sql)
            try statement.bind(arguments)
            let names = statement.columnNames
            var rows: [DBBRow] = []
            try statement.forEachRow { rows.append(DBBRow(columnNames: names, values: $0.values)) }
            return rows
        }
    }

    /// Runs a raw query, calling `body` with each row in place (nothing is copied).
    public func forEachRow(_ sql: String, arguments: [SQLiteValue] = [], _ body: (SQLiteRow) throws -> Void) throws {
        try read(nil) { try $0.forEachRow(sql, arguments, body) }
    }
}
