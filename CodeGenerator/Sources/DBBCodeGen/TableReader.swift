@_spi(DBBBackend) import DBBBuilder
import DBBFormat

/// Reads one table (and its join tables) as the class that registers against it unchanged:
/// the properties and types the catalog recorded, or the fallbacks of ``ColumnFallback``;
/// `@NotNull` where the column is `NOT NULL`, `@Unique` where a unique index stands on it
/// alone, the indexes registration names (`<Table>_<properties>`) as `@Indexed` and `indexes:`.
struct TableReader {
    let connection: any DatabaseConnection
    let engine: any EngineCatalog
    /// The package's catalog of the database, `nil` when it has none (or may not be read).
    let catalog: SchemaCatalog?
    /// `--reference`: join columns holding ids of a class, by `Table.column` or `column`.
    let references: [String: String]
    /// The class generated for a table.
    let className: (String) -> String
    /// What the reader says beside the classes (to standard error).
    var notes: [String] = []

    private var dialect: any DBBDialect { connection.dialect }

    /// A column as the dialect's ``DBBDialect/tableColumns`` lists it.
    struct Column {
        let name: String
        let type: String
        let notNull: Bool
        let primaryKey: Int
        let denied: Bool
    }

    func columns(of table: String) throws -> [Column] {
        try connection.rows(dialect.tableColumns, [.text(table)]).map { row in
            Column(
                name: row[0].textValue ?? "", type: row[1].textValue ?? "", notNull: row[2].isNonZero,
                primaryKey: Int(row[5].integerValue), denied: row.count > 6 && !row[6].isNull)
        }
    }

    /// The class of `table`, or why registration could not take it (thrown as ``TableSkipped``).
    mutating func read(_ table: String, joins: [(column: String, table: String)], allTables: Set<String>) throws
        -> DatabaseReader.Table
    {
        let columns = try columns(of: table)
        try refuseUnmappable(table, columns, allTables: allTables)
        let recorded = try catalog?.recorded(table) ?? []
        var options = GeneratorOptions(className: className(table))
        options.source = "table \(table)"
        if options.className != table { options.tableName = table }
        var properties: [PropertyDeclaration] = []
        var propertyOfColumn: [String: String] = [:]
        let defaults = try engine.defaults(of: table)
        let computed = try engine.generatedColumns(of: table)
        let joins = joins.sorted(by: { $0.column < $1.column })
        let names = propertyNames(
            table,
            columns: columns.map(\.name).filter {
                !DBBFormat.isReserved($0) && !computed.contains($0) && !ReservedNames.isUnmappableColumn($0)
            },
            joins: joins, recorded: recorded)
        for column in columns where !DBBFormat.isReserved(column.name) {
            if computed.contains(column.name) {
                notes.append("\(table).\(column.name) is a generated column: left out (nothing can write it)")
                continue
            }
            if ReservedNames.isUnmappableColumn(column.name) {
                notes.append(
                    "\(table).\(column.name) is left out, its data stays: queries read \(column.name) as id, so no "
                        + "property can map it")
                continue
            }
            let entry = SchemaCatalog.describing(recorded, column: column.name, joinTable: nil)
            if let entry, !entry.mapped {
                notes.append(unmappedNote(table, column.name, entry))
                continue
            }
            let property = names.columns[column.name] ?? DatabaseReader.propertyName(column.name)
            var generated: GeneratedType
            let fromCatalog = entry?.generatedType(className: className)
            if let fromCatalog {
                generated = fromCatalog
            } else {
                guard let fallback = ColumnFallback.columnType(column.type, dialect) else {
                    throw TableSkipped(
                        table: table,
                        reason: "its column '\(column.name)' is declared '\(column.type)', which no property type "
                            + "holds in the object's table (Data lives in a join table)")
                }
                generated = GeneratedType(type: .named(fallback.name), isJSON: fallback.isJSON)
                if fallback.name == "Double", ColumnFallback.soundsLikeDate(column.name) {
                    notes.append(
                        "\(table).\(column.name) is \(column.type) and named like a date, but no catalog says it is one: "
                            + "generated as Double (make it Date if it holds seconds since 2001)")
                }
            }
            let constant = defaults[column.name].flatMap { engine.constant($0) }
            if fromCatalog == nil, !column.notNull {
                // Optional unless a DEFAULT fills it and no row holds NULL.
                var nullable = true
                if let constant, constant != .null { nullable = try engine.nullCount(table, column.name) > 0 }
                if nullable { generated.type = .optional(generated.type) }
            }
            let value = constant.flatMap { ColumnFallback.literal($0, for: generated.type) }
            if let text = defaults[column.name], value == nil, constant != .null, !generated.type.isOptional {
                notes.append(
                    "\(table).\(column.name): its DEFAULT \(text) is not carried over (not a constant of its type)")
            }
            properties.append(declaration(property, generated, defaultValue: value))
            propertyOfColumn[column.name.lowercased()] = property
            if property != column.name { options.columns[property] = column.name }
            if column.notNull { options.notNull.append(property) }
            if let comment = generated.comment { options.comments[property] = comment }
        }
        for join in joins {
            let entry = SchemaCatalog.describing(recorded, column: join.column, joinTable: join.table)
            if let entry, !entry.mapped {
                notes.append(unmappedNote(table, join.column, entry))
                continue
            }
            let property = names.joins[join.column] ?? DatabaseReader.propertyName(join.column)
            let generated: GeneratedType
            if let fromCatalog = entry?.generatedType(className: className) {
                generated = fromCatalog
            } else {
                generated = try joinType(table, join)
            }
            properties.append(declaration(property, generated, defaultValue: nil))
            if property != join.column { options.columns[property] = join.column }
            if let comment = generated.comment { options.comments[property] = comment }
        }
        let unique = try readIndexes(table, propertyOfColumn, into: &options)
        options.unique = properties.map(\.name).filter(unique.contains)
        return DatabaseReader.Table(className: options.className, properties: properties, options: options)
    }

