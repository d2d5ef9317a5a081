import DBBFormat

/// Names a generated class or property may not take, because the code beside it already means
/// something by them. The lists are DBBBuilder's declarations as they are; a test reads
/// DBBBuilder's sources and fails when one of them no longer matches.
enum ReservedNames {
    /// The public and open instance properties of `DBBTableObject` (its extensions' too): a
    /// subclass cannot declare a stored property of one of these names.
    static let tableObjectProperties: Set<String> = [
        "attributesDictionary", "changedPropertyNames", "createdTime", "dbManager", "hasChanges", "id", "idNum",
        "isDeleted", "isDirty", "isPartiallyLoaded", "modifiedTime", "shortName", "unloadedPropertyNames",
    ]

    /// The public and open instance methods of `DBBTableObject`: a property of one of these names
    /// compiles, but `object.save` would then name two things.
    static let tableObjectMethods: Set<String> = [
        "delete", "makeDirty", "markAssigned", "performPostSaveActions", "performPreSaveActions", "readColumns",
        "save", "saveToDB", "willSave", "writeColumns",
    ]

    /// Keywords a property cannot be named even in backticks, since `self.name` and `\Class.name`
    /// (which `@DBBTable` writes) would mean something else.
    static let unusableProperties: Set<String> = ["self", "init", "super", "Type", "Protocol", "Self"]

    /// Columns (compared ignoring case) no property may map besides ``DBBFormat/reservedColumns``:
    /// DBBBuilder's queries read `idNum` as `id`, and `@DBBTable` refuses it.
    static func isUnmappableColumn(_ column: String) -> Bool { column.lowercased() == "idnum" }

    /// Whether a property may not be named `name`.
    static func isReservedProperty(_ name: String) -> Bool {
        tableObjectProperties.contains(name) || tableObjectMethods.contains(name) || unusableProperties.contains(name)
    }

    /// The public types and macros of DBBBuilder and of the modules it exports (DBBCore,
    /// DBBSQLite): a class of the same name in the generated module would hide them from the
    /// classes beside it (and `@Column` or `@Unique` would name the class).
    static let libraryTypes: Set<String> = [
        "AsyncReadingAccess", "Column", "ColumnAttribute", "ColumnAttributes", "ColumnSorting", "DBBArguments",
        "DBBArithmeticValue", "DBBArrayElement", "DBBAssignment", "DBBBuilderVersion", "DBBCalendarUnit",
        "DBBColumnKey", "DBBColumnReader", "DBBColumnValue", "DBBCondition", "DBBDateValue", "DBBDialect", "DBBError",
        "DBBExpression", "DBBGeneratedMapping", "DBBIndexer", "DBBIntegerColumnValue", "DBBIntegerConvertible",
        "DBBJoin", "DBBLeftJoin", "DBBManager", "DBBMigrationPlan", "DBBMigrationStep", "DBBPropertyPersistence",
        "DBBQueryOptions", "DBBQuerySQL", "DBBRow",
        "DBBRowDecoder", "DBBRowEncoder", "DBBSchemaChanges", "DBBSelect", "DBBServerError", "DBBSort",
        "DBBStorageType", "DBBTable",
        "DBBTableObject", "DBBTableObjectFetching", "DBBTraceHandler", "DBBValue", "DBBValueArray",
        "DBBValueConvertible", "DBBValueReader", "DBBValueRow", "DBBValueType", "DBBWideUnsignedColumnValue",
        "DBBWrite", "DatabaseAccess", "SchemaImpact", "SchemaStatementKind", "DatabaseConnection", "DatabaseFailure",
        "DatabasePlace", "DatabaseRows",
        "DatabaseStatement", "DatabaseTransactionMode", "FairSemaphore", "Indexed", "JSON", "LikePattern", "Locked",
        "NotNull", "PlaceholderSQL", "PlannedStatement", "RawScriptSQL", "RoundTripPlan", "RowsPlan", "SQLQuoting",
        "SQLSyntax", "SQLText", "SQLToken", "SQLTokenizer", "SQLiteAggregate", "SQLiteArguments", "SQLiteCollation",
        "SQLiteConfiguration", "SQLiteConnection", "SQLiteDialect", "SQLiteError", "SQLiteFunction",
        "SQLiteFunctionArguments", "SQLiteIntegerConvertible", "SQLiteResultCode", "SQLiteRow", "SQLiteStatement",
        "SQLiteTraceHandler", "SQLiteTransactionKind", "SQLiteType", "SQLiteValue", "SQLiteValueConvertible",
        "SQLiteValueReader", "SchemaCatalog", "SetWritingConnection", "StatementDeadline", "StatementLogging",
        "TraceSwitch", "Transient", "Unique", "WriterThread", "_DBBStored",
    ]

    /// Swift's and Foundation's names that generated classes use or that cannot be a class name.
    static let languageTypes: Set<String> = DBBFormat.columnTypeNames.union([
        "Any", "AnyObject", "Array", "Character", "Codable", "Data", "Decodable", "Dictionary", "Encodable",
        "Equatable", "Error", "Foundation", "Hashable", "Never", "Optional", "Protocol", "Self", "Sendable", "Set",
        "Swift", "Type", "Void", StoredJSON.typeName,
    ])

    /// Whether a generated class may not be named `name`.
    static func isReservedType(_ name: String) -> Bool {
        libraryTypes.contains(name) || languageTypes.contains(name)
    }
}
