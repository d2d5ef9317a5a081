import DBBFormat
import Foundation

/// Brings the `NOT NULL` and `UNIQUE` of an existing table's columns in line with the
/// attributes their properties declare (``DBBTableObject/attributesDictionary``), so that the
/// constraints are always the ones the class that registered last declares — never silently
/// those of an earlier version:
///
/// - **Added** to a property of an existing column: applied when the rows allow it — `NOT NULL`
///   when no row holds `NULL` there (SQLite: the table is rebuilt, see ``TableRebuild``;
///   PostgreSQL: `ALTER … SET NOT NULL`), `UNIQUE` when no two rows share a value (a unique
///   index `<Table>_<column>_unique`). Otherwise refused with ``DBBError/Kind/migrationRefused``
///   naming class, property and the rows in the way, before anything changes.
/// - **Removed** from a property: lifted, as it would refuse saves the class now allows — the
///   column's `NOT NULL` when the property is an `Optional` (a non-optional one never saves
///   `NULL`, so the constraint stays), and the `UNIQUE` the attribute made (the column
///   constraint, or the `_unique` index). A unique index of an indexer
///   (`DBBIndexer(…, unique: true)`), or a constraint or index made by other SQL under a name
///   of its own, is not the attribute's, and stays.
///
/// Columns that no property maps any more lose their `NOT NULL` (when they have no default),
/// which would make every insert fail; their other constraints stay.
struct ConstraintMigration {
    let connection: any DatabaseConnection
    /// Whether `NOT NULL` and `UNIQUE` are added without holding off the table's writers (see
    /// ``DBBDialect/changesSchemaOnline``): the rows are checked without a lock, the
    /// transaction only adds an unvalidated check, and the rest is left to ``OnlineSchemaStep``s.
    var online = false
    private var sql: ConstraintSQL { ConstraintSQL(dialect: connection.dialect) }

    /// The changes to one table's constraints, by column name.
    struct Changes {
        var notNullAdded: [String] = []
        /// Mapped columns whose property no longer declares `NOT NULL`.
        var notNullLifted: [String] = []
        /// Columns no property maps any more, `NOT NULL` without a default.
        var released: [String] = []
        var uniqueAdded: [String] = []
        /// `UNIQUE` constraints of the table to lift: the column and the constraint's name.
        var uniqueConstraintsLifted: [(column: String, name: String)] = []
        /// DBBBuilder's `_unique` indexes to drop: the column and the index's name.
        var uniqueIndexesLifted: [(column: String, index: String)] = []

        var isEmpty: Bool {
            notNullAdded.isEmpty && notNullLifted.isEmpty && released.isEmpty && uniqueAdded.isEmpty
                && uniqueConstraintsLifted.isEmpty && uniqueIndexesLifted.isEmpty
        }
    }

    /// A unique index over one column; `constraint` names the table constraint it backs (empty
    /// on SQLite, which names none), `nil` for one made by `CREATE UNIQUE INDEX`; `dependents`
    /// names the foreign keys that refer to it.
    private struct UniqueIndex {
        let name: String
        let column: String
        let constraint: String?
        let dependents: String?
    }

    private func uniqueIndexes(of table: String) throws -> [UniqueIndex] {
        try connection.fetchAll(connection.dialect.singleColumnUniqueIndexes, [.text(table)]) {
            UniqueIndex(
                name: $0.string(at: 0) ?? "", column: $0.string(at: 1) ?? "", constraint: $0.string(at: 2),
                dependents: $0.string(at: 3))
        }
    }

    // MARK: - Planning

