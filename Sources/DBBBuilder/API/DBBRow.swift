import DBBSQLite

/// One row of a raw query (``DBBManager/query(_:arguments:)``): values by column index or name,
/// raw or converted to Swift types.
///
/// ```swift
/// for row in try manager.query("SELECT name, SUM(total) AS total FROM Orders GROUP BY name") {
///     let name: String = try row.decode("name")
///     let total = try row.decode(Double.self, "total")
///     let note = row["note", as: String.self]   // nil when missing, NULL or not convertible
/// }
/// ```
public struct DBBRow: Sendable, Hashable {
    /// The column names of the query, in order.
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [DBBValue]

    /// The value of column `index`.
    public subscript(index: Int) -> DBBValue { values[index] }

    /// The value of the column named `name` (exactly, else ignoring case as SQLite does), or
    /// `nil` when there is none.
    public subscript(name: String) -> DBBValue? {
        index(of: name).map { values[$0] }
    }

    /// The value of column `name` converted to `T`; `nil` when there is no such column, the
    /// value is `NULL`, or it does not convert.
    public subscript<T: DBBValueConvertible>(name: String, as type: T.Type) -> T? {
        index(of: name).flatMap { T(databaseValue: values[$0]) }
    }

    /// The value of column `index` converted to `T`; `nil` when there is no such column, the value
    /// is `NULL`, or it does not convert.
    public subscript<T: DBBValueConvertible>(index: Int, as type: T.Type) -> T? {
        values.indices.contains(index) ? T(databaseValue: values[index]) : nil
    }

    /// The value of column `name` converted to `T`, with SQLite's conversions (an integer
    /// reads as `String` in its text form; a `Date` from seconds since 2001). Decode as an
    /// optional type (`Double?`) to accept `NULL`.
    ///
    /// - Throws: ``DBBError`` of kind ``DBBError/Kind/invalidValue`` naming the column: there is
    ///   none of that name, it is `NULL`, or its value does not convert.
    public func decode<T: DBBValueConvertible>(_ type: T.Type = T.self, _ name: String) throws -> T {
        guard let index = index(of: name) else {
            throw DBBError(
                .invalidValue, "the query has no column \(name) (its columns: \(columnNames.joined(separator: ", ")))")
        }
        return try decode(type, at: index)
    }

    /// The value of column `index` (from 0) converted to `T`; see ``decode(_:_:)``.
    public func decode<T: DBBValueConvertible>(_ type: T.Type = T.self, at index: Int) throws -> T {
        guard values.indices.contains(index) else {
            throw DBBError(.invalidValue, "the query has no column \(index) (it has \(values.count))")
        }
        let value = values[index]
        if let converted = T(databaseValue: value) { return converted }
        let column = "column \(columnNames[index])"
        if value.isNull { throw DBBError(.invalidValue, "\(column) is NULL: decode it as \(T.self)? to accept NULL") }
        throw DBBError(.invalidValue, "\(column) holds \(value), which does not convert to \(T.self)")
    }

    private func index(of name: String) -> Int? {
        columnNames.firstIndex(of: name) ?? columnNames.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
    }
}
