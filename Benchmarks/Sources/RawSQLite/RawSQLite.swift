import CSQLiteBench

/// The raw contenders: the SQLite C API and nothing else — prepared statements, binding and
/// reading by index, rows into plain structs.
public enum RawSQLite {
    public struct Row10: Sendable {
        public var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    }

    /// An error from the C API, with SQLite's message.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    static func open(_ path: String) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw Failure(description: "cannot open \(path)")
        }
        return db
    }

    static func check(_ code: Int32, _ db: OpaquePointer) throws {
        if code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }

    static func exec(_ db: OpaquePointer, _ sql: String) throws {
        try check(sqlite3_exec(db, sql, nil, nil, nil), db)
    }

    /// Inserts `rows` rows of ten integers (n, n+1, … n+9) in one transaction; returns the row count.
    public static func insert(rows: Int, path: String, table: String, extraColumns: Bool) throws -> Int {
        let db = try open(path)
        defer { sqlite3_close_v2(db) }
        try exec(db, "BEGIN")
        let columns = (extraColumns ? "createdTime, modifiedTime, " : "") + "i0, i1, i2, i3, i4, i5, i6, i7, i8, i9"
        let count = extraColumns ? 12 : 10
        let sql = "INSERT INTO \(table) (\(columns)) VALUES (" + Array(repeating: "?", count: count).joined(separator: ",") + ")"
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(db, sql, -1, &statement, nil), db)
        defer { sqlite3_finalize(statement) }
        for n in 0..<rows {
            var index: Int32 = 1
            if extraColumns {
                sqlite3_bind_double(statement, 1, 1)
                sqlite3_bind_double(statement, 2, 1)
                index = 3
            }
            for column in 0..<10 { sqlite3_bind_int64(statement, index + Int32(column), Int64(n + column)) }
            try check(sqlite3_step(statement), db)
            sqlite3_reset(statement)
        }
        try exec(db, "COMMIT")
        var count64: OpaquePointer?
        try check(sqlite3_prepare_v2(db, "SELECT count(*) FROM \(table)", -1, &count64, nil), db)
        defer { sqlite3_finalize(count64) }
        sqlite3_step(count64)
        return Int(sqlite3_column_int64(count64, 0))
    }

    /// Reads every row of ten integers into structs.
    public static func fetch(path: String, table: String) throws -> [Row10] {
        let db = try open(path)
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(db, "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM \(table)", -1, &statement, nil), db)
        defer { sqlite3_finalize(statement) }
        var rows: [Row10] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
            rows.append(Row10(i0: int(0), i1: int(1), i2: int(2), i3: int(3), i4: int(4),
                              i5: int(5), i6: int(6), i7: int(7), i8: int(8), i9: int(9)))
        }
        return rows
    }

    /// One JOIN over an owner table and its DBBBuilder join table of strings, building
    /// (name, tags) pairs in id order.
    public static func fetchJoined(path: String) throws -> [(name: String, tags: [String])] {
        let db = try open(path)
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(db, """
            SELECT t.id, t.name, j.tags FROM Tagged t LEFT JOIN Tagged_tags j ON j.Tagged_ID = t.id ORDER BY t.id, j.id
            """, -1, &statement, nil), db)
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