    /// What `mapping`'s existing columns need, checked against the rows: nothing is changed.
    /// - Parameters:
    ///   - notNull: whether each existing column (by lower-cased name) is `NOT NULL`.
    ///   - released: the unmapped `NOT NULL` columns without a default.
    /// - Throws: ``DBBError/Kind/migrationRefused`` when a row holds `NULL` in a column whose
    ///   property is newly `NOT NULL`, or two rows share a value of a newly `UNIQUE` one.
    func plan(_ mapping: TableMapping, notNull: [String: Bool], released: [String]) throws -> Changes {
        let table = mapping.tableName
        let uniques = try uniqueIndexes(of: table)
        var changes = Changes(released: released)
        var checks: [() throws -> Void] = []
        for column in mapping.columns {
            guard let isNotNull = notNull[column.column.lowercased()] else { continue }  // a new column
            if column.isNotNull && !isNotNull {
                checks.append { try checkNoNull(column, of: mapping) }
                changes.notNullAdded.append(column.column)
            } else if !column.isNotNull && isNotNull && column.canHoldNil {
                changes.notNullLifted.append(column.column)
            }
            let own = uniques.filter { $0.column.lowercased() == column.column.lowercased() }
            if column.isUnique && own.isEmpty {
                checks.append { try checkNoDuplicate(column, of: mapping) }
                changes.uniqueAdded.append(column.column)
            } else if !column.isUnique {
                let attributes = own.filter { index in
                    index.constraint.map {
                        connection.dialect.isAttributeConstraint($0, table: table, column: column.column)
                    }
                        ?? connection.dialect.isAttributeIndex(index.name, table: table, column: column.column)
                }
                for index in attributes {
                    if let dependents = index.dependents { throw referenced(column, of: mapping, by: dependents) }
                    if let constraint = index.constraint {
                        changes.uniqueConstraintsLifted.append((column.column, constraint))
                    } else {
                        changes.uniqueIndexesLifted.append((column.column, index.name))
                    }
                }
            }
        }
        // The rows checked are the rows the constraints will hold for: no other session writes
        // to the table until this transaction ends.
        // (Online, the constraint itself checks them, without holding writers off.)
        if !checks.isEmpty, !online, let lock = connection.dialect.lockAgainstWrites(table) {
            try connection.change(.lockAgainstWrites, on: table, lock)
        }
        for check in checks { try check() }
        return changes
    }

    private func referenced(_ column: ColumnProperty, of mapping: TableMapping, by dependents: String) -> DBBError {
        DBBError(
            .migrationRefused, table: mapping.tableName, property: column.name,
            "\(String(reflecting: mapping.objectType)).\(column.name) no longer declares UNIQUE, but foreign keys refer "
                + "to its column '\(column.column)', which they need unique (\(dependents)). Nothing was changed: keep "
                + ".unique on the property, or drop those foreign keys first")
    }

    func checkNoNull(_ column: ColumnProperty, of mapping: TableMapping) throws {
        let rows = try connection.fetchValue(sql.nullCount(mapping.tableName, column.column), as: Int.self) ?? 0
        guard rows > 0 else { return }
        throw DBBError(
            .migrationRefused, table: mapping.tableName, property: column.name,
            "\(String(reflecting: mapping.objectType)).\(column.name) is declared NOT NULL, but \(rows) row(s) of "
                + "\(mapping.tableName) hold NULL in its column '\(column.column)'. Nothing was changed: give those "
                + "rows a value, or leave the property without .notNull")
    }

    func checkNoDuplicate(_ column: ColumnProperty, of mapping: TableMapping) throws {
        let found = try connection.fetchAll(sql.mostDuplicated(mapping.tableName, column.column)) {
            (value: $0.string(at: 0) ?? "", rows: $0.int64(at: 1), values: $0.int64(at: 2))
        }
        guard let duplicate = found.first else { return }
        let others = duplicate.values > 1 ? " (and \(duplicate.values - 1) more value(s) repeat)" : ""
        throw DBBError(
            .migrationRefused, table: mapping.tableName, property: column.name,
            "\(String(reflecting: mapping.objectType)).\(column.name) is declared UNIQUE, but \(duplicate.rows) rows of "
                + "\(mapping.tableName) hold \(Self.shown(duplicate.value, column.storageType)) in its column "
                + "'\(column.column)'\(others). Nothing was changed: remove the duplicates, or leave the property "
                + "without .unique")
    }

    /// A stored value for a message: text quoted, a date as a date, a Boolean as one.
    private static func shown(_ text: String, _ type: DBBStorageType) -> String {
        switch type {
        case .string: return "'\(text)'"
        case .bool: return text == "0" ? "false" : text == "1" ? "true" : text
        case .date:
            guard let seconds = Double(text) else { return text }
            return "\(text) (\(Date(timeIntervalSinceReferenceDate: seconds)))"
        default: return text
        }
    }

    // MARK: - Applying

