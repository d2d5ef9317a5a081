/// How a ``SQLiteConnection`` opens its database.
///
/// The defaults suit an application database: create the file if needed, WAL journal,
/// a 5-second busy timeout, foreign keys enforced.
///
/// ```swift
/// var configuration = SQLiteConfiguration()
/// configuration.access = .readOnly
/// let reference = try SQLiteConnection(path: "food.sqlite", configuration: configuration)
/// ```
public struct SQLiteConfiguration: Sendable, Hashable {
    /// What the connection may do with the file.
    public enum Access: Sendable, Hashable {
        /// Read only; the file must exist (`SQLITE_OPEN_READONLY`).
        case readOnly
        /// Read and write; the file must exist (`SQLITE_OPEN_READWRITE`).
        case readWrite
        /// Read and write, creating the file when missing (`SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`).
        case readWriteCreate
    }

    /// SQLite journal modes. See [journal_mode](https://www.sqlite.org/pragma.html#pragma_journal_mode).
    public enum JournalMode: String, Sendable, Hashable {
        /// Write-ahead log: readers are not blocked by a writer. See [WAL](https://www.sqlite.org/wal.html).
        case wal = "WAL"
        /// The classic rollback journal, deleted after each transaction.
        case delete = "DELETE"
        /// A rollback journal truncated after each transaction.
        case truncate = "TRUNCATE"
    }

    /// Access to the file. Default: ``Access/readWriteCreate``.
    public var access: Access = .readWriteCreate

    /// The journal mode set on writable file databases; `nil` leaves the file's mode as it is.
    /// In-memory and read-only databases are never changed. Default: ``JournalMode/wal``.
    public var journalMode: JournalMode? = .wal

    /// How long a statement waits for another connection's lock before failing with
    /// ``SQLiteResultCode/busy``. Default: 5 seconds.
    public var busyTimeout: Duration = .seconds(5)

    /// Whether `FOREIGN KEY` constraints are enforced (`PRAGMA foreign_keys`). Default: `true`.
    public var foreignKeys = true

    /// Whether a double-quoted word that names no column is taken as a string literal, SQLite's
    /// legacy fallback (`SQLITE_DBCONFIG_DQS_DML` and `_DDL`). Default: `false`, so a
    /// misspelled `"nmae" = ?` is an error rather than a comparison with the text `'nmae'`.
    /// The `sqlite3` shell allows it; set `true` to run scripts written for the shell.
    /// See [double-quoted string literals](https://www.sqlite.org/quirks.html#dblquote).
    public var doubleQuotedStrings = false

    /// How many prepared statements ``SQLiteConnection/cachedStatement(_:clearingBindings:)``
    /// keeps; the least recently used one is finalized beyond that. Default: 256.
    public var statementCacheCapacity = 256

    /// The default configuration.
    public init() {}
}
