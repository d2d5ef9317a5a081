import DBBSQLite

/// What a failure means, asked the same way on either backend: the SQLite result code or the
/// PostgreSQL SQLSTATE underneath is read here, so that code handling a taken unique value or a
/// lost connection does not test backend codes itself.
extension DBBError {
    /// Whether the database refused a write for a constraint: `UNIQUE`, `NOT NULL`, a foreign
    /// key, `CHECK` (SQLite's `SQLITE_CONSTRAINT`, PostgreSQL's SQLSTATE class `23`).
    public var isConstraintViolation: Bool {
        if let sqliteError { return sqliteError.code == .constraint }
        return serverError?.sqlState?.hasPrefix("23") == true
    }

    /// Whether the write would have stored a value a `UNIQUE` column (or the primary key)
    /// already holds: `SQLITE_CONSTRAINT_UNIQUE` or `_PRIMARYKEY`, SQLSTATE `23505`.
    /// ``property`` names the property when the database named its column.
    public var isUniqueViolation: Bool {
        isSQLite([Self.sqliteConstraintUnique, Self.sqliteConstraintPrimaryKey], orServer: "23505")
    }

    /// Whether a `NOT NULL` column was to get `NULL`: `SQLITE_CONSTRAINT_NOTNULL`, SQLSTATE `23502`.
    public var isNotNullViolation: Bool { isSQLite([Self.sqliteConstraintNotNull], orServer: "23502") }

    /// Whether the database's foreign key refused the write (a reference to a row that is gone,
    /// or a referenced row deleted or changed under `RESTRICT`): `SQLITE_CONSTRAINT_FOREIGNKEY`
    /// (and the `SQLITE_CONSTRAINT_TRIGGER` SQLite reports for a `RESTRICT` action), SQLSTATE
    /// `23503`. The library's own check of a reference before the write is ``Kind/rowNotFound``
    /// with ``property`` set.
    public var isForeignKeyViolation: Bool {
        if let sqliteError, sqliteError.extendedCode.rawValue == Self.sqliteConstraintTrigger {
            return sqliteError.message.contains("FOREIGN KEY constraint failed")
        }
        return isSQLite([Self.sqliteConstraintForeignKey], orServer: "23503")
    }

    /// Whether the connection to the database server could not be opened or broke during the
    /// operation: ``Kind/unavailable`` for a server that cannot be reached, a connection closed
    /// or reset, a server shutting down; and ``Kind/commitOutcomeUnknown``. Not for a refused
    /// login or a missing database (they do not pass by themselves), a closed manager, a full
    /// pool (``isTimeout``). An SQLite database has no connection to lose: `false`.
    public var isConnectionLost: Bool { conditions.contains(.connectionLost) }

    /// Whether a deadline passed: ``Kind/timedOut`` (a statement or lock timeout, no answer
    /// within `answerTimeout`), no pooled connection free within `poolTimeout`, or SQLite's
    /// busy timeout run out waiting for another connection's lock (`SQLITE_BUSY`).
    ///
    /// PostgreSQL gives a statement timeout the SQLSTATE of any cancelled statement (`57014`),
    /// so it is told by the server's English words: on a server whose `lc_messages` is another
    /// language, it is a ``Kind/server`` error with that SQLSTATE, and this is `false`.
    public var isTimeout: Bool {
        if kind == .timedOut || conditions.contains(.timeout) { return true }
        return sqliteError?.code == .busy
    }

    /// Whether repeating the operation as it was may succeed and cannot store anything twice:
    /// nothing of it was stored, and its cause can pass. True for a timeout (``isTimeout``), a
    /// lost connection before anything committed (``Kind/unavailable`` with
    /// ``isConnectionLost``), and PostgreSQL's serialization failure and deadlock (SQLSTATE
    /// `40001`, `40P01`: the transaction was rolled back for another one). False for
    /// ``Kind/commitOutcomeUnknown`` (the write may be stored: look for it first), for a failure
    /// after statements of the same SQL text committed, and for everything a retry would meet
    /// again (a constraint, a bad value, a missing row).
    public var isRetryable: Bool {
        guard kind != .commitOutcomeUnknown, !conditions.contains(.leftSomethingStored) else { return false }
        if isTimeout || (kind == .unavailable && isConnectionLost) { return true }
        return wasRolledBackForAnother
    }

    /// Whether the server rolled the statement back for another transaction: a serialization
    /// failure or a deadlock (SQLSTATE `40001`, `40P01`), whatever else the failure left.
    var wasRolledBackForAnother: Bool { serverError?.sqlState == "40001" || serverError?.sqlState == "40P01" }

    /// Whether the SQLite error underneath has one of `codes` (extended), or the server's
    /// SQLSTATE is `sqlState`.
    private func isSQLite(_ codes: [Int32], orServer sqlState: String) -> Bool {
        if let sqliteError { return codes.contains(sqliteError.extendedCode.rawValue) }
        return serverError?.sqlState == sqlState
    }

    // SQLite's extended constraint codes (https://sqlite.org/rescode.html): the primary code
    // SQLITE_CONSTRAINT (19) with the reason in the high bits.
    private static let sqliteConstraintNotNull: Int32 = 19 | (5 << 8)
    private static let sqliteConstraintPrimaryKey: Int32 = 19 | (6 << 8)
    private static let sqliteConstraintUnique: Int32 = 19 | (8 << 8)
    private static let sqliteConstraintForeignKey: Int32 = 19 | (3 << 8)
    private static let sqliteConstraintTrigger: Int32 = 19 | (7 << 8)
}
