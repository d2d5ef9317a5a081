import DBBBuilder
import DBBSQLite
import Foundation
import GRDB
import RawSQLite

/// GRDB's performance-suite shape: ten integer columns (in DBBBuilder's table layout, which
/// adds `id`, `createdTime` and `modifiedTime`; every contender writes and reads that table).
final class Item10: DBBTableObject {
    var i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0, i8 = 0, i9 = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "i0": DBBPropertyPersistence(\Item10.i0), "i1": DBBPropertyPersistence(\Item10.i1),
                "i2": DBBPropertyPersistence(\Item10.i2), "i3": DBBPropertyPersistence(\Item10.i3),
                "i4": DBBPropertyPersistence(\Item10.i4), "i5": DBBPropertyPersistence(\Item10.i5),
                "i6": DBBPropertyPersistence(\Item10.i6), "i7": DBBPropertyPersistence(\Item10.i7),
                "i8": DBBPropertyPersistence(\Item10.i8), "i9": DBBPropertyPersistence(\Item10.i9),
            ], for: self)
    }
}

/// The same table written with `@DBBTable`: the compiler writes the mapping and the row accessors.
@DBBTable(tableName: "Item10")
final class MacroItem10: DBBTableObject {
    var i0 = 0
    var i1 = 0
    var i2 = 0
    var i3 = 0
    var i4 = 0
    var i5 = 0
    var i6 = 0
    var i7 = 0
    var i8 = 0
    var i9 = 0
}

/// GRDB's `Record` subclass contender.
final class ItemRecord: Record {
    var i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0, i8 = 0, i9 = 0
    override class var databaseTableName: String { "Item10" }

    init(_ n: Int) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7, n + 8, n + 9)
        super.init()
    }

    required init(row: GRDB.Row) throws {
        (i0, i1, i2, i3, i4) = (row["i0"], row["i1"], row["i2"], row["i3"], row["i4"])
        (i5, i6, i7, i8, i9) = (row["i5"], row["i6"], row["i7"], row["i8"], row["i9"])
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["createdTime"] = 1.0
        container["modifiedTime"] = 1.0
        (container["i0"], container["i1"], container["i2"], container["i3"], container["i4"]) = (i0, i1, i2, i3, i4)
        (container["i5"], container["i6"], container["i7"], container["i8"], container["i9"]) = (i5, i6, i7, i8, i9)
    }

    var sum: Int { i0 + i1 + i2 + i3 + i4 + i5 + i6 + i7 + i8 + i9 }
}

/// GRDB's `Record` subclass with its primary key and modification time, for the update workload.
final class ItemRecordWithID: Record {
    var id: Int64?
    var modifiedTime = 0.0
    var i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0, i8 = 0, i9 = 0
    override class var databaseTableName: String { "Item10" }

    required init(row: GRDB.Row) throws {
        (id, modifiedTime) = (row["id"], row["modifiedTime"])
        (i0, i1, i2, i3, i4) = (row["i0"], row["i1"], row["i2"], row["i3"], row["i4"])
        (i5, i6, i7, i8, i9) = (row["i5"], row["i6"], row["i7"], row["i8"], row["i9"])
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        (container["id"], container["modifiedTime"]) = (id, modifiedTime)
        (container["i0"], container["i1"], container["i2"], container["i3"], container["i4"]) = (i0, i1, i2, i3, i4)
        (container["i5"], container["i6"], container["i7"], container["i8"], container["i9"]) = (i5, i6, i7, i8, i9)
    }
}

/// GRDB's optimized contender: a plain struct read by column index.
struct ItemStruct: FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    init(row: GRDB.Row) {
        (i0, i1, i2, i3, i4) = (row[0], row[1], row[2], row[3], row[4])
        (i5, i6, i7, i8, i9) = (row[5], row[6], row[7], row[8], row[9])
    }
    var sum: Int { i0 + i1 + i2 + i3 + i4 + i5 + i6 + i7 + i8 + i9 }
}

private let columnList = "i0, i1, i2, i3, i4, i5, i6, i7, i8, i9"

/// A fresh file with the empty `Item10` table, made by DBBBuilder.
private func makeItemDatabase(_ name: String, directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("\(name).sqlite")
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    let manager = try benchManager(url: url)
    try manager.register([Item10.self])
    return url
}

