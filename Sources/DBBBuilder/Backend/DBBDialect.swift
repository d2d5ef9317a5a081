import DBBSQLite

/// The SQL spelling of one backend, asked by the statement builders of `SQL/` for everything
/// that differs between engines: identifiers and literals, column types and the `id` column,
/// ids lists, sorting of `NULL`, schema introspection and locks, constraint names, the id
/// counter, what a raw statement may do inside a transaction. The text they share is built
/// once, in `SQL/`, around these answers.
///
/// Each backend owns its dialect: SQLite's is ``SQLiteDialect`` (in `Backend/SQLite/`),
/// PostgreSQL's is in the DBBPostgres module. A backend gives its dialect through
/// ``DatabaseConnection/dialect`` and ``DatabaseAccess/dialect``. Code outside a dialect asks
/// it; it never tests which dialect it has.
@_spi(DBBBackend)
public protocol DBBDialect: Sendable {
    /// The engine's name, for messages: `SQLite`, `PostgreSQL`.
    var name: String { get }

    /// How the engine's SQL text splits into tokens: quotes, comments, parameters.
    var syntax: SQLSyntax { get }

    // MARK: - Names and values

    /// `name` as an identifier.
    func quote(_ name: String) -> String

    /// Whether the engine takes names that differ only in case, quoted, for one table
    /// (SQLite), rather than for two (PostgreSQL).
    var namesIgnoreCase: Bool { get }

    /// `value` as a literal for a `DEFAULT` clause, or `nil` for `NULL` and `NaN` (and what
    /// the engine cannot spell as a literal).
    func literal(_ value: DBBValue) -> String?

    /// A literal of the column type of `type`, for the `DEFAULT` of a `NOT NULL` column added
    /// to a table that already has rows.
    func defaultLiteral(_ type: DBBStorageType) -> String

    /// The longest name the engine keeps whole, in UTF-8 bytes, or `nil` for no limit.
    var longestName: Int? { get }

    // MARK: - Tables

    /// The column type of a storage type.
    func columnType(_ type: DBBStorageType) -> String

    /// `id`'s definition in every table and join table.
    var idDefinition: String { get }

    /// The declared type `id` must have in a table DBBBuilder adopts.
    var idType: String { get }

    /// What follows an `INSERT` so that the engine gives the new row's id (nothing when the
    /// connection reports it, ``DatabaseConnection/lastInsertedRowID``).
    var returningID: String { get }

    /// What follows a join table's column that refers to `table`'s rows: a foreign key that
    /// deletes the join row with its row, or nothing when ``deletesJoinRowsWithTriggers``.
    func joinColumnReference(to table: String) -> String

    /// Whether join rows go with their rows through triggers on the rows' tables, rather than
    /// through the join tables' foreign keys.
    var deletesJoinRowsWithTriggers: Bool { get }

    /// Whether a column declared `declaredType` (as the catalog reports it) gives the values
    /// of `type` back as stored.
    func holds(_ type: DBBStorageType, declaredType: String) -> Bool

    /// What to add after a declared type in a message about it (SQLite's affinity), or `""`.
    func explain(declaredType: String) -> String

    /// The statement that changes the declared type of `column` of `table` to `type`,
    /// converting its values, or `nil` when the engine cannot and the table is rebuilt
    /// (``TableRebuild``).
    func alterColumnType(_ column: String, of table: String, to type: String) -> String?

    // MARK: - Values of a column's type

    /// Where a value for a column of `type` is bound: `?`, or the cast that makes the engine
    /// read the text of a `Decimal`, `UUID` or JSON value as the column's type
    /// (`CAST(? AS "numeric")`), which it does not do on its own for a text parameter.
    func parameter(_ type: DBBStorageType) -> String

    /// How a statement selects `column` (quoted), of `type`, so that its value reads back
    /// exactly: the column itself, or its text (a `numeric`, which would read as a double).
    func selected(_ column: String, _ type: DBBStorageType) -> String

    /// How conditions, sorting and grouping compare `column` (quoted), of `type`: the column
    /// itself, or under the collation that compares its values as the other engines compare
    /// them (SQLite's text of a `Decimal` as numbers, of a `UUID` without case).
    func compared(_ column: String, _ type: DBBStorageType) -> String

    // MARK: - Queries

    /// `column IN (…)` the ids of a list bound to its one `?` as ``SQLText/idList(_:)``.
    func inIDList(_ column: String) -> String

    /// What follows a sort term's direction so that `NULL` sorts first ascending and last
    /// descending (SQLite's order), on every engine.
    func nullsOrder(descending: Bool) -> String

