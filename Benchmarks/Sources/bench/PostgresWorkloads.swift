import DBBBuilder
import DBBPostgres
import Foundation
import Logging
import PostgresNIO
import Synchronization

// DBBBuilder on PostgreSQL against raw postgres-nio running the same statements over the same
// kind of connection (one `PostgresConnection`, each query's future waited for on the calling
// thread, as the manager's synchronous forms do). Both talk to the server given by
// `DBB_BENCH_POSTGRES` (see `Benchmarks/postgres/bench.sh`, which starts a throwaway one).

/// The server the PostgreSQL workloads use, from `DBB_BENCH_POSTGRES`; `nil` skips them.
let benchPostgresURL = ProcessInfo.processInfo.environment["DBB_BENCH_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

/// One raw postgres-nio connection, each query run to completion before the next.
final class RawPostgres {
    let connection: PostgresConnection
    private let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

    init(url: String) throws {
        let settings = try DBBPostgresConfiguration(url: url)
        let configuration = PostgresConnection.Configuration(
            host: settings.host, port: settings.port, username: settings.username, password: settings.password,
            database: settings.database, tls: .disable)
        connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(),
            configuration: configuration, id: 1, logger: logger
        ).wait()
    }

    deinit { try? connection.close().wait() }

    /// Runs `sql` with `binds` and returns every row.
    @discardableResult
    func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> PostgresQueryResult {
        try connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
    }
}

/// DBBBuilder's table layout for `Item10` on PostgreSQL, column by column.
private let pgColumns = #""i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9""#

/// Empties `Item10` and restarts its ids.
private let truncateItems = #"TRUNCATE "Item10" RESTART IDENTITY CASCADE"#

/// A manager on the bench server with the `@DBBTable` class of `Item10` registered, and the table emptied.
private func postgresItems(_ url: String) throws -> DBBManager {
    let manager = try DBBManager(postgres: url)
    try manager.register([MacroItem10.self])
    try manager.execute(truncateItems)
    return manager
}

/// The rows of a multi-row INSERT: PostgreSQL's limit is 65,535 parameters a statement, 12 a row here.
private let rowsPerInsert = 5_000

func postgresInsertWorkload(rows: Int, url: String) throws -> Workload {
    let manager = try postgresItems(url)
    let raw = try RawPostgres(url: url)
    let insertColumns = #"INSERT INTO "Item10" ("createdTime", "modifiedTime", "# + pgColumns + ") VALUES "
    return Workload(
        name: "PostgreSQL: insert \(rows.formatted()) rows of 10 integers in one transaction",
        summary:
            "Before the clock: the table is emptied and its ids restarted. Timed: DBBBuilder constructs the objects "
            + "and saves them; the floor, raw postgres-nio, runs BEGIN, a multi-row `INSERT … VALUES (…), (…) … "
            + "RETURNING \"id\"` of \(rowsPerInsert.formatted()) rows a statement (the fastest way the engine "
            + "offers short of COPY, which returns no ids), COMMIT; the tighter floor, one `INSERT … SELECT FROM "
            + "unnest($1::float8[], …)` of every row, each column one array parameter (the statement shape DBBBuilder "
            + "sends, without its id ordering); Fluent's batch `create`, 5,000 rows a statement; also shown, raw "
            + "postgres-nio a row at a time, as "
            + "DBBBuilder wrote before its set-based saves. Checksum: the sum of the ids the server returned.",
        goals: [
            Goal(contender: "DBBTableObject", baseline: "multi-row", maximum: 1.5),
            Goal(contender: "DBBTableObject", baseline: "unnest", maximum: 1.5),
            Goal(contender: "DBBTableObject", baseline: "Fluent", maximum: 1),
        ],
        contenders: [
            .prepared("raw postgres-nio, multi-row INSERT") {
                try raw.run(truncateItems)
                return {
                    let now = Date().timeIntervalSinceReferenceDate
                    var ids = 0
                    try raw.run("BEGIN")
                    for first in stride(from: 0, to: rows, by: rowsPerInsert) {
                        let count = min(rowsPerInsert, rows - first)
                        var binds = PostgresBindings(capacity: 12 * count)
                        var tuples: [String] = []
                        tuples.reserveCapacity(count)
                        for n in first..<(first + count) {
                            let base = tuples.count * 12
                            tuples.append("(" + (1...12).map { "$\(base + $0)" }.joined(separator: ", ") + ")")
                            binds.append(now)
                            binds.append(now)
                            for column in 0..<10 { binds.append(n + column) }
                        }
                        let sql = insertColumns + tuples.joined(separator: ", ") + #" RETURNING "id""#
                        for row in try raw.run(sql, binds).rows { ids += try row.decode(Int.self) }
                    }
                    try raw.run("COMMIT")
                    return ids
                }
            },
            .prepared("raw postgres-nio, INSERT … SELECT FROM unnest(arrays)") {
                try raw.run(truncateItems)
                return {
                    let now = Date().timeIntervalSinceReferenceDate
                    var binds = PostgresBindings(capacity: 12)
                    binds.append(Array(repeating: now, count: rows))
                    binds.append(Array(repeating: now, count: rows))
                    for column in 0..<10 { binds.append(Array(column..<(rows + column))) }
                    let arrays =
                        "$1::float8[], $2::float8[], " + (3...12).map { "$\($0)::bigint[]" }.joined(separator: ", ")
                    var ids = 0
                    try raw.run("BEGIN")
                    let sql =
                        insertColumns.dropLast(" VALUES ".count) + " SELECT * FROM unnest(\(arrays)) RETURNING \"id\""
                    for row in try raw.run(String(sql), binds).rows { ids += try row.decode(Int.self) }
                    try raw.run("COMMIT")
                    return ids
                }
            },
            .prepared("raw postgres-nio, INSERT … RETURNING a row") {
                try raw.run(truncateItems)
                return {
                    let sql = insertColumns + "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING \"id\""
                    let now = Date().timeIntervalSinceReferenceDate
                    var ids = 0
                    try raw.run("BEGIN")
                    for n in 0..<rows {
                        var binds = PostgresBindings(capacity: 12)
                        binds.append(now)
                        binds.append(now)
                        for column in 0..<10 { binds.append(n + column) }
                        for row in try raw.run(sql, binds).rows { ids += try row.decode(Int.self) }
                    }
                    try raw.run("COMMIT")
                    return ids
                }
            },
            .prepared("DBBTableObject.save") {
                try manager.execute(truncateItems)
                return {
                    let items = makeMacroItems(rows, manager)
                    try MacroItem10.save(items, manager: manager)
                    return items.reduce(0) { $0 + Int($1.id) }
                }
            },
            .fluentInsert(
                rows: rows,
                {
                    try raw.run(truncateItems)
                    return try .postgres(url)
                }, check: { $0 }),
        ],
        expectedChecksum: rows * (rows + 1) / 2)
}

