import DBBSQLite

extension DBBManager {
    /// Runs raw SQL (one or more statements), binding `arguments` to its `?` placeholders:
    /// Swift values (`String`, integers, `Double`, `Bool`, `Data`, `Date` as seconds since 2001
    /// like table-object columns, `nil` for `NULL`) or `DBBValue`s.
    ///
    /// ```swift
    /// try manager.execute("UPDATE Person SET age = age + 1 WHERE lastName = ? AND born < ?",
    ///                     arguments: ["Doe", Date(), nil])
    /// ```
    ///
    /// A text of several statements runs as one transaction — all of it or, when a statement
    /// fails, none of it — unless it handles transactions itself (BEGIN, COMMIT…) or holds a
    /// statement that cannot run in one (VACUUM, ATTACH…). A text must not leave a transaction
    /// open: the manager's writer connection is shared, and later saves would join it and be
    /// lost with it. One that does (BEGIN without COMMIT, or a failure after its BEGIN) is
    /// rolled back, and the call throws. Called from a save hook or inside a transaction, the
    /// text belongs to that transaction.
    public func execute(_ sql: String, arguments: DBBArguments = []) throws {
        try observing(.raw, sql: sql) { try executeRaw(sql, arguments.databaseValues) }
    }

    /// ``execute(_:arguments:)``, unobserved.
    private func executeRaw(_ sql: String, _ values: [DBBValue]) throws {
        try refuseSessionChanges(sql)
        try write(nil) { connection in
            guard !connection.hasOpenTransaction else {
                try Self.refuseTransactionControl(sql, inTransactionOf: connection)
                return try connection.execute(sql, values)
            }
            // Only a text with a `;` can hold several statements: one without is not tokenized
            // (raw SQL run in a loop pays nothing for the check).
            if sql.utf8.contains(UInt8(ascii: ";")), RawScriptSQL(sql, dialect: connection.dialect).runsAtomically {
                return try connection.atomically(.immediate) { try connection.execute(sql, values) }
            }
            do {
                try connection.execute(sql, values)
            } catch {
                if connection.hasOpenTransaction { try? connection.execute("ROLLBACK", []) }
                throw error
            }
            if connection.hasOpenTransaction {
                try? connection.execute("ROLLBACK", [])
                // A COMMIT (or COMMIT AND CHAIN) stored what came before it.
                let committed = RawScriptSQL(sql, dialect: connection.dialect).statements.contains {
                    ["COMMIT", "END"].contains(RawScriptSQL.words($0, 1).first ?? "")
                }
                throw DBBError(
                    .invalidOption,
                    "the SQL left a transaction open (a BEGIN without its COMMIT, or COMMIT AND CHAIN), so "
                        + (committed
                            ? "that transaction was rolled back — what the text committed before it stays: "
                            : "it was rolled back: ")
                        + "later saves on the manager's shared connection would have joined it and been lost with it. "
                        + "End it in the same text (BEGIN … COMMIT), or save through table objects (a batch is one transaction)"
                )
            }
        }
    }

    /// Runs a raw query and returns its rows (``DBBRow``: values by name or index, raw or as
    /// Swift types). Arguments as in ``execute(_:arguments:)``; the locale date functions are
    /// available:
    ///
    /// ```swift
    /// let weeks = try manager.query("""
    ///     SELECT dbb_week(startTime, 'en_US') AS week, COUNT(*) AS meetings
    ///     FROM Meeting WHERE startTime >= ? GROUP BY week
    ///     """, arguments: [since])
    /// for row in weeks { print(try row.decode(String.self, "week"), try row.decode(Int.self, "meetings")) }
    /// ```
    public func query(_ sql: String, arguments: DBBArguments = []) throws -> [DBBRow] {
        try observing(.raw, sql: sql) { try queryRaw(sql, arguments.databaseValues) }
    }

    /// ``query(_:arguments:)``, unobserved.
    private func queryRaw(_ sql: String, _ values: [DBBValue]) throws -> [DBBRow] {
        try refuseSessionChanges(sql)
        return try read(nil) { connection in
            if connection.hasOpenTransaction { try Self.refuseTransactionControl(sql, inTransactionOf: connection) }
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            try statement.bind(values)
            let reader = statement.reader
            var rows: [DBBRow] = []
            // The names once a row is there: a server backend knows them only once it ran.
            var names: [String]?
            while try statement.step() {
                if names == nil { names = statement.columnNames }
                rows.append(DBBRow(columnNames: names ?? [], values: reader.values))
            }
            return rows
        }
    }

    /// Runs a raw query, calling `body` with each row in place (nothing is copied): read its
    /// columns by index with the typed accessors (`row.string(at: 0)`, `row.optionalInt64(at: 1)`).
    public func forEachRow(_ sql: String, arguments: DBBArguments = [], _ body: (DBBColumnReader) throws -> Void) throws
    {
        let values = arguments.databaseValues
        try observing(.raw, sql: sql) {
            try refuseSessionChanges(sql)
            try read(nil) { try $0.forEachRow(sql, values, body) }
        }
    }

    /// On a read-only manager, refuses SQL with transaction control, `SET`/`RESET` or a server
    /// command whose effects outlast a transaction before it runs (see
    /// `PlaceholderSQL.Statement.refusedWhenReadOnly`): each statement runs in a read-only
    /// transaction of its own, rolled back, which such a statement would step out of
    /// (`BEGIN READ WRITE`, `COMMIT`), be undone with (`SET`), or outlast (`COPY … TO` a file).
    private func refuseSessionChanges(_ sql: String) throws {
        guard access.isReadOnly,
            let statement = PlaceholderSQL(sql, syntax: access.dialect.syntax).statements.first(
                where: \.refusedWhenReadOnly)
        else { return }
        throw DBBError(
            .invalidOption,
            "\(databaseLabel) was opened read-only: raw SQL runs each statement in a read-only transaction of its "
                + "own, so \(statement.leadingWord) is refused (it would end that transaction, be undone with it, or "
                + "change the database beyond it): \(statement.text)")
    }
}

extension DBBManager {
    /// Refuses raw SQL that begins, ends or marks a transaction, run inside one the library
    /// opened (a save, a batch, a hook, a `transaction` body): a `ROLLBACK` there would undo
    /// rows the save then reports stored, a `COMMIT` would store rows a failing save reports
    /// not stored. (Raw SQL cannot leave a transaction of its own open between calls.)
    static func refuseTransactionControl(_ sql: String, inTransactionOf connection: any DatabaseConnection) throws {
        guard RawScriptSQL(sql, dialect: connection.dialect).controlsTransactions else { return }
        throw DBBError(
            .invalidOption,
            "transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT…) cannot run inside the transaction of a save, "
                + "a batch or a transaction body, which would then report rows stored that are not, or not stored "
                + "that are: throw from the body to roll it back instead: \(sql)")
    }
}