    /// An application's condition, checked and mapped to columns, in the engine's spelling.
    func condition(_ sql: String) -> String

    // MARK: - Typed queries

    /// The placeholder of the bound value numbered `number` (from 1): SQLite's `?NNN`,
    /// PostgreSQL's `$NNN`. A typed query writes its own (see `SQLRenderer`), so that a value
    /// written twice — a locale in `SELECT` and `GROUP BY` — is one parameter and the two
    /// expressions are one to the engine.
    func placeholder(_ number: Int) -> String

    /// An aggregate's result (`sql`) as a value of `type`, as every engine gives it: PostgreSQL's
    /// `SUM` of `bigint` is `numeric` and its `AVG` of integers too, SQLite's are `INTEGER` and
    /// `REAL` already.
    func result(_ sql: String, as type: DBBStorageType) -> String

    /// A `Bool` column or value (`sql`, stored as 1 or 0) used as a condition: itself where the
    /// engine takes an integer as a truth value (SQLite), else `(sql <> 0)`.
    func truth(_ sql: String) -> String

    /// A condition (`sql`) written into a `Bool` column: itself where a condition is 1 or 0
    /// (SQLite), else cast to an integer.
    func storedTruth(_ sql: String) -> String

    /// The value `sql` that a set-based update writes into a column of `type`, guarded so that the
    /// statement fails when it is not a value a save could have stored (`NULL` only when
    /// `canHoldNil`; an integer within `bounds`, the property type's range when narrower than
    /// Int64's) — or `nil` when the column's type refuses every other value itself. SQLite stores
    /// what an expression gives: `NULL` for a division by zero, a `REAL` for an integer past
    /// Int64; either engine an integer past an `Int32` property's range.
    func guarded(_ sql: String, _ type: DBBStorageType, canHoldNil: Bool, bounds: ClosedRange<Int64>?) -> String?

    /// For the `RETURNING` of the update that finds which row failed ``guarded(_:_:canHoldNil:bounds:)``:
    /// SQL that is `NULL` when `column` (quoted) holds a value a save could have stored, and
    /// otherwise that value's text — or `nil` when the engine's own error names the value.
    func misstored(_ column: String, _ type: DBBStorageType, canHoldNil: Bool, bounds: ClosedRange<Int64>?) -> String?

    /// `value` matched against the pattern bound at `pattern` (``likePattern(_:ignoringCase:)``):
    /// `%` any text, `_` one character, `\` makes the next character plain. Case-sensitive, or
    /// with ASCII letters `A`–`Z` equal to `a`–`z` (and no other folding) when `ignoringCase`:
    /// the one rule every engine can keep.
    func like(_ value: String, _ pattern: String, ignoringCase: Bool) -> String

    /// The value bound for the `LIKE` pattern `pattern` in ``like(_:_:ignoringCase:)``.
    func likePattern(_ pattern: String, ignoringCase: Bool) -> String

    /// Whether a bounded fetch reads its objects' join rows in its own statement, as arrays
    /// (``JoinSQL/elements(_:owner:)``), rather than in one more statement a join property.
    var foldsJoinRows: Bool { get }

    /// Why the engine cannot store `value`, or `nil`.
    func refusal(of value: DBBValue) -> DBBError?

    /// Whether ``refusal(of:)`` can refuse anything: a save asks it for each value only then.
    var refusesValues: Bool { get }

    // MARK: - Schema introspection and locks

    /// Holds off every other manager's schema changes until the transaction ends, or `nil`
    /// when the transaction's own lock does.
    var schemaLock: String? { get }

    /// The columns of the table bound to `?`: name, declared type, `NOT NULL`, default,
    /// hidden (0 for an ordinary column), position in the primary key; and, for an engine with
    /// privileges, the role that may not read the column (`NULL` when the connection may).
    var tableColumns: String { get }

    /// How many indexes implement the primary key of the table bound to `?` (0 when `id` is
    /// the row id, or generated by the engine).
    var primaryKeyIndexCount: String { get }

    /// How many tables named DBBBuilder's version table there are (0 or 1).
    var versionTableExists: String { get }

    /// How many indexes are named as bound to `?` (0 or 1), in the schema the manager uses.
    var indexExists: String { get }

    /// What the schema the manager uses holds under the `count` names bound to its `?` (compared
    /// as the engine compares names): a row an object, its name, its kind (`table`, `index`,
    /// `view`, `sequence` or another word) and the table it belongs to (an index's table; a
    /// table's own name).
    func schemaObjects(named count: Int) -> String

    /// The tables the backend keeps for itself in the application's schema, with what each is
    /// for: no class's table, join table or index may take one of these names.
    var reservedTables: [(name: String, role: String)] { get }