/// MacroItem10 objects 0..<count, constructed as a user would.
func makeMacroItems(_ count: Int, _ manager: DBBManager) -> [MacroItem10] {
    (0..<count).map { n -> MacroItem10 in
        let item = MacroItem10(dbManager: manager)
        (item.i0, item.i1, item.i2, item.i3, item.i4) = (n, n + 1, n + 2, n + 3, n + 4)
        (item.i5, item.i6, item.i7, item.i8, item.i9) = (n + 5, n + 6, n + 7, n + 8, n + 9)
        return item
    }
}

/// A second manager on the database at `url`, with the `@DBBTable` class of the same table registered.
func macroManager(_ url: URL) throws -> DBBManager {
    let manager = try benchManager(url: url)
    try manager.register([MacroItem10.self])
    return manager
}

/// A second manager on the database at `url` that reads and writes the plain stored properties of
/// the class mapped by hand at their offsets (the opt-in ``DBBManager/storedOffsetAccess``).
func offsetsManager(_ url: URL) throws -> DBBManager {
    let manager = try benchManager(url: url)
    manager.storedOffsetAccess = true
    try manager.register([Item10.self])
    return manager
}

/// Saves `items` with DBBBuilder's `saveObjects` and returns how many there were.
func saveObjects(_ items: [Item10], _ manager: DBBManager) throws -> Int {
    guard Item10.saveObjects(items, dbManager: manager) else {
        throw BenchmarkError(description: manager.errorMessage())
    }
    return items.count
}

/// Item10 objects 0..<count, constructed as a user would.
func makeItems(_ count: Int, _ manager: DBBManager) -> [Item10] {
    (0..<count).map { n -> Item10 in
        let item = Item10(dbManager: manager)
        (item.i0, item.i1, item.i2, item.i3, item.i4) = (n, n + 1, n + 2, n + 3, n + 4)
        (item.i5, item.i6, item.i7, item.i8, item.i9) = (n + 5, n + 6, n + 7, n + 8, n + 9)
        return item
    }
}

func insertWorkload(rows: Int, directory: URL) throws -> Workload {
    Workload(
        name: "Insert \(rows.formatted()) rows of 10 integers in one transaction",
        summary:
            "Each run gets a new file with the empty table, and its connection or manager, before the clock starts; "
            + "the timed part builds the values (DBBBuilder: constructs the objects) and writes the 12 columns (10 integers, "
            + "two timestamps) in one transaction.",
        goals: [
            Goal(contender: "@DBBTable", baseline: "raw SQLite", maximum: 1.25),
            Goal(contender: "DBBTableObject", baseline: "raw SQLite", maximum: 2.5),
            Goal(contender: "stored offsets (opt-in)", baseline: "raw SQLite", maximum: 2.5),
            Goal(contender: "DBBTableObject", baseline: "GRDB Record", maximum: 1),
            Goal(contender: "DBBTableObject", baseline: "Fluent", maximum: 1),
        ],
        contenders: [
            .prepared("raw SQLite C API (prepared, bind by index)") {
                let database = try RawSQLite.Database(
                    path: try makeItemDatabase("insert-raw", directory: directory).path)
                return { try database.insert(rows: rows, table: "Item10") }
            },
            .prepared("GRDB optimized (prepared statement)") {
                let queue = try DatabaseQueue(path: try makeItemDatabase("insert-grdb", directory: directory).path)
                return {
                    try queue.inTransaction { db in
                        let statement = try db.makeStatement(
                            sql:
                                "INSERT INTO Item10 (createdTime, modifiedTime, \(columnList)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
                        )
                        let now = Date().timeIntervalSinceReferenceDate
                        for n in 0..<rows {
                            try statement.execute(arguments: [
                                now, now, n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7, n + 8, n + 9,
                            ])
                        }
                        return .commit
                    }
                    return rows
                }
            },
            .prepared("GRDB Record subclass") {
                let queue = try DatabaseQueue(
                    path: try makeItemDatabase("insert-grdb-record", directory: directory).path)
                return {
                    try queue.inTransaction { db in
                        for n in 0..<rows { try ItemRecord(n).insert(db) }
                        return .commit
                    }
                    return rows
                }
            },
            .prepared("@DBBTable class, save(_:manager:)") {
                let manager = try macroManager(try makeItemDatabase("insert-macro", directory: directory))
                return {
                    let items = makeMacroItems(rows, manager)
                    try MacroItem10.save(items, manager: manager)
                    return items.count
                }
            },
            .prepared("DBBTableObject.saveObjects") {
                let manager = try benchManager(url: try makeItemDatabase("insert-dbb", directory: directory))
                try manager.register([Item10.self])
                return { try saveObjects(makeItems(rows, manager), manager) }
            },
            .prepared("class mapped by hand, stored offsets (opt-in): saveObjects") {
                let manager = try offsetsManager(try makeItemDatabase("insert-offsets", directory: directory))
                return { try saveObjects(makeItems(rows, manager), manager) }
            },
            .fluentInsert(
                rows: rows, { .sqlite(try makeItemDatabase("insert-fluent", directory: directory).path) },
                check: { $0 == rows * (rows + 1) / 2 ? rows : -1 }),
        ],
        expectedChecksum: rows)
}