    /// Makes `changes` to `mapping`'s table, inside the caller's transaction; online, adds to
    /// `later` what is done after it commits.
    /// - Returns: what changed, one line each, for the log.
    func apply(_ changes: Changes, to mapping: TableMapping, later: inout [OnlineSchemaStep]) throws -> [String] {
        let table = mapping.tableName
        guard !changes.isEmpty else { return [] }
        if connection.dialect.altersConstraintsInPlace {
            for column in changes.released + changes.notNullLifted {
                try connection.change(.dropNotNull, on: table, sql.dropNotNull(column, of: table))
            }
            for column in changes.notNullAdded {
                guard online, let property = mapping.columns.first(where: { $0.column == column }) else {
                    try connection.change(.setNotNull(scans: true), on: table, sql.setNotNull(column, of: table))
                    continue
                }
                let check = connection.dialect.notNullCheckName(table: table, column: column)
                // One left by a registration that stopped, or being validated by another: kept.
                if try connection.fetchValue(connection.dialect.constraintCount(check, of: table), as: Int.self) == 0 {
                    try connection.change(.addCheck, on: table, connection.dialect.addNotNullCheck(column, of: table))
                }
                later += [.validateNotNull(mapping, property), .setNotNull(mapping, property)]
            }
            for lifted in changes.uniqueConstraintsLifted {
                try connection.change(.dropConstraint, on: table, sql.dropConstraint(lifted.name, of: table))
            }
        } else {
            var edits: [String: RebuildSQL.ColumnEdit] = [:]
            for column in changes.released + changes.notNullLifted { edits[column, default: []].insert(.dropNotNull) }
            for column in changes.notNullAdded { edits[column, default: []].insert(.addNotNull) }
            for lifted in changes.uniqueConstraintsLifted { edits[lifted.column, default: []].insert(.dropUnique) }
            if !edits.isEmpty {
                try TableRebuild(connection: connection, table: table).run(
                    editing: edits,
                    purpose: "changing NOT NULL or UNIQUE of \(edits.keys.sorted().joined(separator: ", "))")
            }
        }
        let schema = SchemaSQL(dialect: connection.dialect)
        for lifted in changes.uniqueIndexesLifted {
            try connection.change(.dropIndex, on: table, schema.dropIndex(lifted.index))
        }
        for column in changes.uniqueAdded {
            if online, let property = mapping.columns.first(where: { $0.column == column }) {
                later.append(.uniqueIndex(mapping, property))
            } else {
                try addUniqueIndex(column, to: table)
            }
        }
        return log(changes, table)
    }

    /// Makes the unique index of a `UNIQUE` attribute on `column`, and checks it is there: its
    /// name may be taken by another index (SQLite compares names without case), which
    /// `IF NOT EXISTS` would quietly leave alone.
    func addUniqueIndex(_ column: String, to table: String, concurrently: Bool = false) throws {
        try connection.change(
            concurrently ? .createIndexConcurrently : .createIndex(newTable: false), on: table,
            sql.createAttributeIndex(column, of: table, concurrently: concurrently))
        try checkUniqueIndex(column, of: table)
    }

    /// Refuses a unique index of `column` that is not there after `IF NOT EXISTS` made it: its
    /// name is another's.
    func checkUniqueIndex(_ column: String, of table: String) throws {
        guard !connection.isPlanning,
            !(try uniqueIndexes(of: table)).contains(where: { $0.column.lowercased() == column.lowercased() })
        else { return }
        throw DBBError(
            .migrationRefused, table: table, property: column,
            "the unique index of \(table).\(column) cannot be made: its name, "
                + "\(connection.dialect.attributeIndexName(table: table, column: column)), is taken by another index or table. "
                + "Nothing was changed: rename or drop that one, or map the class to another table (databaseTableName)")
    }

    private func log(_ changes: Changes, _ table: String) -> [String] {
        var lines: [String] = []
        func quoted(_ columns: [String]) -> String { columns.map { "\"\($0)\"" }.joined(separator: ", ") }
        if !changes.released.isEmpty {
            lines.append(
                "dropped NOT NULL from \(quoted(changes.released)) of \"\(table)\" (no property maps them now)")
        }
        if !changes.notNullLifted.isEmpty {
            lines.append(
                "dropped NOT NULL from \(quoted(changes.notNullLifted)) of \"\(table)\" (their properties no longer "
                    + "declare it)")
        }
        if !changes.notNullAdded.isEmpty, !online {
            lines.append("added NOT NULL to \(quoted(changes.notNullAdded)) of \"\(table)\"")
        }
        let liftedUnique = changes.uniqueConstraintsLifted.map(\.column) + changes.uniqueIndexesLifted.map(\.column)
        if !liftedUnique.isEmpty {
            lines.append(
                "dropped UNIQUE from \(quoted(liftedUnique)) of \"\(table)\" (their properties no longer declare it)")
        }
        for column in changes.uniqueAdded where !online {
            lines.append(
                "added UNIQUE to \"\(column)\" of \"\(table)\" (index "
                    + "\"\(connection.dialect.attributeIndexName(table: table, column: column))\")")
        }
        return lines
    }
}
