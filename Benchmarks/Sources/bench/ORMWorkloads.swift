import DBBBuilder
import DBBSQLite
import Foundation

/// GRDB's performance-suite shape: a table of ten integer columns.
final class Item10: DBBTableObject {
    var i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0, i8 = 0, i9 = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping([
            "i0": DBBPropertyPersistence(\Item10.i0), "i1": DBBPropertyPersistence(\Item10.i1),
            "i2": DBBPropertyPersistence(\Item10.i2), "i3": DBBPropertyPersistence(\Item10.i3),
            "i4": DBBPropertyPersistence(\Item10.i4), "i5": DBBPropertyPersistence(\Item10.i5),
            "i6": DBBPropertyPersistence(\Item10.i6), "i7": DBBPropertyPersistence(\Item10.i7),
            "i8": DBBPropertyPersistence(\Item10.i8), "i9": DBBPropertyPersistence(\Item10.i9),
        ], for: self)
    }
}

/// The plain-struct equivalent read by the raw contender.
struct Row10 {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

private let columnList = "i0, i1, i2, i3, i4, i5, i6, i7, i8, i9"

/// A fresh file with the `Item10` table (DBBBuilder's layout) and `rows` rows when asked.
private func makeItemDatabase(_ name: String, rows: Int, directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("\(name).sqlite")
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    let manager = try DBBManager(url: url)
    try manager.register([Item10.self])
    if rows > 0 {
        let db = try SQLiteConnection(path: url.path)
        try db.transaction { try insertRaw(rows, into: db) }
    }
    return url
}

/// The raw contender's insert: one prepared statement, bound by index.
private func insertRaw(_ rows: Int, into db: SQLiteConnection) throws {
    let insert = try db.cachedStatement("INSERT INTO Item10 (createdTime, modifiedTime, \(columnList)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    let now = Date().timeIntervalSinceReferenceDate
    for n in 0..<rows {
        try insert.bind(now, at: 1)
        try insert.bind(now, at: 2)
        for column in 0..<10 { try insert.bind(n + column, at: column + 3) }
        try insert.execute()
    }
}

func insertWorkload(rows: Int, directory: URL) throws -> Workload {
    let expected = rows
    return Workload(
        name: "Insert \(rows.formatted()) rows of 10 integers in one transaction",
        summary: "Raw: one prepared statement bound by index (DBBSQLite). DBBBuilder: `saveObjects` of new objects.",
        goal: "DBBBuilder ≤ 2.5× raw",
        contenders: [
            Contender(name: "raw SQLite (prepared, bind by index)") {
                let url = try makeItemDatabase("insert-raw", rows: 0, directory: directory)
                let db = try SQLiteConnection(path: url.path)
                try db.transaction { try insertRaw(rows, into: db) }
                return try db.fetchValue("SELECT count(*) FROM Item10", as: Int.self) ?? -1
            },
            Contender(name: "DBBTableObject.saveObjects") {
                let url = try makeItemDatabase("insert-dbb", rows: 0, directory: directory)
                let manager = try DBBManager(url: url)
                let items = (0..<rows).map { n -> Item10 in
                    let item = Item10(dbManager: manager)
                    (item.i0, item.i1, item.i2, item.i3, item.i4) = (n, n + 1, n + 2, n + 3, n + 4)
                    (item.i5, item.i6, item.i7, item.i8, item.i9) = (n + 5, n + 6, n + 7, n + 8, n + 9)
                    return item
                }
                guard Item10.saveObjects(items, dbManager: manager) else { throw BenchmarkError(description: manager.errorMessage()) }
                return manager.countForTable("Item10")
            },
        ],
        expectedChecksum: expected)
}

func fetchWorkload(rows: Int, directory: URL) throws -> Workload {
    let url = try makeItemDatabase("fetch", rows: rows, directory: directory)
    let db = try SQLiteConnection(path: url.path)
    let manager = try DBBManager(url: url)
    try manager.register([Item10.self])
    // Sum of every column of every row: sum over n of (10n + 45).
    let expected = 10 * (rows * (rows - 1) / 2) + 45 * rows
    return Workload(
        name: "Fetch \(rows.formatted()) rows of 10 integers",
        summary: "Raw: rows read by column index into structs. DBBBuilder: `instancesWithOptions` (all properties).",
        goal: "DBBBuilder ≤ 2× raw",
        contenders: [
            Contender(name: "raw SQLite into structs") {
                let items = try db.fetchAll("SELECT \(columnList) FROM Item10") { row in
                    Row10(i0: row.int(at: 0), i1: row.int(at: 1), i2: row.int(at: 2), i3: row.int(at: 3), i4: row.int(at: 4),
                          i5: row.int(at: 5), i6: row.int(at: 6), i7: row.int(at: 7), i8: row.int(at: 8), i9: row.int(at: 9))
                }
                return items.reduce(0) { $0 + $1.i0 + $1.i1 + $1.i2 + $1.i3 + $1.i4 + $1.i5 + $1.i6 + $1.i7 + $1.i8 + $1.i9 }
            },
            Contender(name: "DBBTableObject.instancesWithOptions") {
                guard let items = Item10.instancesWithOptions(DBBQueryOptions(), manager: manager) as? [Item10] else {
                    throw BenchmarkError(description: manager.errorMessage())
                }
                return items.reduce(0) { $0 + $1.i0 + $1.i1 + $1.i2 + $1.i3 + $1.i4 + $1.i5 + $1.i6 + $1.i7 + $1.i8 + $1.i9 }
            },
        ],
        expectedChecksum: expected)
}