/// A file with the `Item10` table holding `rows` rows, and a manager on it with the class registered.
private func itemDatabase(_ name: String, rows: Int, directory: URL) throws -> (url: URL, manager: DBBManager) {
    let url = try makeItemDatabase(name, directory: directory)
    if rows > 0 { _ = try RawSQLite.Database(path: url.path).insert(rows: rows, table: "Item10") }
    let manager = try benchManager(url: url)
    try manager.register([Item10.self])
    return (url, manager)
}

/// A copy of the database at `url` for Fluent, whose SQLite is a library of its own (sqlite-nio's):
/// two SQLite libraries in one process must not open the same file — each keeps its own POSIX
/// locks, and one closing the file drops the other's (https://sqlite.org/howtocorrupt.html,
/// 2.2.1): the update then failed with "disk I/O error" or rows that seemed gone.
private func fluentCopy(of url: URL, _ name: String) throws -> String {
    let copy = url.deletingLastPathComponent().appendingPathComponent("\(name)-fluent.sqlite").path
    for suffix in ["", "-wal"] {
        try? FileManager.default.removeItem(atPath: copy + suffix)
        if FileManager.default.fileExists(atPath: url.path + suffix) {
            try FileManager.default.copyItem(atPath: url.path + suffix, toPath: copy + suffix)
        }
    }
    return copy
}

func updateWorkload(rows: Int, directory: URL) throws -> Workload {
    let (url, manager) = try itemDatabase("update", rows: rows, directory: directory)
    return Workload(
        name: "Update \(rows.formatted()) fetched objects, one property changed each",
        summary:
            "Before the clock: DBBBuilder fetches the objects; raw C reads the ids and values. Timed: each object's i3 "
            + "is incremented and saved (change tracking writes i3 and modifiedTime), against a raw "
            + "`UPDATE Item10 SET i3 = ?, modifiedTime = ? WHERE id = ?` loop, in one transaction.",
        goals: [
            Goal(contender: "@DBBTable", baseline: "raw SQLite", maximum: 1.3),
            Goal(contender: "DBBTableObject", baseline: "raw SQLite", maximum: 2.5),
            Goal(contender: "stored offsets (opt-in)", baseline: "raw SQLite", maximum: 2.5),
            Goal(contender: "DBBTableObject", baseline: "GRDB Record subclass, update()", maximum: 1),
            Goal(contender: "DBBTableObject", baseline: "Fluent", maximum: 1),
        ],
        contenders: [
            .prepared("raw SQLite C API, UPDATE … WHERE id = ? loop") {
                let database = try RawSQLite.Database(path: url.path)
                let values = try Item10.all(manager: manager).map { (id: $0.id, i3: $0.i3 + 1) }
                return { try database.update(values, table: "Item10") }
            },
            .prepared("GRDB Record subclass, update()") {
                let queue = try DatabaseQueue(path: url.path)
                let records = try queue.read { db in try ItemRecordWithID.fetchAll(db) }
                return { try updateRecords(records, queue) { record, db in try record.update(db) } }
            },
            .prepared("GRDB Record subclass, updateChanges()") {
                let queue = try DatabaseQueue(path: url.path)
                let records = try queue.read { db in try ItemRecordWithID.fetchAll(db) }
                return { try updateRecords(records, queue) { record, db in _ = try record.updateChanges(db) } }
            },
            .prepared("@DBBTable class, save(_:manager:) of changed objects") {
                let manager = try macroManager(url)
                let items = try MacroItem10.all(manager: manager)
                return {
                    for item in items { item.i3 += 1 }
                    try MacroItem10.save(items, manager: manager)
                    return items.count
                }
            },
            .prepared("DBBTableObject.saveObjects of changed objects") {
                let items = try Item10.all(manager: manager)
                return {
                    for item in items { item.i3 += 1 }
                    return try saveObjects(items, manager)
                }
            },
            .prepared("class mapped by hand, stored offsets (opt-in): saveObjects") {
                let manager = try offsetsManager(url)
                let items = try Item10.all(manager: manager)
                return {
                    for item in items { item.i3 += 1 }
                    return try saveObjects(items, manager)
                }
            },
            .fluentUpdate({ .sqlite(try fluentCopy(of: url, "update")) }, column: \.i3, check: \.count),
        ],
        expectedChecksum: rows)
}

