import DBBBuilder
import DBBSQLite
import Foundation
import RawSQLite

/// A page visit: the table the typed-report workloads read.
@DBBTable(tableName: "Visit")
final class BenchVisit: DBBTableObject {
    @Indexed var page = ""
    var seconds = 0
    var day: Date?
}

/// A file database of `rows` visits over 20 pages and three years, deterministic, and a manager
/// on it with ``BenchVisit`` registered.
private func makeVisitDatabase(rows: Int, directory: URL) throws -> (URL, DBBManager) {
    let url = directory.appendingPathComponent("visits-\(rows).sqlite")
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    let manager = try benchManager(url: url)
    try manager.register([BenchVisit.self])
    var state: UInt64 = 7
    let start = Date(timeIntervalSinceReferenceDate: 600_000_000)
    let visits = (0..<rows).map { _ -> BenchVisit in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let visit = BenchVisit(dbManager: manager)
        visit.page = "page-\(Int(state >> 40) % 20)"
        visit.seconds = Int(state >> 50) % 600
        visit.day = start.addingTimeInterval(Double(Int(state >> 30) % (3 * 365)) * 86_400)
        return visit
    }
    try BenchVisit.save(visits, manager: manager)
    return (url, manager)
}

/// The typed weekly report against the same SQL run as a string: the typed query is built,
/// rendered and run in the loop, as a report in a service is.
func typedReportWorkload(rows: Int, directory: URL) throws -> Workload {
    let (url, manager) = try makeVisitDatabase(rows: rows, directory: directory)
    func weekly() -> DBBSelect<BenchVisit, String?, Int, Int?> {
        BenchVisit.select(.week(of: \.day, in: "ru_RU"), .count(), .sum(\.seconds))
            .where(\.seconds > 10)
            .group(by: .week(of: \.day, in: "ru_RU"))
            .order(by: .ascending(.week(of: \.day, in: "ru_RU")))
    }
    let statement = try weekly().sql(on: manager)
    let expected = try weekly().rows(manager).reduce(0) { $0 + $1.1 }
    return Workload(
        name: "Typed weekly report over \(rows.formatted()) visits (ru_RU weeks, COUNT, SUM, WHERE, GROUP BY)",
        summary:
            "The typed `DBBSelect` built, rendered and run, against the SQL it renders (`\(statement.sql)`) run as a "
            + "string through `manager.query` and `manager.forEachRow`, and through SQLite's C API.",
        goals: [Goal(contender: "typed DBBSelect", baseline: "manager.query", maximum: 1.1)],
        contenders: reportContenders(url, manager, statement, weekly),
        expectedChecksum: expected)
}

/// A small report repeated: one row's count and time by its id, `runs` times; the typed
/// query's building and rendering is most of what differs from the SQL string.
func typedPointReportWorkload(runs: Int, directory: URL) throws -> Workload {
    let (url, manager) = try makeVisitDatabase(rows: 20_000, directory: directory)
    func point() -> DBBSelect<BenchVisit, Int, Int?> {
        BenchVisit.select(.count(), .sum(\.seconds)).where(\.id == 4_242 && \.seconds >= 0)
    }
    let statement = try point().sql(on: manager)
    let once = try point().rows(manager).reduce(0) { $0 + $1.0 }
    return Workload(
        name: "Typed point report, \(runs.formatted()) runs (COUNT, SUM WHERE id = ? AND seconds >= ?)",
        summary:
            "Each run builds, renders and runs the typed `DBBSelect` (an indexed lookup of a few rows), against the "
            + "SQL it renders (`\(statement.sql)`) as a string, and SQLite's C API with a prepared statement.",
        goals: [Goal(contender: "typed DBBSelect", baseline: "manager.query", maximum: 1.1)],
        contenders: reportContenders(url, manager, statement, point, runs: runs),
        expectedChecksum: once * runs)
}

