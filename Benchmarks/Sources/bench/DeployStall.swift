import DBBBuilder
import DBBPostgres
import Foundation
import Synchronization

// A rolling deploy on a live PostgreSQL table (`--deploy-stall`, see
// Benchmarks/postgres/stall.sh): a table of ROWS rows, a writer of the old version saving a row
// every 10 ms, an ordinary report holding its read for 8 s, then the new version registered with
// one new column, one new index and NOT NULL on an existing column. Reports the longest wait any
// save saw, and how long the registration took. Run once with the registration's lock bound as it
// is by default, and once unbounded (a lock timeout of an hour: every statement waits as long as
// the lock is held, which is how registration behaved before the bound).

/// The old version: a quantity and a note, neither constrained.
class StallOrderVersion: DBBTableObject {
    override class var databaseTableName: String { "StallOrder" }
    var quantity = 0
    var note = ""
    var code: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        let upgraded = Self.self == StallOrderV2.self
        var mapping: [String: DBBPropertyPersistence] = [
            "quantity": DBBPropertyPersistence(\StallOrderVersion.quantity),
            "note": DBBPropertyPersistence(\StallOrderVersion.note),
        ]
        if upgraded { mapping["code"] = DBBPropertyPersistence(\StallOrderVersion.code) }
        dbManager.addPersistenceMapping(
            mapping, for: self, indexer: upgraded ? DBBIndexer(columnsToIndex: ["quantity"]) : nil)
        if upgraded { attributesDictionary = ["note": .notNull] }
    }
}

final class StallOrderV1: StallOrderVersion {}
final class StallOrderV2: StallOrderVersion {}

/// Runs the deploy once on a fresh table; prints one Markdown row.
func deployStall(url: String, rows: Int, bounded: Bool) throws {
    let setup = try DBBManager(postgres: url)
    try setup.execute(#"DROP TABLE IF EXISTS "StallOrder" CASCADE"#)
    try? setup.execute("DELETE FROM dbb_columns WHERE table_name = 'StallOrder'")  // none on a new server
    try setup.register([StallOrderV1.self])
    try setup.execute(
        #"INSERT INTO "StallOrder" ("createdTime", "modifiedTime", quantity, note) "#
            + "SELECT 0, 0, n % 1000, 'n' || n FROM generate_series(1, \(rows)) AS n")
    try setup.execute(#"VACUUM ANALYZE "StallOrder""#)

    let writer = try DBBManager(postgres: url)
    try writer.register([StallOrderV1.self])
    let stop = Atomic<Bool>(false)
    let waits = Mutex<[Double]>([])
    let writing = Thread {
        var next = ContinuousClock.now
        while !stop.load(ordering: .relaxed) {
            let order = StallOrderV1(dbManager: writer)
            (order.quantity, order.note) = (1, "during")
            let started = ContinuousClock.now
            try? order.save()
            let took = (ContinuousClock.now - started) / .seconds(1)
            waits.withLock { $0.append(took) }
            next += .milliseconds(10)
            let now = ContinuousClock.now
            if next > now { Thread.sleep(forTimeInterval: (next - now) / .seconds(1)) } else { next = now }
        }
    }
    writing.start()
    Thread.sleep(forTimeInterval: 1)
    let reporter = try DBBManager(postgres: url)
    let reported = DispatchSemaphore(value: 0)
    Thread {
        _ = try? reporter.query(#"SELECT count(*) FROM "StallOrder", pg_sleep(8) AS report"#)
        reported.signal()
    }.start()
    Thread.sleep(forTimeInterval: 1)
    let upgrade = try DBBManager(postgres: url)
    upgrade.schemaChanges =
        bounded ? DBBSchemaChanges() : DBBSchemaChanges(lockTimeout: .seconds(3600), waitLimit: .seconds(3600))
    let started = ContinuousClock.now
    try upgrade.register([StallOrderV2.self])
    let registration = (ContinuousClock.now - started) / .seconds(1)
    reported.wait()
    Thread.sleep(forTimeInterval: 1)
    stop.store(true, ordering: .relaxed)
    while writing.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
    let saves = waits.withLock { $0 }.sorted()
    let stored = try setup.query(#"SELECT count(*) FROM "StallOrder" WHERE note = 'during'"#)[0].decode(Int.self, at: 0)
    let median = saves.isEmpty ? 0 : saves[saves.count / 2]
    let lockBound = bounded ? "200 ms (default)" : "none (1 h)"
    print(
        "| \(rows) | \(lockBound) | \(saves.count) | \(stored) | \(String(format: "%.1f", median * 1000)) | "
            + "\(String(format: "%.0f", (saves.last ?? 0) * 1000)) | \(String(format: "%.2f", registration)) |")
}

/// Both runs, unbounded first.
func deployStallReport(url: String, rows: Int) throws {
    print("## A rolling deploy on a live table (PostgreSQL)")
    print()
    print("| rows | lock bound | saves | stored | median save ms | longest save ms | registration s |")
    print("|---|---|---|---|---|---|---|")
    try deployStall(url: url, rows: rows, bounded: false)
    try deployStall(url: url, rows: rows, bounded: true)
}

/// The same upgrade on a SQLite file of `rows` rows (`--sqlite-rebuild`): `NOT NULL` on an
/// existing column rebuilds the table, copying every row, inside the registration's one
/// transaction, which holds the database's writer throughout. Prints how long that took, and
/// how long another connection's write waited for it.
func sqliteRebuildReport(rows: Int, directory: URL) throws {
    let path = directory.appendingPathComponent("rebuild.sqlite").path
    let setup = try DBBManager(url: URL(fileURLWithPath: path))
    try setup.register([StallOrderV1.self])
    try setup.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows)) "
            + "INSERT INTO StallOrder (createdTime, modifiedTime, quantity, note) SELECT 0, 0, i % 1000, 'n' || i FROM n"
    )
    let writer = try DBBManager(url: URL(fileURLWithPath: path))
    try writer.register([StallOrderV1.self])
    let upgrade = try DBBManager(url: URL(fileURLWithPath: path))
    let waited = Mutex<(seconds: Double, saved: Bool)>((0, false))
    let started = ContinuousClock.now
    let writing = Thread {
        Thread.sleep(forTimeInterval: 0.05)  // once the registration holds the writer
        let order = StallOrderV1(dbManager: writer)
        order.note = "during"
        let began = ContinuousClock.now
        let saved = (try? order.save()) != nil
        waited.withLock { $0 = ((ContinuousClock.now - began) / .seconds(1), saved) }
    }
    writing.start()
    try upgrade.register([StallOrderV2.self])
    let registration = (ContinuousClock.now - started) / .seconds(1)
    while writing.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
    print("## A registration that rebuilds a table (SQLite)")
    print()
    let save = waited.withLock { $0 }
    print("| rows | registration s | another connection's save waited s | saved |")
    print("|---|---|---|---|")
    print(
        "| \(rows) | \(String(format: "%.2f", registration)) | \(String(format: "%.2f", save.seconds)) | "
            + "\(save.saved ? "yes" : "no (busy)") |")
}