/// Increments `i3` of each record, sets its `modifiedTime`, and writes it with `write`, in one
/// transaction; returns how many rows were changed.
private func updateRecords(
    _ records: [ItemRecordWithID], _ queue: DatabaseQueue, _ write: (ItemRecordWithID, GRDB.Database) throws -> Void
) throws -> Int {
    var changed = 0
    try queue.inTransaction { db in
        let now = Date().timeIntervalSinceReferenceDate
        for record in records {
            record.i3 += 1
            record.modifiedTime = now
            try write(record, db)
            changed += db.changesCount
        }
        return .commit
    }
    return changed
}

func singleSaveWorkload(saves: Int, directory: URL) throws -> Workload {
    let (url, manager) = try itemDatabase("single", rows: 0, directory: directory)
    return Workload(
        name: "\(saves.formatted()) single saves, each in its own transaction",
        summary: "The per-call cost of `save()` of one new object (construction included), against a raw prepared "
            + "`BEGIN IMMEDIATE; INSERT; COMMIT`, on the same WAL file with SQLite's default synchronous setting "
            + "(each commit waits for the disk).",
        goals: [Goal(contender: "DBBTableObject", baseline: "raw SQLite", maximum: 1.5)],
        contenders: [
            .prepared("raw SQLite C API, prepared BEGIN; INSERT; COMMIT") {
                let database = try RawSQLite.Database(path: url.path)
                return { try database.insertEach(count: saves, table: "Item10") }
            },
            .prepared("DBBTableObject.save()") {
                {
                    for item in makeItems(saves, manager) { try item.save() }
                    return saves
                }
            },
        ],
        expectedChecksum: saves)
}

