import DBBSQLite
import Foundation

/// Writes sets of rows on a ``SetWritingConnection``, a statement a set (or a part of one, see
/// ``rowsPerStatement``): the new rows of a ``ChangeSet`` (each object given the id of its
/// row, in a defined order), updated rows, and join rows (the old ones deleted by owner, the
/// new ones inserted in order). Values are checked as a row-at-a-time save checks them, and an
/// error names the table and property.
struct SetWriter {
    let connection: any SetWritingConnection
    private let sql: SetWriteSQL
    /// Rows a statement at most (the number of parameters does not grow with the rows).
    static let rowsPerStatement = 10_000
    /// Bytes of values a statement carries at most, roughly, unless one row alone has more:
    /// PostgreSQL refuses a message over 1 GB (and closes the connection).
    static let bytesPerStatement = 64 << 20
    /// Whether saves on a set-writing connection use this writer: `DBB_POSTGRES_SET_WRITES=off`
    /// makes them write row by row instead, to measure one against the other.
    static let isEnabled = ProcessInfo.processInfo.environment["DBB_POSTGRES_SET_WRITES"] != "off"

    init(connection: any SetWritingConnection) {
        self.connection = connection
        sql = SetWriteSQL(dialect: connection.dialect)
    }

    /// Inserts `rows`, whose column values are in `values`, with `createdTime` each object's
    /// (set when it was added) and `modifiedTime` `now`; gives each object its id.
    func insert(_ rows: ChangeSet.Rows, values: SavedValues, now: Date) throws {
        let mapping = rows.mapping
        let statement = sql.insertRows(mapping)
        var first = 0
        while first < rows.objects.count {
            let end = Self.end(from: first, count: rows.objects.count) { row in
                mapping.columns.indices.reduce(24) { $0 + Self.size(of: values.base[rows.starts[row] + $1]) }
            }
            var arrays = [
                DBBValueArray(.real, values: rows.objects[first..<end].map(\.createdTime).map(Self.time)),
                DBBValueArray(
                    .real, values: Array(repeating: .real(now.timeIntervalSinceReferenceDate), count: end - first)),
            ]
            arrays += try Self.arrays(of: mapping.columns.indices, rows, first..<end, values)
            let ids: [[DBBValue]]
            do {
                ids = try connection.execute(statement, arrays: arrays)
            } catch let failure as any DatabaseFailure {
                throw refusal(of: failure, mapping) ?? failure
            }
            guard ids.count == end - first else {
                throw DBBError(
                    .invalidValue, table: mapping.tableName,
                    "\(end - first) rows were to be inserted, but the database gave \(ids.count) ids")
            }
            for (object, id) in zip(rows.objects[first..<end], ids) {
                guard case .integer(let id) = id.first, id != 0 else { throw Self.idZero(mapping) }
                object.id = id
            }
            first = end
        }
    }

    /// The refusal of a new row whose id the sequence gave as 0.
    private static func idZero(_ mapping: TableMapping) -> DBBError {
        DBBError(
            .invalidValue, table: mapping.tableName, rowID: 0,
            "the database gave a new row the id 0, which stands for \"not saved yet\": restart the "
                + "table's id sequence above 0 (nothing was stored)")
    }

    /// What the server's refusal of new rows of `mapping` means, when it is about their ids:
    /// an id 0 (``SetWriteSQL/insertRows(_:)`` makes it `NULL`, which column `id` refuses), or
    /// an id the sequence gave that a row already has.
    private func refusal(of failure: any DatabaseFailure, _ mapping: TableMapping) -> DBBError? {
        let error = failure.dbbError(table: mapping.tableName, columns: [])
        guard let server = error.serverError else { return nil }
        switch server.sqlState {
        case "23502"
        where error.property == SchemaSQL.idColumn || server.message.contains("column \"\(SchemaSQL.idColumn)\""):
            return Self.idZero(mapping)
        case "23505" where server.message.contains("Key (\(SchemaSQL.idColumn))="):
            return DBBError(
                .server, table: mapping.tableName,
                "a new row's id, from the table's id sequence, is taken: other SQL inserted rows with ids of "
                    + "their own, which do not advance the sequence (nothing was stored). Move it past them: "
                    + sql.advanceSequence(mapping),
                serverError: server)
        default: return nil
        }
    }