func postgresUpdateWorkload(rows: Int, url: String) throws -> Workload {
    let manager = try postgresItems(url)
    try MacroItem10.save(makeMacroItems(rows, manager), manager: manager)
    try manager.execute(#"VACUUM ANALYZE "Item10""#)
    let raw = try RawPostgres(url: url)
    // Every run adds 1 to i0 of every row: the checksum is the sum of i0 after the run, less what
    // the earlier runs added, so each contender's run is checked alone.
    let runs = Mutex(0)
    let baseSum = rows * (rows - 1) / 2
    func checksum(_ sumOfI0: Int) -> Int {
        runs.withLock { count in
            count += 1
            return sumOfI0 - (count - 1) * rows
        }
    }
    return Workload(
        name: "PostgreSQL: update one column of \(rows.formatted()) fetched objects in one transaction",
        summary:
            "Before the clock: the objects are fetched (DBBBuilder) or their ids and values read (raw). Timed: one "
            + "column of each changed and written; the floor, raw postgres-nio, runs one set-based `UPDATE … SET "
            + "\"i0\" = v.i0, \"modifiedTime\" = v.m FROM unnest($1::bigint[], $2::float8[], $3::bigint[]) AS v(id, m, i0) "
            + "WHERE \"Item10\".\"id\" = v.id` in a transaction. Checksum: the sum of the new values.",
        goals: [
            Goal(contender: "DBBTableObject", baseline: "set-based", maximum: 1.5),
            Goal(contender: "DBBTableObject", baseline: "Fluent", maximum: 1),
        ],
        contenders: [
            .prepared("raw postgres-nio, set-based UPDATE") {
                let current = try raw.run(#"SELECT "id", "i0" FROM "Item10""#).rows.map {
                    try $0.decode((Int, Int).self)
                }
                return {
                    var binds = PostgresBindings(capacity: 3)
                    binds.append(current.map(\.0))
                    binds.append(Array(repeating: Date().timeIntervalSinceReferenceDate, count: current.count))
                    binds.append(current.map { $0.1 + 1 })
                    try raw.run("BEGIN")
                    try raw.run(
                        #"UPDATE "Item10" SET "i0" = v.i0, "modifiedTime" = v.m FROM unnest($1::bigint[], "#
                            + #"$2::float8[], $3::bigint[]) AS v(id, m, i0) WHERE "Item10"."id" = v.id"#, binds)
                    try raw.run("COMMIT")
                    return checksum(current.reduce(0) { $0 + $1.1 + 1 })
                }
            },
            .prepared("DBBTableObject.save") {
                let items = try MacroItem10.all(manager: manager)
                return {
                    for item in items { item.i0 += 1 }
                    try MacroItem10.save(items, manager: manager)
                    return checksum(items.reduce(0) { $0 + $1.i0 })
                }
            },
            .fluentUpdate({ try .postgres(url) }, column: \.i0) { items in checksum(items.reduce(0) { $0 + $1.i0 }) },
        ],
        expectedChecksum: baseSum + rows)
}

func postgresFetchWorkload(rows: Int, url: String) throws -> Workload {
    let manager = try postgresItems(url)
    try manager.execute(
        #"INSERT INTO "Item10" ("createdTime", "modifiedTime", "# + pgColumns + ") "
            + "SELECT 1, 1, n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7, n + 8, n + 9 "
            + "FROM generate_series(0, \(rows - 1)) AS n")
    try manager.execute(#"VACUUM ANALYZE "Item10""#)
    let raw = try RawPostgres(url: url)
    struct Row {
        let id: Int
        let created: Double?, modified: Double?
        let i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
        var sum: Int { i0 + i1 + i2 + i3 + i4 + i5 + i6 + i7 + i8 + i9 }
    }
    return Workload(
        name: "PostgreSQL: fetch \(rows.formatted()) rows of 10 integers",
        summary: "Both run the SELECT the manager sends (id, the two timestamps, the ten columns); raw postgres-nio "
            + "decodes each row into a struct, DBBBuilder makes the objects (with their change-tracking snapshots) "
            + "inside its read transaction.",
        goals: [
            Goal(contender: "DBBTableObject", baseline: "raw postgres-nio", maximum: 1.15),
            Goal(contender: "DBBTableObject", baseline: "Fluent", maximum: 1),
        ],
        contenders: [
            .checked("raw postgres-nio into structs") {
                let sql = #"SELECT "id", "createdTime", "modifiedTime", "# + pgColumns + #" FROM "Item10""#
                let rows = try raw.run(sql).rows.map { row in
                    let (id, created, modified, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = try row.decode(
                        (Int, Double?, Double?, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int).self)
                    return Row(
                        id: id, created: created, modified: modified,
                        i0: i0, i1: i1, i2: i2, i3: i3, i4: i4, i5: i5, i6: i6, i7: i7, i8: i8, i9: i9)
                }
                return { rows.reduce(0) { $0 + $1.sum } }
            },
            .checked("DBBTableObject.all") {
                let items = try MacroItem10.all(manager: manager)
                return {
                    items.reduce(0) {
                        $0 + $1.i0 + $1.i1 + $1.i2 + $1.i3 + $1.i4 + $1.i5 + $1.i6 + $1.i7 + $1.i8 + $1.i9
                    }
                }
            },
            .fluentFetch { try .postgres(url) },
        ],
        expectedChecksum: 10 * (rows * (rows - 1) / 2) + 45 * rows)
}

/// Usage rows for the weekly report: a date and a value.
@DBBTable
final class Usage: DBBTableObject {
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var value = 0.0
}

func postgresWeeklyWorkload(rows: Int, url: String) throws -> Workload {
    let manager = try DBBManager(postgres: url)
    try manager.register([Usage.self])
    try manager.execute(#"TRUNCATE "Usage" RESTART IDENTITY"#)
    // Whole-number values, so that every contender's sum is exact; dates over 20 years.
    try manager.execute(
        #"INSERT INTO "Usage" ("createdTime", "modifiedTime", "date", "value") "#
            + "SELECT 1, 1, 5 * 365.25 * 86400 + (n::bigint * 7919 % \(rows)) * (20 * 365.25 * 86400 / \(rows)), n % 100 "
            + "FROM generate_series(1, \(rows)) AS n")
    try manager.execute(#"VACUUM ANALYZE "Usage""#)
    let raw = try RawPostgres(url: url)
    let sql = #"SELECT dbb_week("date", 'de_DE') AS "week", sum("value") FROM "Usage" GROUP BY "week" ORDER BY "week""#
    let expected = (1...rows).reduce(0) { $0 + $1 % 100 }
    return Workload(
        name: "PostgreSQL: weekly GROUP BY over \(rows.formatted()) rows",
        summary: "`\(sql)` — the locale function installed in the server by the manager; DBBBuilder's "
            + "`query` against raw postgres-nio decoding (String, Double). Checksum: the sum of the weeks' sums.",
        goals: [Goal(contender: "DBBManager.query", baseline: "raw postgres-nio", maximum: 1.5)],
        contenders: [
            .checked("raw postgres-nio, (String, Double) rows") {
                let weeks = try raw.run(sql).rows.map { try $0.decode((String, Double).self) }
                return { Int(weeks.reduce(0) { $0 + $1.1 }) }
            },
            .checked("DBBManager.query") {
                let weeks = try manager.query(sql)
                return { Int(weeks.reduce(0) { $0 + ($1[1, as: Double.self] ?? 0) }) }
            },
        ],
        expectedChecksum: expected)
}