func fetchWorkload(rows: Int, directory: URL) throws -> Workload {
    let (url, manager) = try itemDatabase("fetch", rows: rows, directory: directory)
    let queue = try DatabaseQueue(path: url.path)
    // Sum of every column of every row: sum over n of (10n + 45).
    let expected = 10 * (rows * (rows - 1) / 2) + 45 * rows
    return Workload(
        name: "Fetch \(rows.formatted()) rows of 10 integers",
        summary: "The same file for all, its connection opened before the clock. Raw C reads all 13 columns (id, the "
            + "timestamps, the ten integers) into structs; GRDB reads the ten columns; DBBBuilder reads all 13 into "
            + "objects (with their change-tracking snapshots).",
        goals: [
            Goal(contender: "@DBBTable", baseline: "raw SQLite", maximum: 1.25),
            Goal(contender: "DBBTableObject", baseline: "raw SQLite", maximum: 2.5),
            Goal(contender: "stored offsets (opt-in)", baseline: "raw SQLite", maximum: 2.5),
            Goal(contender: "DBBTableObject", baseline: "GRDB Record", maximum: 1),
            Goal(contender: "DBBTableObject", baseline: "Fluent", maximum: 1),
        ],
        contenders: [
            .preparedChecked("raw SQLite C API into structs") {
                let database = try RawSQLite.Database(path: url.path)
                return {
                    let rows = try database.fetch(table: "Item10")
                    return {
                        rows.reduce(0) {
                            $0 + $1.i0 + $1.i1 + $1.i2 + $1.i3 + $1.i4 + $1.i5 + $1.i6 + $1.i7 + $1.i8 + $1.i9
                        }
                    }
                }
            },
            .checked("GRDB optimized struct records") {
                let rows = try queue.read { db in try ItemStruct.fetchAll(db, sql: "SELECT \(columnList) FROM Item10") }
                return { rows.reduce(0) { $0 + $1.sum } }
            },
            .checked("GRDB Record subclass") {
                let records = try queue.read { db in try ItemRecord.fetchAll(db) }
                return { records.reduce(0) { $0 + $1.sum } }
            },
            .preparedChecked("@DBBTable class, all(manager:)") {
                let manager = try macroManager(url)
                return {
                    let items = try MacroItem10.all(manager: manager)
                    return {
                        items.reduce(0) {
                            $0 + $1.i0 + $1.i1 + $1.i2 + $1.i3 + $1.i4 + $1.i5 + $1.i6 + $1.i7 + $1.i8 + $1.i9
                        }
                    }
                }
            },
            .checked("DBBTableObject.instancesWithOptions") {
                guard let items = Item10.instancesWithOptions(DBBQueryOptions(), manager: manager) as? [Item10] else {
                    throw BenchmarkError(description: manager.errorMessage())
                }
                return {
                    items.reduce(0) {
                        $0 + $1.i0 + $1.i1 + $1.i2 + $1.i3 + $1.i4 + $1.i5 + $1.i6 + $1.i7 + $1.i8 + $1.i9
                    }
                }
            },
            .preparedChecked("class mapped by hand, stored offsets (opt-in): instancesWithOptions") {
                let manager = try offsetsManager(url)
                return {
                    guard let items = Item10.instancesWithOptions(DBBQueryOptions(), manager: manager) as? [Item10]
                    else { throw BenchmarkError(description: manager.errorMessage()) }
                    return {
                        items.reduce(0) {
                            $0 + $1.i0 + $1.i1 + $1.i2 + $1.i3 + $1.i4 + $1.i5 + $1.i6 + $1.i7 + $1.i8 + $1.i9
                        }
                    }
                }
            },
            .checked("DBBTableObject.forEachInstance (1,000 a batch, summed as it goes)") {
                var sum = 0
                try Item10.forEachInstance(manager: manager) { item in
                    sum +=
                        item.i0 + item.i1 + item.i2 + item.i3 + item.i4 + item.i5 + item.i6 + item.i7 + item.i8
                        + item.i9
                }
                return { sum }
            },
            .fluentFetch { .sqlite(try fluentCopy(of: url, "fetch")) },
        ],
        expectedChecksum: expected)
}

/// Objects with an array of five strings, in DBBBuilder's join table.
@DBBTable
final class Tagged: DBBTableObject {
    var name = ""
    var tags: [String] = []
}

func arrayWorkload(objects: Int, directory: URL) throws -> Workload {
    let url = directory.appendingPathComponent("arrays.sqlite")
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    let manager = try benchManager(url: url)
    try manager.register([Tagged.self])
    let items = (0..<objects).map { n -> Tagged in
        let item = Tagged(dbManager: manager)
        item.name = "item \(n)"
        item.tags = (0..<5).map { "tag\(n % 100)-\($0)" }
        return item
    }
    try Tagged.save(items, manager: manager)
    func checksum(_ names: [String], _ tags: [[String]]) -> Int {
        names.count * 1_000_000 + tags.reduce(0) { $0 + $1.count }
    }
    return Workload(
        name: "Fetch \(objects.formatted()) objects with a [String] of 5 elements",
        summary:
            "DBBBuilder loads the array with one query for the whole result; raw C builds the same data from one JOIN.",
        goals: [Goal(contender: "DBBTableObject", baseline: "raw SQLite", maximum: 1.3)],
        contenders: [
            .preparedChecked("raw SQLite C API, one JOIN") {
                let database = try RawSQLite.Database(path: url.path)
                return {
                    let rows = try database.fetchJoined()
                    return { checksum(rows.map(\.name), rows.map(\.tags)) }
                }
            },
            .checked("DBBTableObject.instancesWithOptions (arrays populated)") {
                let fetched = try Tagged.all(manager: manager)
                return { checksum(fetched.map(\.name), fetched.map(\.tags)) }
            },
        ],
        expectedChecksum: objects * 1_000_000 + objects * 5)
}