    /// Updates the rows of `rows` (an update set) in its columns, to the values in `values`,
    /// and `modifiedTime` to `now`.
    /// - Throws: ``DBBError/Kind/rowNotFound`` naming the first row of the set that is gone.
    func update(_ rows: ChangeSet.Rows, _ columns: [Int], values: SavedValues, now: Date) throws {
        let mapping = rows.mapping
        let statement = sql.updateRows(mapping, columns)
        var first = 0
        while first < rows.objects.count {
            let end = Self.end(from: first, count: rows.objects.count) { row in
                columns.reduce(16) { $0 + Self.size(of: values.base[rows.starts[row] + $1]) }
            }
            var arrays = [
                DBBValueArray(.integer, values: rows.objects[first..<end].map { .integer($0.id) }),
                DBBValueArray(
                    .real, values: Array(repeating: .real(now.timeIntervalSinceReferenceDate), count: end - first)),
            ]
            arrays += try Self.arrays(of: columns, rows, first..<end, values)
            let found = try connection.execute(statement, arrays: arrays)
            if found.count < end - first {
                let updated = Set(found.compactMap { $0.first?.integerValue })
                if let gone = rows.objects[first..<end].first(where: { !updated.contains($0.id) }) {
                    throw Persistence.rowGone(gone.id, mapping)
                }
            }
            first = end
        }
    }

    /// The join rows of one property of many owners: the owners whose old rows go (`replaced`),
    /// and the rows to insert, owner by owner, each owner's values in order.
    struct JoinRows {
        let join: JoinProperty
        let mapping: TableMapping
        var replaced: [Int64] = []
        var owners: [Int64] = []
        var values: [DBBValue] = []
    }

    /// Deletes the join rows of `rows.replaced` and inserts `rows`'s.
    func write(_ rows: JoinRows) throws {
        if !rows.replaced.isEmpty {
            _ = try connection.execute(
                sql.deleteJoinRows(rows.join),
                arrays: [DBBValueArray(.integer, values: rows.replaced.map { .integer($0) })])
        }
        let element = Self.element(of: rows.join.storageType)
        var first = 0
        while first < rows.owners.count {
            let end = Self.end(from: first, count: rows.owners.count) { 8 + Self.size(of: rows.values[$0]) }
            var values = DBBValueArray(element)
            values.values.reserveCapacity(end - first)
            for position in first..<end {
                values.values.append(try Self.value(rows.values[position], for: element, rows.mapping, rows.join.name))
            }
            _ = try connection.execute(
                sql.insertJoinRows(rows.join),
                arrays: [DBBValueArray(.integer, values: rows.owners[first..<end].map { .integer($0) }), values])
            first = end
        }
    }

    /// The values of the columns at `columns` of the rows `range` of `rows`, an array a column.
    private static func arrays(
        of columns: some Sequence<Int>, _ rows: ChangeSet.Rows, _ range: Range<Int>, _ values: SavedValues
    ) throws -> [DBBValueArray] {
        try columns.map { index in
            let column = rows.mapping.columns[index]
            var array = DBBValueArray(element(of: column.storageType))
            array.values.reserveCapacity(range.count)
            for row in range {
                array.values.append(
                    try value(values.base[rows.starts[row] + index], for: array.element, rows.mapping, column.name))
            }
            return array
        }
    }

    /// Where the statement that starts at row `first` of `count` ends: after
    /// ``rowsPerStatement`` rows, or the row that takes it over ``bytesPerStatement`` (by
    /// `bytes` of a row), whichever comes first; always after one row at least.
    private static func end(from first: Int, count: Int, bytes: (Int) -> Int) -> Int {
        var (end, total) = (first, 0)
        while end < count && end - first < rowsPerStatement {
            total += bytes(end)
            if total > bytesPerStatement && end > first { break }
            end += 1
        }
        return end
    }

    /// About the bytes `value` takes in an array parameter.
    private static func size(of value: DBBValue) -> Int {
        switch value {
        case .text(let text): 4 + text.utf8.count
        case .blob(let data): 4 + data.count
        default: 12
        }
    }

    private static func time(_ date: Date?) -> DBBValue {
        date.map { .real($0.timeIntervalSinceReferenceDate) } ?? .null
    }

    /// The kind of array a column of `type` is bound as (its PostgreSQL column type's).
    static func element(of type: DBBStorageType) -> DBBValueArray.Element {
        switch type {
        case .bool, .int, .boolArray, .intArray, .dbbObject, .dbbObjectArray: .integer
        case .float, .date, .floatArray, .dateArray: .real
        case .string, .stringArray, .decimal, .uuid, .json, .decimalArray, .uuidArray: .text
        case .binary: .blob
        }
    }

    /// `value` as an element of an array of `element`s: an integer in a column of doubles
    /// becomes a double (as the server converts one bound alone); any other kind is refused,
    /// naming the property, where the server would refuse the row.
    private static func value(
        _ value: DBBValue, for element: DBBValueArray.Element, _ mapping: TableMapping, _ property: String
    ) throws -> DBBValue {
        switch (value, element) {
        case (.null, _), (.integer, .integer), (.real, .real), (.text, .text), (.blob, .blob): return value
        case (.integer(let integer), .real): return .real(Double(integer))
        default:
            throw DBBError(
                .invalidValue, table: mapping.tableName, property: property,
                "holds \(value), which a column of \(element) values cannot store")
        }
    }
}
