import CSQLite

/// The one error type of DBBSQLite: an SQLite result code with its message, the SQL that
/// failed and the database file, so a log line says what went wrong and where.
///
/// ```swift
/// do {
///     try connection.execute("INSERT INTO reference.food (name) VALUES ('x')")
/// } catch let error as SQLiteError where error.code == .readOnly {
///     print(error)   // SQLite error 8 (attempt to write a readonly database): … in `INSERT …`
/// }
/// ```
///
/// See [Result and Error Codes](https://www.sqlite.org/rescode.html).
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The primary result code (`extendedCode.primary`).
    public var code: SQLiteResultCode { extendedCode.primary }

    /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE` (2067).
    public let extendedCode: SQLiteResultCode

    /// SQLite's message for this failure (`sqlite3_errmsg`), or DBBSQLite's own when the
    /// failure was detected before SQLite was called. Never cut short.
    public let message: String

    /// The SQL statement that failed, when the failure happened in one.
    public let sql: String?

    /// The database file the connection had open (empty for in-memory databases), when known.
    public let path: String?

    /// Where in the SQL text the error lies, as a UTF-8 offset, when SQLite tells
    /// (`sqlite3_error_offset`, for statements that do not compile). Set by
    /// ``SQLiteConnection/forEachStatementWithOffset(in:_:)`` relative to the whole text it was given.
    public internal(set) var offset: Int?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the result code; an extended code keeps its extended value.
    ///   - message: the whole message.
    ///   - sql: the SQL that failed, if any.
    ///   - path: the database file, if any.
    public init(code: SQLiteResultCode, message: String, sql: String? = nil, path: String? = nil) {
        self.extendedCode = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// `SQLite error 19 (constraint failed): UNIQUE constraint failed: t.a in `INSERT …` (file /tmp/x.sqlite)`
    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue) (\(code)): \(message)"
        if let sql, !sql.isEmpty { text += " in `\(sql)`" }
        if let path, !path.isEmpty { text += " (file \(path))" }
        return text
    }
}

extension SQLiteError {
    /// This error, located at `offset`.
    func at(_ offset: Int) -> SQLiteError {
        var copy = self
        copy.offset = offset
        return copy
    }

    /// The error SQLite holds for `db` after a call returned `resultCode`.
    static func from(
        _ db: OpaquePointer?, resultCode: Int32, sql: String? = nil
    ) -> SQLiteError {
        guard let db else {
            return SQLiteError(
                code: SQLiteResultCode(rawValue: resultCode),
                message: String(cString: sqlite3_errstr(resultCode)), sql: sql)
        }
        // With extended result codes on, `resultCode` is already extended; prefer SQLite's
        // own record of the latest error when it is about the same failure.
        let recorded = sqlite3_extended_errcode(db)
        let code = (recorded & 0xFF) == (resultCode & 0xFF) ? recorded : resultCode
        let message = String(cString: sqlite3_errmsg(db))
        return SQLiteError(
            code: SQLiteResultCode(rawValue: code), message: message, sql: sql,
            path: databasePath(db))
    }

    /// A misuse detected by DBBSQLite itself (closed connection, missing argument…).
    static func misuse(_ message: String, sql: String? = nil, path: String? = nil) -> SQLiteError {
        SQLiteError(code: .misuse, message: message, sql: sql, path: path)
    }
}

/// The file behind the `main` schema of `db` (empty for in-memory databases).
func databasePath(_ db: OpaquePointer) -> String {
    guard let name = sqlite3_db_filename(db, "main") else { return "" }
    return String(cString: name)
}
