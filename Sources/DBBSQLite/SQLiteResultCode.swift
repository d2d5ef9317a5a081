import CSQLite

/// An SQLite result code, primary (`SQLITE_BUSY`) or extended (`SQLITE_BUSY_SNAPSHOT`).
///
/// Compare an error's ``SQLiteError/code`` with the named constants:
///
/// ```swift
/// catch let error as SQLiteError where error.code == .readOnly { … }
/// ```
///
/// See [Result and Error Codes](https://www.sqlite.org/rescode.html).
public struct SQLiteResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code as SQLite returns it.
    public let rawValue: Int32

    /// Wraps a numeric code.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended code.
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's English text for the code, e.g. `database is locked`.
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }

    // MARK: - Primary codes

    /// `SQLITE_OK`: success.
    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    /// `SQLITE_ERROR`: a generic error, e.g. an SQL syntax error or a missing table.
    public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
    /// `SQLITE_INTERNAL`.
    public static let `internal` = SQLiteResultCode(rawValue: SQLITE_INTERNAL)
    /// `SQLITE_PERM`: the requested access mode could not be provided.
    public static let permission = SQLiteResultCode(rawValue: SQLITE_PERM)
    /// `SQLITE_ABORT`: an operation was aborted, e.g. by a rollback.
    public static let abort = SQLiteResultCode(rawValue: SQLITE_ABORT)
    /// `SQLITE_BUSY`: the database file is locked by another connection.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// `SQLITE_LOCKED`: a conflict within the same connection or shared cache.
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_NOMEM`: out of memory.
    public static let noMemory = SQLiteResultCode(rawValue: SQLITE_NOMEM)
    /// `SQLITE_READONLY`: a write to a read-only database or attachment.
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    /// `SQLITE_INTERRUPT`: interrupted by `sqlite3_interrupt`.
    public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
    /// `SQLITE_IOERR`: the operating system reported an I/O error.
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    /// `SQLITE_CORRUPT`: the database file is malformed.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// `SQLITE_FULL`: the disk, or the database's `max_page_count`, is full.
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    /// `SQLITE_CANTOPEN`: the file could not be opened.
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// `SQLITE_PROTOCOL`: a locking protocol error.
    public static let `protocol` = SQLiteResultCode(rawValue: SQLITE_PROTOCOL)
    /// `SQLITE_SCHEMA`: the schema changed.
    public static let schema = SQLiteResultCode(rawValue: SQLITE_SCHEMA)
    /// `SQLITE_TOOBIG`: a string or blob exceeds the size limit.
    public static let tooBig = SQLiteResultCode(rawValue: SQLITE_TOOBIG)
    /// `SQLITE_CONSTRAINT`: a NOT NULL, UNIQUE, CHECK or foreign key constraint failed.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// `SQLITE_MISMATCH`: a datatype mismatch, e.g. a non-integer rowid.
    public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
    /// `SQLITE_MISUSE`: the API was used incorrectly, e.g. a statement after its connection closed.
    public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
    /// `SQLITE_AUTH`: refused by the authorizer.
    public static let authorization = SQLiteResultCode(rawValue: SQLITE_AUTH)
    /// `SQLITE_RANGE`: a parameter index or name that the statement does not have.
    public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    /// `SQLITE_NOTADB`: the file is not an SQLite database.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    /// `SQLITE_ROW`: a statement produced a row.
    public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
    /// `SQLITE_DONE`: a statement finished.
    public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)
}
