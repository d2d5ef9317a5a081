import DBBCore
import DBBFormat
import DBBSQLite

/// SQLite's spelling (3.38 or later: `json_each`, `pragma_table_xinfo`), in DBBBuilder's on-disk
/// layout: the column types and the `id` column DBBBuilder writes, names bare unless they must
/// be quoted, join rows deleted with their rows by triggers.
@_spi(DBBBackend)
public struct SQLiteDialect: DBBDialect {
    public init() {}

    public var name: String { "SQLite" }
    public var syntax: SQLSyntax { .sqlite }

    // MARK: - Names and values

    /// `name` as an identifier: bare when it is a plain identifier and not a keyword (so
    /// `CREATE TABLE` text reads as DBBBuilder wrote it), double-quoted otherwise.
    /// SQLite compares names without case, quoted or not.
    public var namesIgnoreCase: Bool { true }

    public func quote(_ name: String) -> String {
        if SQLText.isPlainIdentifier(name) && !Self.keywords.contains(name.uppercased()) { return name }
        return SQLQuoting.identifier(name)
    }

    public func literal(_ value: DBBValue) -> String? { SQLText.literal(value) }

    public func defaultLiteral(_ type: DBBStorageType) -> String {
        switch type {
        case .string: "''"
        case .binary: "x''"
        case .decimal, .decimalArray: "'0'"
        case .uuid, .uuidArray: "'00000000-0000-0000-0000-000000000000'"
        case .json: "'null'"
        default: "0"
        }
    }

    public var longestName: Int? { nil }

    // MARK: - Tables

    /// The column type DBBBuilder writes on SQLite for a storage type (dates are `Real`;
    /// decimals, UUIDs and JSON are `Text`, an affinity that keeps their text as it is).
    public func columnType(_ type: DBBStorageType) -> String {
        switch type {
        case .bool: "Boolean"
        case .int: "Integer"
        case .float, .date: "Real"
        case .string, .decimal, .uuid, .json, .decimalArray, .uuidArray: "Text"
        case .binary: "BLOB"
        case .dbbObject, .dbbObjectArray: "Integer"
        case .boolArray: "Boolean"
        case .intArray: "Integer"
        case .floatArray: "Real"
        case .stringArray: "Text"
        case .dateArray: DBBFormat.dateArrayColumnType
        }
    }

    public var idDefinition: String { "id Integer PRIMARY KEY AUTOINCREMENT" }
    public var idType: String { "INTEGER" }
    public var returningID: String { "" }
    public func joinColumnReference(to table: String) -> String { "" }
    public var deletesJoinRowsWithTriggers: Bool { true }

    public func holds(_ type: DBBStorageType, declaredType: String) -> Bool {
        Self.compatibleAffinities(type).contains(Affinity(declaredType: declaredType))
    }

    public func explain(declaredType: String) -> String {
        " (\(Affinity(declaredType: declaredType).rawValue) affinity)"
    }

    /// `nil`: SQLite's `ALTER TABLE` cannot change a column's type; the table is rebuilt.
    public func alterColumnType(_ column: String, of table: String, to type: String) -> String? { nil }

    // MARK: - Values of a column's type

    /// `?`: SQLite binds text into any column.
    public func parameter(_ type: DBBStorageType) -> String { "?" }

    /// The column: its text is the value.
    public func selected(_ column: String, _ type: DBBStorageType) -> String { column }

    /// A `Decimal` column under `dbb_decimal` (``DBBSQLite/SQLiteCollation/decimal``), which
    /// every connection of a manager has, so that `9` < `10` as in PostgreSQL's `numeric`; a
    /// `UUID` column under `NOCASE`, so that a UUID written in upper case by other SQL equals
    /// the same UUID in lower case, as in PostgreSQL's `uuid`.
    public func compared(_ column: String, _ type: DBBStorageType) -> String {
        switch type {
        case .decimal, .decimalArray: "\(column) COLLATE \(SQLiteCollation.decimal.name)"
        case .uuid, .uuidArray: "\(column) COLLATE NOCASE"
        default: column
        }
    }

    // MARK: - Queries

