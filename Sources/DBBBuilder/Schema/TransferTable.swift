import DBBFormat
import Foundation

/// One table a copy moves (``DBBManager/copyTables(of:from:)``): its name, the columns it
/// copies (`id` first) and what each holds.
struct TransferTable {
    /// The kind of value a column holds, whatever the backend: a copy moves a value only when
    /// it is of that kind, so that it reads back the same from the destination.
    enum Holds {
        case integer, real, text, blob

        init(_ type: DBBStorageType) {
            switch type {
            case .bool, .int, .boolArray, .intArray, .dbbObject, .dbbObjectArray: self = .integer
            case .float, .date, .floatArray, .dateArray: self = .real
            case .string, .stringArray, .decimal, .uuid, .json, .decimalArray, .uuidArray: self = .text
            case .binary: self = .blob
            }
        }
    }

    let name: String
    let columns: [String]
    /// What each column stores.
    let types: [DBBStorageType]
    let holds: [Holds]
    /// Which property a column holds, to name it in an error.
    let properties: [(property: String, column: String)]

    init(name: String, columns: [String], types: [DBBStorageType], properties: [(property: String, column: String)]) {
        (self.name, self.columns, self.types, self.properties) = (name, columns, types, properties)
        holds = types.map(Holds.init)
    }

    /// Rows inserted by one statement: few round trips to a server, and far below both
    /// engines' limits on bound parameters.
    static let rowsPerInsert = 64

    /// Refuses a source that lacks the table or one of its columns: the copy reads the
    /// source as it is and never changes it.
    func checkSource(_ origin: any DatabaseConnection, label: String) throws {
        let present = Set(
            try origin.fetchAll(origin.dialect.tableColumns, [.text(name)]) {
                ($0.string(at: 0) ?? "").lowercased()
            })
        guard !present.isEmpty else {
            throw DBBError(
                .invalidOption, table: name,
                "\(label) has no table \(name) to copy from; "
                    + "register the classes on the source first")
        }
        for column in columns where !present.contains(column.lowercased()) {
            throw DBBError(
                .invalidOption, table: name, property: property(of: column),
                "\(label) has no column \(column) in \(name) to copy from; register the classes on the source first, "
                    + "which adds it")
        }
    }

    /// Copies the rows, in id order, and raises the destination's id counter to the source's.
    func copy(
        from origin: any DatabaseConnection, _ from: TransferSQL,
        to destination: any DatabaseConnection, _ into: TransferSQL
    ) throws -> Int {
        do {
            return try copyRows(from: origin, from, to: destination, into)
        } catch let failure as any DatabaseFailure {
            throw failure.dbbError(table: name, columns: properties)
        }
    }

    private func copyRows(
        from origin: any DatabaseConnection, _ from: TransferSQL,
        to destination: any DatabaseConnection, _ into: TransferSQL
    ) throws -> Int {
        var batch: [DBBValue] = []
        batch.reserveCapacity(columns.count * Self.rowsPerInsert)
        var count = 0
        var highest: Int64 = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            try insert(batch, rows: batch.count / columns.count, into: destination, into)
            batch.removeAll(keepingCapacity: true)
        }
        try origin.forEachRow(from.selectAll(name, columns, types)) { row in
            for index in 0..<columns.count {
                let value = try admitted(row.value(at: index), index, rowID: row.int64(at: 0))
                if let refusal = into.dialect.refusal(of: value) {
                    throw refusal.about(table: name, property: property(of: columns[index]), rowID: row.int64(at: 0))
                }
                batch.append(value)
            }
            highest = max(highest, row.int64(at: 0))
            count += 1
            if count % Self.rowsPerInsert == 0 { try flush() }
        }
        try flush()
        let counter = max(
            highest,
            try origin.fetchValue(origin.dialect.lastID, [origin.dialect.lastIDArgument(name)], as: Int64.self) ?? 0)
        if counter > 0 {
            for statement in destination.dialect.raiseLastID(name, to: counter) {
                try destination.execute(statement.sql, statement.arguments)
            }
        }
        return count
    }

    /// `value` as column `index` holds it — an integer in a real column as that real, when
    /// exact — or a refusal naming the property and row: a value that would be stored as
    /// another value (a blob as its hex text, 1.5 as 2, NaN as NULL) is not copied.
    private func admitted(_ value: DBBValue, _ index: Int, rowID: Int64) throws -> DBBValue {
        let fits: DBBValue? =
            switch (holds[index], value) {
            case (_, .null): value
            case (.integer, .integer), (.blob, .blob): value
            // (Optional's `.none`: DBBValue's own nil literal is NULL.)
            case (.text, .text(let text)): Self.isText(text, of: types[index]) ? value : Optional.none
            case (.real, .real(let real)): real.isNaN ? Optional.none : value
            case (.real, .integer(let integer)): Double(exactly: integer).map(DBBValue.real)
            default: nil
            }
        guard let fits else {
            throw DBBError(
                .invalidValue, table: name, property: property(of: columns[index]), rowID: rowID,
                "\(value) in column \(columns[index]) of \(name) is not \(Self.kind(of: types[index], holds[index])) "
                    + "as the column holds: the copy would store another value, so it copies nothing")
        }
        return fits
    }

    /// What a column of `type` holds, for a message: `integer`, `text`, `a decimal number`….
    private static func kind(of type: DBBStorageType, _ holds: Holds) -> String {
        switch type {
        case .decimal, .decimalArray: "a decimal number"
        case .uuid, .uuidArray: "a UUID"
        case .json: "JSON"
        default: "\(holds)"
        }
    }

    /// Whether `text` is a value of a column of `type`: a decimal number, a UUID, JSON — what
    /// the destination's column would refuse (PostgreSQL's `numeric`, `uuid`, `jsonb`) or a
    /// table object could not read (SQLite's text); any text otherwise.
    private static func isText(_ text: String, of type: DBBStorageType) -> Bool {
        switch type {
        case .decimal, .decimalArray: DecimalText.isNumber(text)
        case .uuid, .uuidArray: UUID(uuidString: text) != nil
        case .json: (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil
        default: true
        }
    }

    /// The property a column holds, or the column's name (`id`, the times, a join table's owner column).
    private func property(of column: String) -> String {
        properties.first { $0.column == column }?.property ?? column
    }

    private func insert(_ values: [DBBValue], rows: Int, into destination: any DatabaseConnection, _ into: TransferSQL)
        throws
    {
        let statement = try destination.statement(into.insert(name, columns, types, rows: rows))
        defer { statement.reset() }
        try statement.bind(values)
        try statement.execute()
    }
}