/// The contenders of a report: each sums the first integer column of every row, `runs` times.
private func reportContenders<each Value>(
    _ url: URL, _ manager: DBBManager, _ statement: DBBQuerySQL,
    _ query: @escaping () -> DBBSelect<BenchVisit, repeat each Value>,
    runs: Int = 1
) -> [Contender] where repeat each Value: DBBColumnValue {
    let arguments: DBBArguments = statement.arguments
    return [
        Contender(name: "typed DBBSelect") {
            var sum = 0
            for _ in 0..<runs { sum += try query().rows(manager).reduce(0) { $0 + firstInteger(repeat each $1) } }
            return sum
        },
        Contender(name: "one DBBSelect, built before the loop") {
            let built = query()
            var sum = 0
            for _ in 0..<runs { sum += try built.rows(manager).reduce(0) { $0 + firstInteger(repeat each $1) } }
            return sum
        },
        Contender(name: "manager.query (the same SQL string)") {
            var sum = 0
            for _ in 0..<runs {
                for row in try manager.query(statement.sql, arguments: arguments) {
                    sum += try row.decode(Int.self, at: firstIntegerIndex(repeat (each Value).self))
                }
            }
            return sum
        },
        Contender(name: "manager.forEachRow (the same SQL string)") {
            var sum = 0
            let index = firstIntegerIndex(repeat (each Value).self)
            for _ in 0..<runs {
                try manager.forEachRow(statement.sql, arguments: arguments) {
                    sum += Int($0.int64(at: index))
                }
            }
            return sum
        },
        .prepared("raw SQLite (prepared statement)") {
            let db = try SQLiteConnection(path: url.path)
            try db.addLocaleFunctions()
            let index = firstIntegerIndex(repeat (each Value).self)
            return {
                var sum = 0
                for _ in 0..<runs {
                    let prepared = try db.cachedStatement(statement.sql)
                    for (number, value) in statement.arguments.enumerated() { try prepared.bind(value, at: number + 1) }
                    while try prepared.step() { sum += Int(prepared.row.int64(at: index)) }
                    prepared.reset()
                }
                return sum
            }
        },
    ]
}

/// The first `Int` of a row.
private func firstInteger<each Value>(_ values: repeat each Value) -> Int {
    for value in repeat each values { if let integer = value as? Int { return integer } }
    return 0
}

/// The index of the first `Int` column of a row of these types.
private func firstIntegerIndex<each Value>(_ types: repeat (each Value).Type) -> Int {
    var index = 0
    for type in repeat each types {
        if type == Int.self { return index }
        index += 1
    }
    return 0
}

/// Point fetches of objects by a condition, `runs` times: the typed condition (rendered from
/// the expression tree) against the same condition as a string (`DBBQueryOptions`, which the
/// typed form was rendered to and parsed from before the tree) and the fetch by id.
func typedFetchWorkload(runs: Int, directory: URL) throws -> Workload {
    let (_, manager) = try makeVisitDatabase(rows: 20_000, directory: directory)
    let ids = try BenchVisit.allIDs(manager: manager)
    func id(_ run: Int) -> Int64 { ids[(run &* 7_919) % ids.count] }
    return Workload(
        name: "Typed point fetch, \(runs.formatted()) runs (one object WHERE id = ? AND seconds >= ?)",
        summary:
            "Each run fetches one object of a 20,000-row table by a condition: typed, as a string condition "
            + "(`DBBQueryOptions`), and by id.",
        goals: [Goal(contender: "typed instances(where:)", baseline: "instances(matching:)", maximum: 1)],
        contenders: [
            Contender(name: "typed instances(where:)") {
                var count = 0
                for run in 0..<runs {
                    count += try BenchVisit.instances(where: \.id == id(run) && \.seconds >= 0, manager: manager).count
                }
                return count
            },
            Contender(name: "instances(matching:) with a string condition") {
                var count = 0
                for run in 0..<runs {
                    var options = DBBQueryOptions()
                    options.conditions = ["id = ?", "seconds >= ?"]
                    options.arguments = [id(run), 0]
                    count += try BenchVisit.instances(matching: options, manager: manager).count
                }
                return count
            },
            Contender(name: "instance(id:) (no condition)") {
                var count = 0
                for run in 0..<runs { count += try BenchVisit.instance(id: id(run), manager: manager) == nil ? 0 : 1 }
                return count
            },
        ],
        expectedChecksum: runs)
}