    public func inIDList(_ column: String) -> String { "\(column) IN (SELECT value FROM json_each(?))" }
    public func nullsOrder(descending: Bool) -> String { "" }
    public func condition(_ sql: String) -> String { sql }

    // MARK: - Typed queries

    public func placeholder(_ number: Int) -> String { "?\(number)" }

    /// `sql`: SQLite's `SUM` of integers is an integer, its `AVG` a `REAL`.
    public func result(_ sql: String, as type: DBBStorageType) -> String { sql }

    /// `sql`: SQLite takes any integer as a truth value.
    public func truth(_ sql: String) -> String { sql }

    /// `sql`: a condition is 1, 0 or `NULL`.
    public func storedTruth(_ sql: String) -> String { sql }

    /// `CASE WHEN typeof(v) = 'integer' AND v BETWEEN lo AND hi THEN v ELSE abs(-9223372036854775807 - 1)
    /// END`: the value, or SQLite's "integer overflow" error. Checked for the numbers that
    /// arithmetic can leave outside their type; text expressions give text.
    public func guarded(_ sql: String, _ type: DBBStorageType, canHoldNil: Bool, bounds: ClosedRange<Int64>?)
        -> String?
    {
        // Parenthesized: `a OR b BETWEEN 0 AND 1` would test b alone.
        storable("(\(sql))", type, canHoldNil: canHoldNil, bounds: bounds).map { storable in
            "CASE WHEN \(storable) THEN \(sql) ELSE abs(-9223372036854775807 - 1) END"
        }
    }

    /// `CASE WHEN <storable> THEN NULL ELSE quote(c) END`.
    public func misstored(_ column: String, _ type: DBBStorageType, canHoldNil: Bool, bounds: ClosedRange<Int64>?)
        -> String?
    {
        storable(column, type, canHoldNil: canHoldNil, bounds: bounds).map { storable in
            "CASE WHEN \(storable) THEN NULL ELSE quote(\(column)) END"
        }
    }

    /// Whether `value` is one a save of `type` writes (a `Real` column keeps an integer as a
    /// real), or `nil` when an expression of the property's type cannot give another.
    private func storable(_ value: String, _ type: DBBStorageType, canHoldNil: Bool, bounds: ClosedRange<Int64>?)
        -> String?
    {
        let test: String
        switch type {
        case .bool, .int:
            test =
                "typeof(\(value)) = 'integer'"
                + (bounds.map { " AND \(value) BETWEEN \($0.lowerBound) AND \($0.upperBound)" } ?? "")
        case .float, .date:
            guard !canHoldNil else { return nil }
            test = "typeof(\(value)) IN ('real', 'integer')"
        default:
            return nil
        }
        return canHoldNil ? "(typeof(\(value)) = 'null' OR (\(test)))" : test
    }

    /// `GLOB` (case-sensitive, as SQLite's `LIKE` is not) with the pattern in its syntax, or
    /// `LIKE`, which folds ASCII letters only.
    public func like(_ value: String, _ pattern: String, ignoringCase: Bool) -> String {
        ignoringCase ? "\(value) LIKE \(pattern) ESCAPE '\\'" : "\(value) GLOB \(pattern)"
    }

    public func likePattern(_ pattern: String, ignoringCase: Bool) -> String {
        ignoringCase ? LikePattern.escaped(pattern, foldingASCII: false) : LikePattern.glob(pattern)
    }
    public var foldsJoinRows: Bool { false }
    public func refusal(of value: DBBValue) -> DBBError? { nil }
    public var refusesValues: Bool { false }

    // MARK: - Schema introspection and locks

    /// `nil`: the schema change's `BEGIN IMMEDIATE` holds off every other writer.
    public var schemaLock: String? { nil }

    public var tableColumns: String {
        "SELECT name, type, \"notnull\", dflt_value, hidden, pk FROM pragma_table_xinfo(?)"
    }

    /// Indexes of origin `pk`: none when the key is the row id (`INTEGER PRIMARY KEY` of a rowid table).
    public var primaryKeyIndexCount: String { "SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'" }

    public var versionTableExists: String {
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(DBBFormat.versionTable)'"
    }

    public var indexExists: String {
        "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ? COLLATE NOCASE"
    }