    // MARK: - Constraints

    /// The unique indexes over exactly one column of the table bound to `?1`: index name,
    /// column name, the name of the `UNIQUE` constraint it backs (`''` when the engine names
    /// none, `NULL` for an index made by `CREATE UNIQUE INDEX`), the foreign keys referring to it.
    var singleColumnUniqueIndexes: String { get }

    /// The name of the unique index that stands for a `UNIQUE` attribute of `column`.
    func attributeIndexName(table: String, column: String) -> String

    /// Whether an index named `name` is the attribute index of `column`.
    func isAttributeIndex(_ name: String, table: String, column: String) -> Bool

    /// Whether a `UNIQUE` constraint named `name` is the one a column definition's `UNIQUE`
    /// makes for `column`.
    func isAttributeConstraint(_ name: String, table: String, column: String) -> Bool

    /// Holds off other sessions' writes to `table` until the transaction ends, or `nil` when
    /// the transaction's own lock does.
    func lockAgainstWrites(_ table: String) -> String?

    /// Whether `NOT NULL` and `UNIQUE` constraints are added and dropped with `ALTER TABLE`,
    /// rather than by rebuilding the table (``TableRebuild``).
    var altersConstraintsInPlace: Bool { get }

    // MARK: - Schema changes on a live database

    /// Whether registration changes an existing table without holding its writers off beyond
    /// a lock bound: each statement of the transaction under ``lockTimeout(milliseconds:)``,
    /// indexes on existing tables built concurrently after it, `NOT NULL` added through a
    /// validated check (PostgreSQL). `false` where the transaction holds the whole database
    /// anyway (SQLite), and registration runs as one transaction.
    var changesSchemaOnline: Bool { get }

    /// Bounds how long each later statement of the transaction waits for a lock, or `nil`.
    func lockTimeout(milliseconds: Int) -> String?

    /// The other sessions holding locks on `tables`, one row each: table, process id, state,
    /// seconds since its transaction began, the beginning of its query; or `nil`.
    func lockHolders(of tables: [String]) -> String?

    /// How many indexes named as bound to `?` are there but unusable (0 or 1): what a
    /// concurrent build that failed leaves behind.
    var invalidIndexCount: String { get }

    /// The word of `CREATE [UNIQUE] INDEX` that builds an index without holding off writes
    /// (`CONCURRENTLY `, a space after it), or `""`.
    var concurrently: String { get }

    /// What a registration's statement of `kind` locks and holds off, for its plan.
    func impact(of kind: SchemaStatementKind) -> SchemaImpact

    /// The engine's estimate of how many rows `table` holds, or `NULL` when it keeps none (the
    /// rows are then counted).
    func rowEstimate(_ table: String) -> String

    /// Drops the index `name` without holding off reads or writes of its table.
    func dropIndexConcurrently(_ name: String) -> String

    /// The name of the check that stands for `NOT NULL` on `column` while it is validated.
    func notNullCheckName(table: String, column: String) -> String

    /// Adds ``notNullCheckName(table:column:)`` unvalidated: new rows are checked, the old ones
    /// not scanned.
    func addNotNullCheck(_ column: String, of table: String) -> String

    /// How many constraints of `table` are named `name` (0 or 1).
    func constraintCount(_ name: String, of table: String) -> String

    /// How many builds of the index named as bound to `?` are under way (0 or 1): another
    /// registration's concurrent build, whose index is not valid until it ends.
    var indexBuildCount: String { get }

    /// Checks the existing rows against the constraint `name` without holding off writes.
    func validateConstraint(_ name: String, of table: String) -> String

    // MARK: - Copies between databases

    /// A query whose one value tells this database from another.
    var databaseIdentity: String { get }

    /// Whether ``databaseIdentity`` is the path of the database's file (to be compared by
    /// device and inode), rather than an identity as it is.
    var identifiesByFile: Bool { get }

    /// Keeps other writers out of `tables` until the transaction ends, or `nil` when the
    /// transaction's own lock does.
    func lockTables(_ tables: [String]) -> String?

    /// The highest id the table bound to `?` has given out (0 when none).
    var lastID: String { get }

    /// The argument ``lastID`` takes for `table`.
    func lastIDArgument(_ table: String) -> DBBValue

    /// The statements that raise the id counter of `table` to at least `id`, never lowering
    /// it, with their arguments.
    func raiseLastID(_ table: String, to id: Int64) -> [(sql: String, arguments: [DBBValue])]

    // MARK: - Raw SQL

    /// Whether `statement` (its tokens) cannot run inside a transaction.
    func mustRunOutsideTransaction(_ statement: [SQLToken]) -> Bool
}
