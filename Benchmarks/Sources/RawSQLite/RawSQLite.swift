import CSQLiteBench

#if canImport(Glibc)
import Glibc
#endif

/// The raw contenders: the SQLite C API and nothing else — prepared statements, binding and
/// reading by index, rows into plain structs.
public enum RawSQLite {
    /// A row of DBBBuilder's `Item10` table, every column of it: what the objects get.
    public struct Row13: Sendable {
        public var id: Int64
        public var createdTime, modifiedTime: Double
        public var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    }

    /// An error from the C API, with SQLite's message.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// An open connection: opened when a contender prepares, off the clock, and closed when
    /// the last reference goes.
    public final class Database {
        let db: OpaquePointer

        public init(path: String) throws {
            var db: OpaquePointer?
            // NOMUTEX, as DBBBuilder opens its connections: no mutex taken per call.
            let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
            guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK, let db
            else {
                throw Failure(description: "cannot open \(path)")
            }
            self.db = db
        }

        deinit { sqlite3_close_v2(db) }

        func check(_ code: Int32) throws {
            if code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW {
                throw Failure(description: String(cString: sqlite3_errmsg(db)))
            }
        }

        func exec(_ sql: String) throws { try check(sqlite3_exec(db, sql, nil, nil, nil)) }

        func prepare(_ sql: String) throws -> OpaquePointer {
            var statement: OpaquePointer?
            try check(sqlite3_prepare_v2(db, sql, -1, &statement, nil))
            return statement!
        }

        /// The integer in the first column of the first row of `sql`.
        public func count(_ sql: String) throws -> Int {
            let statement = try prepare(sql)
            defer { sqlite3_finalize(statement) }
            try check(sqlite3_step(statement))
            return Int(sqlite3_column_int64(statement, 0))
        }

        /// Inserts `rows` rows — `createdTime`, `modifiedTime` (the time of the batch) and ten
        /// integers n, n+1, … n+9 — in one transaction; returns the number of rows inserted.
        public func insert(rows: Int, table: String) throws -> Int {
            try exec("BEGIN")
            let statement = try prepare(
                "INSERT INTO \(table) (createdTime, modifiedTime, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9)"
                    + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
            defer { sqlite3_finalize(statement) }
            let now = referenceSeconds()
            for n in 0..<rows {
                sqlite3_bind_double(statement, 1, now)
                sqlite3_bind_double(statement, 2, now)
                for column in 0..<10 { sqlite3_bind_int64(statement, 3 + Int32(column), Int64(n + column)) }
                try check(sqlite3_step(statement))
                sqlite3_reset(statement)
            }
            try exec("COMMIT")
            return rows
        }

        /// `UPDATE table SET i3 = ?, modifiedTime = ? WHERE id = ?` for each change, in one
        /// transaction; returns the number of rows changed.
        public func update(_ changes: [(id: Int64, i3: Int)], table: String) throws -> Int {
            try exec("BEGIN")
            let statement = try prepare("UPDATE \(table) SET i3 = ?, modifiedTime = ? WHERE id = ?")
            defer { sqlite3_finalize(statement) }
            let now = referenceSeconds()
            var changed = 0
            for change in changes {
                sqlite3_bind_int64(statement, 1, Int64(change.i3))
                sqlite3_bind_double(statement, 2, now)
                sqlite3_bind_int64(statement, 3, change.id)
                try check(sqlite3_step(statement))
                changed += Int(sqlite3_changes(db))
                sqlite3_reset(statement)
            }
            try exec("COMMIT")
            return changed
        }

        /// `count` times: `BEGIN; INSERT one row; COMMIT` with prepared statements; returns `count`.
        public func insertEach(count: Int, table: String) throws -> Int {
            let begin = try prepare("BEGIN IMMEDIATE")
            let commit = try prepare("COMMIT")
            let insert = try prepare(
                "INSERT INTO \(table) (createdTime, modifiedTime, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9)"
                    + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
            defer { for statement in [begin, commit, insert] { sqlite3_finalize(statement) } }
            for n in 0..<count {
                try check(sqlite3_step(begin))
                sqlite3_reset(begin)
                let now = referenceSeconds()
                sqlite3_bind_double(insert, 1, now)
                sqlite3_bind_double(insert, 2, now)
                for column in 0..<10 { sqlite3_bind_int64(insert, 3 + Int32(column), Int64(n + column)) }
                try check(sqlite3_step(insert))
                sqlite3_reset(insert)
                try check(sqlite3_step(commit))
                sqlite3_reset(commit)
            }
            return count
        }

        /// Reads every row, all 13 columns (id, the two timestamps, ten integers), into structs.
        public func fetch(table: String) throws -> [Row13] {
            let statement = try prepare(
                "SELECT id, createdTime, modifiedTime, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM \(table)")
            defer { sqlite3_finalize(statement) }
            var rows: [Row13] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
                rows.append(
                    Row13(
                        id: sqlite3_column_int64(statement, 0), createdTime: sqlite3_column_double(statement, 1),
                        modifiedTime: sqlite3_column_double(statement, 2), i0: int(3), i1: int(4), i2: int(5),
                        i3: int(6), i4: int(7), i5: int(8), i6: int(9), i7: int(10), i8: int(11), i9: int(12)))
            }
            return rows
        }

        /// One JOIN over an owner table and its DBBBuilder join table of strings, building
        /// (name, tags) pairs in id order.
        public func fetchJoined() throws -> [(name: String, tags: [String])] {
            let statement = try prepare(
                """
                SELECT t.id, t.name, j.tags FROM Tagged t LEFT JOIN Tagged_tags j ON j.Tagged_ID = t.id ORDER BY t.id, j.id
                """)
            defer { sqlite3_finalize(statement) }
            var result: [(name: String, tags: [String])] = []
            var lastID: Int64 = -1
            while sqlite3_step(statement) == SQLITE_ROW {
                let id = sqlite3_column_int64(statement, 0)
                if id != lastID {
                    lastID = id
                    result.append((String(cString: sqlite3_column_text(statement, 1)), []))
                }
                if let text = sqlite3_column_text(statement, 2) {
                    result[result.count - 1].tags.append(String(cString: text))
                }
            }
            return result
        }
    }

    /// Seconds since 2001-01-01, as DBBBuilder stores its timestamps.
    static func referenceSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 - 978_307_200
    }
}