    /// Tables, indexes and views share one namespace (triggers have their own).
    public func schemaObjects(named count: Int) -> String {
        "SELECT name, type, tbl_name FROM sqlite_master WHERE type IN ('table', 'index', 'view') AND name COLLATE NOCASE IN ("
            + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
    }

    /// None: SQLite refuses the names it keeps for itself (`sqlite_…`) with an error of its own,
    /// and the locale functions are functions of the connection, with no table.
    public var reservedTables: [(name: String, role: String)] { [] }

    // MARK: - Constraints

    /// SQLite names no `UNIQUE` constraint: the third column is `''` for one.
    public var singleColumnUniqueIndexes: String {
        """
        SELECT l.name, i.name, CASE l.origin WHEN 'u' THEN '' END, \
        (SELECT group_concat(m.name || '.' || f."from", ', ') FROM sqlite_master m, pragma_foreign_key_list(m.name) f \
        WHERE m.type = 'table' AND f."table" = ?1 COLLATE NOCASE AND f."to" = i.name COLLATE NOCASE) \
        FROM pragma_index_list(?1) l, pragma_index_info(l.name) i WHERE l."unique" = 1 AND l.partial = 0 \
        AND l.origin <> 'pk' AND i.name IS NOT NULL AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
        """
    }

    /// `<Table>_<column>_unique`.
    public func attributeIndexName(table: String, column: String) -> String { "\(table)_\(column)_unique" }

    /// Names compared without case, as SQLite compares them.
    public func isAttributeIndex(_ name: String, table: String, column: String) -> Bool {
        name.lowercased() == attributeIndexName(table: table, column: column).lowercased()
    }

    /// SQLite names no constraint: each is taken for the attribute's.
    public func isAttributeConstraint(_ name: String, table: String, column: String) -> Bool { true }

    /// `nil`: the migration's `BEGIN IMMEDIATE` holds off other writers.
    public func lockAgainstWrites(_ table: String) -> String? { nil }

    /// SQLite cannot add or drop a column constraint: the table is rebuilt.
    public var altersConstraintsInPlace: Bool { false }

    /// One writer holds the whole database: a registration is one transaction, all or nothing.
    public var changesSchemaOnline: Bool { false }
    public func lockTimeout(milliseconds: Int) -> String? { nil }
    public func lockHolders(of tables: [String]) -> String? { nil }
    public var invalidIndexCount: String { "SELECT 0 WHERE ? IS NOT NULL" }
    public var concurrently: String { "" }

    public func impact(of kind: SchemaStatementKind) -> SchemaImpact {
        let lock = "the database's write lock, until the transaction ends"
        let meanwhile = "other connections read (WAL); their writes wait until the transaction ends"
        switch kind {
        case .createIndex(newTable: false): return SchemaImpact(lock, meanwhile, holdsWritersOff: true, work: .scan)
        case .rebuild(copiesRows: true): return SchemaImpact(lock, meanwhile, holdsWritersOff: true, work: .rewrite)
        case .deleteOrphans: return SchemaImpact(lock, meanwhile, work: .scan)
        default: return SchemaImpact(lock, meanwhile)
        }
    }

    /// SQLite keeps no estimate: `NULL`, so the rows are counted.
    public func rowEstimate(_ table: String) -> String { "SELECT NULL" }
    public func dropIndexConcurrently(_ name: String) -> String { "DROP INDEX IF EXISTS \(quote(name))" }
    public func notNullCheckName(table: String, column: String) -> String { "\(table)_\(column)_not_null" }
    public func addNotNullCheck(_ column: String, of table: String) -> String {
        preconditionFailure("SQLite adds NOT NULL by rebuilding the table")
    }
    public func validateConstraint(_ name: String, of table: String) -> String {
        preconditionFailure("SQLite adds NOT NULL by rebuilding the table")
    }
    public func constraintCount(_ name: String, of table: String) -> String { "SELECT 0" }
    public var indexBuildCount: String { "SELECT 0 WHERE ? IS NOT NULL" }

    // MARK: - Copies between databases

    /// The main file's path, compared by device and inode.
    public var databaseIdentity: String { "SELECT file FROM pragma_database_list WHERE name = 'main'" }
    public var identifiesByFile: Bool { true }