    /// The property of each column and join column the class maps: the name the catalog
    /// recorded, or ``DatabaseReader/propertyName(_:)``'s; a recorded name and a column named
    /// as its property keep theirs, another that would take a name twice is numbered (noted).
    private mutating func propertyNames(
        _ table: String, columns: [String], joins: [(column: String, table: String)],
        recorded: [SchemaCatalog.Entry]
    ) -> (columns: [String: String], joins: [String: String]) {
        var wanted: [(name: String, keeps: Bool)] = []
        var origins: [(column: String, isJoin: Bool)] = []
        let all = columns.map { ($0, nil as String?) } + joins.map { ($0.column, $0.table as String?) }
        for (column, joinTable) in all {
            let entry = SchemaCatalog.describing(recorded, column: column, joinTable: joinTable)
            if let entry, !entry.mapped { continue }
            let name = entry?.property ?? DatabaseReader.propertyName(column)
            wanted.append((name, entry != nil || name == column))
            origins.append((column, joinTable != nil))
        }
        let assigned = DatabaseReader.uniqueNames(wanted) { $0 }
        var names: (columns: [String: String], joins: [String: String]) = ([:], [:])
        for (index, origin) in origins.enumerated() {
            if origin.isJoin {
                names.joins[origin.column] = assigned[index]
            } else {
                names.columns[origin.column] = assigned[index]
            }
            if assigned[index] != wanted[index].name {
                notes.append(
                    "\(table).\(origin.column) is generated as property \(assigned[index]), since another column's "
                        + "property is \(wanted[index].name)")
            }
        }
        return names
    }

    private func declaration(_ name: String, _ generated: GeneratedType, defaultValue: String?) -> PropertyDeclaration {
        PropertyDeclaration(
            name: name, type: generated.type, defaultValue: defaultValue ?? Self.start(of: generated.type), line: 0,
            isJSON: generated.isJSON)
    }

    /// A value to start with where the type has no obvious one.
    private static func start(of type: PropertyType) -> String? {
        switch type {
        case .named("URL"): "URL(string: \"about:blank\")!"
        case .named(StoredJSON.typeName): ".null"
        default: nil
        }
    }

    private func unmappedNote(_ table: String, _ column: String, _ entry: SchemaCatalog.Entry) -> String {
        "\(table).\(column) is no longer mapped by the class that wrote it (\(entry.property), recorded in "
            + "\(DBBFormat.columnsTable)): left out, its data stays"
    }

    // MARK: - Join tables without a catalog row

    /// The type of a join table's property from its layout: a reference (`Target?`, or `[Target]`
    /// when an object has several) where `--reference` or the engine names its target table,
    /// else an array of its value column's type, or `Data?` for bytes.
    private mutating func joinType(_ table: String, _ join: (column: String, table: String)) throws -> GeneratedType {
        let valueType = try columns(of: join.table).first { $0.name == join.column }?.type ?? ""
        var target = references["\(table).\(join.column)"] ?? references[join.column]
        if target == nil {
            target = try engine.referenceTarget(joinTable: join.table, column: join.column).map(className)
        }
        if let target {
            let most = try engine.mostRowsPerOwner(join.table, ownerColumn: DBBFormat.ownerColumn(table))
            if most <= 1 {
                notes.append(
                    "\(table).\(join.column) refers to \(target): generated as \(target)? (no object has more than one; "
                        + "make it [\(target)] if it is a list)")
            }
            return GeneratedType(type: most > 1 ? .array(.named(target)) : .optional(.named(target)))
        }
        guard let element = ColumnFallback.elementType(valueType, dialect) else {
            throw TableSkipped(
                table: table,
                reason:
                    "its join table \(join.table) holds values declared '\(valueType)', which no property type holds")
        }
        return GeneratedType(type: element == "Data" ? .optional(.named("Data")) : .array(.named(element)))
    }

