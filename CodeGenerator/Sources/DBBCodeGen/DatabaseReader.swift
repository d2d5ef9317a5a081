import DBBFormat
import DBBSQLite
import Foundation

/// Reads the tables of an existing database (one written by DBBBuilder, or any SQLite file)
/// as class declarations: columns become properties, DBBBuilder join tables
/// `<Table>_<column>(id, <Table>_ID, <column>)` become array properties — or references, for
/// the columns `references` names.
public enum DatabaseReader {
    /// One class to generate.
    public struct Table: Sendable {
        public let className: String
        public let properties: [PropertyDeclaration]
        public let options: GeneratorOptions
    }

    /// The classes of the tables of the database at `url` (all, or those in `only`).
    ///
    /// - Parameter references: join columns that hold ids of another table, by
    ///   `Table.column` or `column`: `["Meeting.participants": "Person"]`. A reference
    ///   becomes `Target?` when no object has more than one, else `[Target]`.
    public static func tables(at url: URL, only: [String] = [], references: [String: String] = [:]) throws -> [Table] {
        var configuration = SQLiteConfiguration()
        configuration.access = .readOnly
        configuration.journalMode = nil
        let db = try SQLiteConnection(path: url.path, configuration: configuration)
        let names = try db.fetchAll(
            """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
            """
        ) { $0.string(at: 0) ?? "" }
        let tableSet = Set(names)
        var joinTables: [String: [(column: String, table: String)]] = [:]
        for name in names {
            for owner in names where name.hasPrefix(owner + "_") {
                let column = String(name.dropFirst(owner.count + 1))
                let columns = try db.fetchAll("SELECT name FROM pragma_table_info(?)", [.text(name)]) {
                    $0.string(at: 0) ?? ""
                }
                if DBBFormat.isJoinTable(name, columns: Set(columns), owner: owner, column: column) {
                    joinTables[owner, default: []].append((column, name))
                }
            }
        }
        let joinTableNames = Set(joinTables.values.flatMap { $0.map(\.table) })
        let wanted =
            only.isEmpty
            ? names.filter {
                !joinTableNames.contains($0) && $0 != DBBFormat.versionTable && $0 != DBBFormat.columnsTable
            } : only
        return try wanted.map { name in
            guard tableSet.contains(name) else {
                throw CodeGenError(line: 0, text: name, reason: "the database has no table \(name)")
            }
            return try table(name, db: db, joins: joinTables[name] ?? [], references: references)
        }
    }

    private static func table(
        _ name: String, db: SQLiteConnection, joins: [(column: String, table: String)],
        references: [String: String]
    ) throws -> Table {
        var properties: [PropertyDeclaration] = []
        var options = GeneratorOptions(className: className(name))
        options.source = "table \(name)"
        let columns = try db.fetchAll(
            "SELECT name, type, \"notnull\" FROM pragma_table_info(?) ORDER BY cid", [.text(name)]
        ) {
            ($0.string(at: 0) ?? "", ($0.string(at: 1) ?? "").uppercased(), $0.bool(at: 2))
        }
        for (column, declared, notNull) in columns where !DBBFormat.isReserved(column) {
            let base = scalarType(declared, column: column)
            let property = propertyName(column)
            if property != column { options.columns[property] = column }
            if notNull { options.notNull.append(property) }
            properties.append(
                PropertyDeclaration(name: property, type: notNull ? base : .optional(base), defaultValue: nil, line: 0))
        }
        for (column, joinTable) in joins {
            let declared =
                try db.fetchValue(
                    "SELECT type FROM pragma_table_info(?) WHERE name = ?",
                    [.text(joinTable), .text(column)], as: String.self)?.uppercased() ?? ""
            let property = propertyName(column)
            if property != column { options.columns[property] = column }
            let type: PropertyType
            if let target = references["\(name).\(column)"] ?? references[column] {
                let most =
                    try db.fetchValue(
                        "SELECT max(c) FROM (SELECT count(*) AS c FROM \"\(joinTable)\" GROUP BY \"\(DBBFormat.ownerColumn(name))\")",
                        as: Int.self) ?? 0
                type = most > 1 ? .array(.named(target)) : .optional(.named(target))
            } else if declared == "BLOB" {
                type = .optional(.named("Data"))
            } else {
                type = .array(
                    declared == DBBFormat.dateArrayColumnType.uppercased()
                        ? .named("Date") : scalarType(declared, column: column))
            }
            properties.append(PropertyDeclaration(name: property, type: type, defaultValue: nil, line: 0))
        }
        return Table(className: options.className, properties: properties, options: options)
    }

    /// The Swift type of a column of DBBBuilder's types. A `Real` column is a `Date` when its
    /// name says so (…Date, …Time, …At, date…), as DBBBuilder stores dates as `Real`.
    static func scalarType(_ declared: String, column: String) -> PropertyType {
        switch declared {
        case "BOOLEAN", "BOOL": return .named("Bool")
        case "INTEGER", "INT", "BIGINT": return .named("Int")
        case "TEXT", "VARCHAR", "CHAR", "STRING": return .named("String")
        case "BLOB": return .named("Data")
        case "DATETIMESTAMP", "DATE", "DATETIME": return .named("Date")
        default:
            if declared.hasPrefix("VARCHAR") || declared.hasPrefix("CHAR") { return .named("String") }
            let lower = column.lowercased()
            if ["date", "time"].contains(where: { lower.hasSuffix($0) || lower.hasPrefix($0) })
                || column.hasSuffix("At")
            {
                return .named("Date")
            }
            return .named("Double")
        }
    }

    /// A property name for a column: the column itself when it is an identifier starting
    /// lowercase, else a lowerCamelCase spelling of it.
    static func propertyName(_ column: String) -> String {
        if DeclarationParser.isIdentifier(column), column.first?.isLowercase == true,
            !DeclarationParser.reservedNames.contains(column)
        {
            return column
        }
        let words = column.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        var name = words.enumerated().map { index, word in
            index == 0 ? word.prefix(1).lowercased() + word.dropFirst() : word.prefix(1).uppercased() + word.dropFirst()
        }.joined()
        if name.isEmpty || name.first?.isNumber == true { name = "column" + name }
        if DeclarationParser.reservedNames.contains(name) { name += "Value" }
        return name
    }

    /// The class name of a table: itself when it is a class name, else capitalized.
    static func className(_ table: String) -> String {
        if PropertyType.isClassName(table) { return table }
        let words = table.split(whereSeparator: { !($0.isLetter || $0.isNumber) })
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