    /// `nil`: the copy's `BEGIN IMMEDIATE` keeps other writers out.
    public func lockTables(_ tables: [String]) -> String? { nil }

    /// `sqlite_sequence`'s counter (`AUTOINCREMENT`).
    public var lastID: String { "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = ?), 0)" }
    public func lastIDArgument(_ table: String) -> DBBValue { .text(table) }

    public func raiseLastID(_ table: String, to id: Int64) -> [(sql: String, arguments: [DBBValue])] {
        [
            (
                "UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?",
                [.integer(id), .text(table), .integer(id)]
            ),
            (
                "INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)",
                [.text(table), .integer(id), .text(table)]
            ),
        ]
    }

    // MARK: - Raw SQL

    /// `VACUUM`, `ATTACH`, `DETACH` and `PRAGMA` (some pragmas do nothing inside a transaction).
    public func mustRunOutsideTransaction(_ statement: [SQLToken]) -> Bool {
        ["VACUUM", "ATTACH", "DETACH", "PRAGMA"].contains(RawScriptSQL.words(statement, 1).first ?? "")
    }

    // MARK: - Affinity

    /// SQLite's type affinities. See [Determination of column affinity](https://www.sqlite.org/datatype3.html#determination_of_column_affinity).
    enum Affinity: String {
        case integer = "INTEGER"
        case text = "TEXT"
        case blob = "BLOB"
        case real = "REAL"
        case numeric = "NUMERIC"

        /// The affinity of a column declared with `declaredType`, by SQLite's rules in their order.
        init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.contains("BLOB") || type.isEmpty {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }
    }

    /// The affinities of columns that hold a storage type's values and give them back as they
    /// were stored: a column declared otherwise would convert them (text in an `Integer`
    /// column, reals in one that rounds them).
    static func compatibleAffinities(_ type: DBBStorageType) -> Set<Affinity> {
        switch type {
        case .bool, .int, .boolArray, .intArray, .dbbObject, .dbbObjectArray: [.integer, .numeric]
        case .float, .date, .floatArray, .dateArray: [.real, .numeric]
        case .string, .stringArray, .decimal, .uuid, .json, .decimalArray, .uuidArray: [.text]
        case .binary: [.blob]
        }
    }

    /// SQLite's keywords (https://www.sqlite.org/lang_keywords.html): names that must be quoted.
    static let keywords: Set<String> = [
        "ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS", "ANALYZE", "AND", "AS", "ASC", "ATTACH",
        "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE", "CASE", "CAST", "CHECK", "COLLATE",
        "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS", "CURRENT", "CURRENT_DATE",
        "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT", "DEFERRABLE", "DEFERRED", "DELETE", "DESC",
        "DETACH", "DISTINCT", "DO", "DROP", "EACH", "ELSE", "END", "ESCAPE", "EXCEPT", "EXCLUDE", "EXCLUSIVE",
        "EXISTS", "EXPLAIN", "FAIL", "FILTER", "FIRST", "FOLLOWING", "FOR", "FOREIGN", "FROM", "FULL",
        "GENERATED", "GLOB", "GROUP", "GROUPS", "HAVING", "IF", "IGNORE", "IMMEDIATE", "IN", "INDEX", "INDEXED",
        "INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO", "IS", "ISNULL", "JOIN", "KEY", "LAST",
        "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL", "NO", "NOT", "NOTHING", "NOTNULL", "NULL",
        "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS", "OUTER", "OVER", "PARTITION", "PLAN", "PRAGMA",
        "PRECEDING", "PRIMARY", "QUERY", "RAISE", "RANGE", "RECURSIVE", "REFERENCES", "REGEXP", "REINDEX",
        "RELEASE", "RENAME", "REPLACE", "RESTRICT", "RETURNING", "RIGHT", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT",
        "SELECT", "SET", "TABLE", "TEMP", "TEMPORARY", "THEN", "TIES", "TO", "TRANSACTION", "TRIGGER",
        "UNBOUNDED", "UNION", "UNIQUE", "UPDATE", "USING", "VACUUM", "VALUES", "VIEW", "VIRTUAL", "WHEN", "WHERE",
        "WINDOW", "WITH", "WITHOUT",
    ]
}
