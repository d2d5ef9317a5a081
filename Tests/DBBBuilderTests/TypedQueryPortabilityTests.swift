import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Integers narrower than Int64, a unique code, and a divisor: what the update guards meet.
@DBBTable
final class Meter: DBBTableObject {
    @Unique var code: String?
    var n = 0
    var divisor = 1
    var small: Int32 = 0
    var tiny: UInt8 = 0
    var on = false
    var maybe: Int?
}

/// What SQLite would run and PostgreSQL refuses (or SQLite would store and PostgreSQL
/// refuses) is refused alike on both, before anything changes: an update whose expression
/// gives a value the column's property cannot hold, a grouped report reading a column outside
/// its groups, a `DISTINCT` sorted by what it does not select, an `IN` list past the bound values
/// a statement holds.
@Suite struct TypedQueryPortabilityTests {
    static func visit(_ manager: DBBManager, _ page: String, clicks: Int, seconds: Double, referrer: String? = nil)
        -> Visit
    {
        let visit = Visit(dbManager: manager)
        (visit.page, visit.clicks, visit.seconds, visit.referrer) = (page, clicks, seconds, referrer)
        return visit
    }

    @Test("an update dividing by zero or past Int64 is refused on both and writes nothing", arguments: Backend.allCases)
    func updateArithmeticOutsideTheType(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let small = Self.visit(manager, "/a", clicks: 5, seconds: 1.5)
        let huge = Self.visit(manager, "/b", clicks: .max, seconds: 2)
        try Visit.save([small, huge], manager: manager)
        let attempts: [(DBBAssignment<Visit>, DBBCondition<Visit>, Int64)] = [
            (.set(\.clicks, to: .column(\.clicks) / .value(0)), .all, small.id),
            (.set(\.clicks, to: .column(\.clicks) + .value(1)), \.page == "/b", huge.id),
            (.set(\.seconds, to: .column(\.seconds) / .value(0.0)), \.page == "/a", small.id),
        ]
        for (assignment, condition, rowID) in attempts {
            do {
                try Visit.update(assignment, .set(\.page, to: "changed"), where: condition, manager: manager)
                Issue.record("\(backend): the update ran")
            } catch let error as DBBError {
                switch backend {
                case .sqlite:
                    #expect(error.kind == .invalidValue, "\(error)")
                    #expect(error.rowID == rowID && error.table == "Visit", "\(error)")
                    #expect(error.property == "clicks" || error.property == "seconds", "\(error)")
                    #expect("\(error)".contains("nothing was written"), "\(error)")
                case .postgresql:
                    #expect(error.kind == .server, "\(error)")
                }
            }
        }
        // Nothing changed, and the table reads back through the object API.
        let reader = try database.reopen([Visit.self])
        let rows = try Visit.instances(sortedBy: [.ascending(\.page)], manager: reader)
        #expect(rows.map(\.page) == ["/a", "/b"])
        #expect(rows.map(\.clicks) == [5, .max])
        #expect(rows.map(\.seconds) == [1.5, 2])
        // A sum that fits, and NULL into an optional, are written.
        #expect(
            try Visit.update(.set(\.clicks, to: .column(\.clicks) * .value(2)), where: \.page == "/a", manager: manager)
                == 1)
        #expect(try Visit.update(.set(\.referrer, to: .column(\.page) + "?"), where: .all, manager: manager) == 2)
        #expect(
            try Visit.select(.column(\.clicks), .column(\.referrer)).order(by: .ascending(\.page)).rows(manager).map(
                \.0) == [10, .max])
    }

    @Test("a grouped report reading a column outside its groups is refused on both", arguments: Backend.allCases)
    func ungroupedColumnsRefused(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        try Visit.save(
            [
                Self.visit(manager, "/a", clicks: 2, seconds: 1, referrer: "g"),
                Self.visit(manager, "/b", clicks: 1, seconds: 2, referrer: "g"),
                Self.visit(manager, "/c", clicks: 3, seconds: 3),
            ], manager: manager)
        let refusals: [(String, () throws -> Void)] = [
            (
                "Visit.page",
                { _ = try Visit.select(.column(\.page), .count()).group(by: .column(\.referrer)).rows(manager) }
            ),
            ("Visit.page", { _ = try Visit.select(.column(\.page), .max(\.clicks)).rows(manager) }),
            (
                "Visit.clicks",
                {
                    _ = try Visit.select(.column(\.referrer), .count()).group(by: .column(\.referrer))
                        .having(\.clicks > 1).rows(manager)
                }
            ),
            (
                "Visit.seconds",
                {
                    _ = try Visit.select(.column(\.referrer), .count()).group(by: .column(\.referrer))
                        .order(by: .ascending(\.seconds)).rows(manager)
                }
            ),
            (
                "Visit.clicks",
                {
                    let plusOne = DBBExpression<Visit, Int>.column(\.clicks) + 1
                    _ = try Visit.select(.column(\.referrer), plusOne).group(by: .column(\.referrer)).rows(manager)
                }
            ),
            (
                "Visit.clicks",
                { _ = try Visit.select(.column(\.referrer)).distinct().order(by: .ascending(\.clicks)).rows(manager) }
            ),
        ]
        for (culprit, body) in refusals {
            do {
                try body()
                Issue.record("\(backend): ran, expected a refusal naming \(culprit)")
            } catch let error as DBBError {
                #expect(error.kind == .invalidOption, "\(error)")
                #expect("\(error)".contains(culprit), "\(error)")
            }
        }
        // What both engines take: the grouped expression itself, an expression of it, a
        // column of the grouped id's row, a DISTINCT sorted by what it selects.
        let week = DBBExpression<Visit, String?>.week(of: \.day, in: "ru_RU")
        #expect(try Visit.select(week, .count()).group(by: week).rows(manager).map(\.1) == [3])
        let twice = DBBExpression<Visit, Int>.column(\.clicks) * 2
        let doubled = try Visit.select(twice, .count()).group(by: .column(\.clicks))
            .order(by: .ascending(twice)).rows(manager)
        #expect(doubled.map(\.0) == [2, 4, 6])
        let perRow = try Visit.select(.column(\.page), .sum(\.clicks)).group(by: .column(\.id))
            .order(by: .ascending(\.page)).rows(manager)
        #expect(perRow.map(\.0) == ["/a", "/b", "/c"])
        let distinct = try Visit.select(.column(\.referrer)).distinct().order(by: .descending(\.referrer)).rows(manager)
        #expect(distinct == ["g", nil])
    }

    @Test("an IN list past 32,766 bound values is refused on both with a short message", arguments: Backend.allCases)
    func longInListRefused(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        try Visit.save([Self.visit(manager, "/a", clicks: 5, seconds: 1)], manager: manager)
        let values = Array(0..<40_000)
        let attempts: [() throws -> Void] = [
            { _ = try Visit.instances(where: .in(\.clicks, values), manager: manager) },
            { _ = try Visit.select(.count()).where(.notIn(\.clicks, values)).rows(manager) },
            { try Visit.delete(where: .in(\.clicks, values), manager: manager) },
        ]
        for attempt in attempts {
            do {
                try attempt()
                Issue.record("\(backend): ran")
            } catch let error as DBBError {
                #expect(error.kind == .invalidOption && error.property == "clicks", "\(error)")
                #expect("\(error)".contains("40000 values") && "\(error)".count < 600, "\(error)")
            }
        }
        // A list within the bound runs, and nothing was deleted.
        #expect(try Visit.instances(where: .in(\.clicks, Array(0..<30_000)), manager: manager).count == 1)
    }

    static func meters(_ manager: DBBManager) throws -> [String] {
        try Meter.instances(sortedBy: [.ascending(\.n)], manager: manager).map {
            "\($0.code ?? "-") \($0.n) \($0.divisor) \($0.small) \($0.tiny)"
        }
    }

    @Test("an update past an Int32 property's range is refused on both and writes nothing", arguments: Backend.allCases)
    func narrowIntegersOverflow(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Meter.self]) else { return }
        let manager = database.manager
        let (low, high) = (Meter(dbManager: manager), Meter(dbManager: manager))
        (low.n, low.small, low.tiny) = (1, 7, 3)
        (high.n, high.small, high.tiny) = (2, .max, 255)
        try Meter.save([low, high], manager: manager)
        let before = try Self.meters(manager)
        let small = DBBExpression<Meter, Int32>.column(\.small)
        let attempts: [DBBAssignment<Meter>] = [.set(\.small, to: small + 1), .set(\.small, to: small * -1 - 2)]
        for (number, assignment) in attempts.enumerated() {
            do {
                try Meter.update(assignment, where: .all, manager: manager)
                Issue.record("\(backend): update \(number) ran")
            } catch let error as DBBError {
                switch backend {
                case .sqlite:
                    #expect(error.kind == .invalidValue && error.rowID == high.id, "\(number): \(error)")
                    #expect(error.property == "small", "\(error)")
                case .postgresql:
                    #expect(error.kind == .server && "\(error)".contains("out of the property's range"), "\(error)")
                }
            }
        }
        #expect(try Self.meters(try database.reopen([Meter.self])) == before)
        // Within the range it is written, NULL-free and exact.
        #expect(try Meter.update(.set(\.small, to: small - 1), where: .all, manager: manager) == 2)
        #expect(try Self.meters(manager) == ["- 1 1 6 3", "- 2 1 \(Int32.max - 1) 255"])
    }

    @Test(
        "a guarded update that breaks a UNIQUE column reports the database's error on its own statement",
        arguments: Backend.allCases)
    func guardedUpdateAndUnique(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Meter.self]) else { return }
        let manager = database.manager
        let (a, b) = (Meter(dbManager: manager), Meter(dbManager: manager))
        (a.code, a.n, b.code, b.n) = ("a", 1, "b", 2)
        try Meter.save([a, b], manager: manager)
        let before = try Self.meters(manager)
        let write = Meter.updating(.set(\.n, to: .column(\.n) + 1), .set(\.code, to: "same"), where: .all)
        let error = try #require(throws: DBBError.self) { try write.run(manager) }
        #expect(error.kind != .invalidValue, "\(error)")
        #expect(!"\(error)".contains("RETURNING"), "the error quotes the library's diagnosis: \(error)")
        #expect(try Self.meters(manager) == before)
    }

    @Test(
        "values bound after a long IN list count toward the limit, and misplaced aggregates are refused",
        arguments: Backend.allCases)
    func boundCountAndMisplacedAggregates(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        try Visit.save([Self.visit(manager, "/a", clicks: 5, seconds: 1)], manager: manager)
        let listFirst: DBBCondition<Visit> = .in(\.clicks, Array(0..<32_765)) && \.page == "/a" && \.referrer != "-"
        let count = DBBExpression<Visit, Int>.count()
        let error = try #require(throws: DBBError.self) { try Visit.select(count).where(listFirst).rows(manager) }
        #expect(error.kind == .invalidOption && "\(error)".contains("32767 values"), "\(error)")
        let misplaced: [(String, () throws -> Void)] = [
            ("condition (where)", { _ = try Visit.select(count).where(count > 1).rows(manager) }),
            ("groups by an aggregate", { _ = try Visit.select(count).group(by: count).rows(manager) }),
            ("inside another", { _ = try Visit.select(DBBExpression<Visit, Int?>.sum(count)).rows(manager) }),
        ]
        for (words, shape) in misplaced {
            let refused = try #require(throws: DBBError.self) { try shape() }
            #expect(refused.kind == .invalidOption && "\(refused)".contains(words), "\(refused)")
        }
    }

    @Test(
        "a Bool property is a condition, and a condition sets a Bool property, on both backends",
        arguments: Backend.allCases)
    func boolPropertiesAndConditions(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Meter.self]) else { return }
        let manager = database.manager
        let meters = (1...4).map { n in
            let meter = Meter(dbManager: manager)
            (meter.n, meter.on, meter.maybe) = (n, n % 2 == 0, n == 4 ? nil : n)
            return meter
        }
        try Meter.save(meters, manager: manager)
        let on = DBBExpression<Meter, Bool>.column(\.on)
        func ns(_ condition: DBBCondition<Meter>) throws -> [Int] {
            try Meter.instances(where: condition, sortedBy: [.ascending(\.n)], manager: manager).map(\.n)
        }
        #expect(try ns(on) == [2, 4])
        #expect(try ns(!on) == [1, 3])
        #expect(try ns(on && \.n > 2) == [4])
        #expect(try ns(\.n == 1 || on) == [1, 2, 4])
        #expect(try Meter.select(.count()).where(on).rows(manager) == [2])
        #expect(try Meter.delete(where: on && \.n > 3, manager: manager) == 1)
        // A condition written into a Bool property, and one that is NULL refused for a non-optional.
        #expect(try Meter.update(.set(\.on, to: \.n > 1), where: .all, manager: manager) == 3)
        #expect(try ns(on) == [2, 3])
        #expect(try Meter.update(.set(\.maybe, to: nil), where: \.n == 1, manager: manager) == 1)
        let error = try #require(throws: DBBError.self) {
            // NULL > 10 OR false is NULL for meter 1.
            try Meter.update(.set(\.on, to: \.maybe > 10 || \.n < 0), where: .all, manager: manager)
        }
        #expect(error.kind == (backend == .sqlite ? .invalidValue : .server), "\(error)")
        #expect(try ns(on) == [2, 3])
    }
}