    // MARK: - Indexes and constraints

    /// The indexes registration names (`@Indexed`, `indexes:`), into `options`; returns the
    /// properties to mark `@Unique`.
    private func readIndexes(
        _ table: String, _ propertyOfColumn: [String: String], into options: inout GeneratorOptions
    )
        throws -> Set<String>
    {
        var indexers: Set<String> = []
        for index in try engine.indexes(of: table).sorted(by: { $0.name < $1.name }) {
            let properties = index.columns.compactMap { propertyOfColumn[$0.lowercased()] }
            guard properties.count == index.columns.count, !properties.isEmpty,
                engine.same(index.name, DBBFormat.indexName(table, properties: properties))
            else { continue }
            options.indexes.append(GeneratorOptions.Index(properties: properties, unique: index.unique))
            indexers.insert(index.name)
        }
        // A unique index over one column that no indexer made: the attribute's (`_unique`, a
        // column's UNIQUE) or one of other SQL, which @Unique finds in place either way.
        var unique: Set<String> = []
        for row in try connection.rows(dialect.singleColumnUniqueIndexes, [.text(table)]) {
            guard let name = row[0].textValue, !indexers.contains(name),
                let property = row[1].textValue.flatMap({ propertyOfColumn[$0.lowercased()] })
            else { continue }
            unique.insert(property)
        }
        return unique
    }

    // MARK: - Tables registration would refuse

    /// Throws ``TableSkipped`` for a table registration would refuse or change beyond adding:
    /// columns the role may not read, an `id` that is not the row id, times that are not dates,
    /// the layout of a join table whose owner is missing.
    private mutating func refuseUnmappable(_ table: String, _ columns: [Column], allTables: Set<String>) throws {
        if let problem = try engine.tableKindProblem(table) { throw TableSkipped(table: table, reason: problem) }
        let denied = columns.filter(\.denied).map(\.name)
        if !denied.isEmpty {
            throw TableSkipped(
                table: table,
                reason: "this role may not read its column(s) \(denied.joined(separator: ", ")), so no fetch could")
        }
        if let problem = try rowIDProblem(table, columns) {
            throw TableSkipped(
                table: table,
                reason: "\(problem), and a table object needs 'id INTEGER PRIMARY KEY' (the row id; on PostgreSQL "
                    + "bigint, an identity) to save and fetch")
        }
        for time in [DBBFormat.createdTimeColumn, DBBFormat.modifiedTimeColumn] {
            guard let column = columns.first(where: { $0.name.lowercased() == time.lowercased() }) else {
                notes.append("\(table) has no column \(time): registering its class adds it")
                continue
            }
            guard dialect.holds(.date, declaredType: column.type) else {
                throw TableSkipped(
                    table: table,
                    reason: "its column '\(column.name)' is declared '\(column.type)', where a table object keeps its "
                        + "\(time) as a date (\(dialect.columnType(.date)))")
            }
        }
        if columns.count == 3,
            let owner = columns.first(where: { $0.name.lowercased().hasSuffix("_id") && $0.name.count > 3 }),
            let value = columns.first(where: { $0.name.lowercased() != DBBFormat.idColumn && $0.name != owner.name })
        {
            let ownerTable = String(owner.name.dropLast(3))
            if DBBFormat.joinTable(ownerTable, column: value.name).lowercased() == table.lowercased(),
                !allTables.contains(where: { $0.lowercased() == ownerTable.lowercased() })
            {
                throw TableSkipped(
                    table: table,
                    reason: "it is laid out as the join table of \(ownerTable).\(value.name), whose table "
                        + "\(ownerTable) is not in the database (registration refuses a class of that name)")
            }
        }
    }

    /// Why `id` is not the table's row id, as registration judges it, or `nil`.
    private func rowIDProblem(_ table: String, _ columns: [Column]) throws -> String? {
        guard let id = columns.first(where: { $0.name.lowercased() == DBBFormat.idColumn }) else {
            return "it has no column 'id'"
        }
        if id.type.uppercased() != dialect.idType { return "its column '\(id.name)' is declared '\(id.type)'" }
        if id.primaryKey == 0 || columns.filter({ $0.primaryKey > 0 }).count > 1 {
            return "its column '\(id.name)' is not the table's (only) PRIMARY KEY"
        }
        if try connection.integer(dialect.primaryKeyIndexCount, [.text(table)]) > 0 {
            return "its column '\(id.name)' is not the row id the engine gives new rows "
                + "(a WITHOUT ROWID table or a key declared DESC; on PostgreSQL, neither an identity nor a default)"
        }
        return nil
    }
}

/// A table the reader leaves out, and why.
struct TableSkipped: Error {
    let table: String
    let reason: String
}

extension DBBValue {
    /// An integer value, 0 for any other.
    var integerValue: Int64 { if case .integer(let value) = self { value } else { 0 } }
}
