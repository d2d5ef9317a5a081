import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Hostile values through the operators ``TypedQueryTests/hostileValues(_:)`` does not reach:
/// SQLite's GLOB characters in a case-sensitive `LIKE`, `<>` and `NOT IN` of texts, texts in
/// the calendar functions' patterns, NaN in every place a value goes, Int64's extremes in
/// arithmetic, NUL in a `LIKE` pattern, and empty lists and subqueries under `NOT`.
@Suite struct TypedQueryHostileTests {
    /// Pages that are SQLite GLOB's `*`, `?`, `[…]` and `^`, quotes, LIKE's own characters.
    static let pages = ["[x]", "a*b", "?", "[", "]", "^", "[!a]", "A*B", "x", "O'Brien", "%", "_", "\\"]

    /// A database of `backend` holding a visit of each page (`nil` without PostgreSQL).
    static func filled(_ backend: Backend) throws -> BackendDatabase? {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return nil }
        try visits(database.manager)
        return database
    }

    static func visits(_ manager: DBBManager) throws {
        for (index, page) in pages.enumerated() {
            let visit = Visit(dbManager: manager)
            (visit.page, visit.clicks, visit.referrer) = (page, index, page)
            visit.day = Date(timeIntervalSinceReferenceDate: Double(index) * 40 * 86_400)
            try visit.save()
        }
    }

    static func found(_ condition: DBBCondition<Visit>, _ manager: DBBManager) throws -> [String] {
        try Visit.select(.column(\.page)).where(condition).order(by: .ascending(\.clicks)).rows(manager)
    }

    @Test("GLOB's characters in a LIKE pattern match themselves, case-sensitive or not", arguments: Backend.allCases)
    func globCharacters(_ backend: Backend) throws {
        guard let database = try Self.filled(backend) else { return }
        let manager = database.manager
        for page in Self.pages {
            let pattern = DifferentialCondition.literal(page)
            #expect(try Self.found(.like(\.page, pattern), manager) == [page], "\(page)")
            let folded = Self.pages.filter { $0.lowercased() == page.lowercased() }
            #expect(try Self.found(.like(\.page, pattern, ignoringCase: true), manager) == folded, "\(page)")
        }
        #expect(try Self.found(.like(\.page, "%[%"), manager) == ["[x]", "[", "[!a]"])
        #expect(try Self.found(.like(\.page, "_"), manager) == Self.pages.filter { $0.count == 1 })
        #expect(try Self.found(.like(\.page, "a*%"), manager) == ["a*b"])
        #expect(try Self.found(.like(\.page, "a*%", ignoringCase: true), manager) == ["a*b", "A*B"])
    }

    @Test("<> and NOT IN of hostile texts leave out exactly the one row", arguments: Backend.allCases)
    func notEqualAndNotIn(_ backend: Backend) throws {
        guard let database = try Self.filled(backend) else { return }
        let manager = database.manager
        for page in Self.pages {
            let others = Self.pages.filter { $0 != page }
            #expect(try Self.found(\.page != page, manager) == others, "\(page)")
            #expect(try Self.found(.notIn(\.page, [page]), manager) == others, "\(page)")
            #expect(try Self.found(\.referrer != page, manager) == others, "\(page)")
            #expect(try Self.found(!(DBBExpression<Visit, String>.column(\.page) == page), manager) == others)
        }
    }

    @Test("texts in calendar patterns and half-year labels are bound, not spliced", arguments: Backend.allCases)
    func calendarTexts(_ backend: Backend) throws {
        guard let database = try Self.filled(backend) else { return }
        let manager = database.manager
        let formatter = DifferentialCalendar.formatter("'O''Brien; DROP' yyyy", "en_US")
        let formatted = try Visit.select(.formatted(\.day, as: "'O''Brien; DROP' yyyy", in: "en_US"))
            .order(by: .ascending(\.clicks)).rows(manager)
        let days = try Visit.select(.column(\.day)).order(by: .ascending(\.clicks)).rows(manager)
        #expect(formatted == days.map { $0.map(formatter.string(from:)) })
        #expect(formatted.first == "O'Brien; DROP 2001")
        let first = "'; DROP TABLE \"Visit\"; -- %@ $1 ?1 100%%"
        let halves = try Visit.select(.halfYear(of: \.day, in: "de_DE", first: first, second: "H2 %@"))
            .where(\.clicks == 0).rows(manager)
        #expect(halves == ["'; DROP TABLE \"Visit\"; -- 2001 $1 ?1 100%"])
        #expect(try Visit.select(.count()).rows(manager)[0] == Self.pages.count)
    }

    @Test("NaN is refused wherever a value goes: =, <>, IN, arithmetic, aggregates", arguments: Backend.allCases)
    func nanEverywhere(_ backend: Backend) throws {
        guard let database = try Self.filled(backend) else { return }
        let manager = database.manager
        let seconds = DBBExpression<Visit, Double>.column(\.seconds)
        let conditions: [DBBCondition<Visit>] = [
            \.seconds == .nan, \.seconds != .nan, .in(\.seconds, [1, .nan]), .notIn(\.seconds, [.nan]),
            seconds + .nan > 0, seconds * 2 == .nan, !(seconds >= .nan),
        ]
        for condition in conditions {
            let error = try #require(throws: DBBError.self) {
                try Visit.select(.count()).where(condition).rows(manager)
            }
            #expect(error.kind == .invalidValue && error.message.contains("NaN"), "\(error.message)")
        }
        let selected = try #require(throws: DBBError.self) {
            try Visit.select(.sum(seconds * .nan), .coalesce(\.referrer, "x")).rows(manager)
        }
        #expect(selected.kind == .invalidValue && selected.message.contains("NaN"), "\(selected.message)")
    }

    @Test("Int64's extremes in arithmetic: exact where they fit, an error where not", arguments: Backend.allCases)
    func extremesInArithmetic(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        for clicks in [Int.min, Int.max] {
            let visit = Visit(dbManager: manager)
            visit.clicks = clicks
            try visit.save()
        }
        let clicks = DBBExpression<Visit, Int>.column(\.clicks)
        let fitting = try Visit.select(clicks - 1, clicks / -2, -(clicks / 2)).where(\.clicks == Int.max).rows(manager)
        #expect(fitting.count == 1 && fitting[0].0 == Int.max - 1 && fitting[0].1 == Int.max / -2)
        #expect(fitting[0].2 == -(Int.max / 2))
        #expect(try Visit.select(clicks + 1).where(\.clicks == Int.min).rows(manager) == [Int.min + 1])
        // SQLite turns an overflowing integer into a REAL, which an Int does not read;
        // PostgreSQL refuses the arithmetic: an error on both.
        #expect(throws: DBBError.self) { try Visit.select(clicks + 1).where(\.clicks == Int.max).rows(manager) }
        #expect(throws: DBBError.self) { try Visit.select(clicks * 2).where(\.clicks == Int.min).rows(manager) }
        #expect(throws: DBBError.self) { try Visit.select(-clicks).where(\.clicks == Int.min).rows(manager) }
    }

    @Test("a LIKE pattern holding NUL is refused by name on every backend", arguments: Backend.allCases)
    func nulInPattern(_ backend: Backend) throws {
        guard let database = try Self.filled(backend) else { return }
        let manager = database.manager
        for ignoringCase in [false, true] {
            let error = try #require(throws: DBBError.self) {
                try Visit.select(.count()).where(.like(\.page, "x\u{0}y", ignoringCase: ignoringCase)).rows(manager)
            }
            #expect(error.kind == .invalidValue && error.table == "Visit", "\(error.message)")
            #expect(error.message.contains("page") && error.message.contains("NUL"), "\(error.message)")
        }
    }

    @Test("empty lists and subqueries that select nothing, under NOT too", arguments: Backend.allCases)
    func emptyLists(_ backend: Backend) throws {
        guard let database = try Self.filled(backend) else { return }
        let manager = database.manager
        let all = Self.pages
        let clicks = DBBExpression<Visit, Int>.column(\.clicks)
        let nothing = Visit.select(.column(\.clicks)).where(\.clicks > Int.max - 1)
        #expect(try Self.found(.in(clicks * 2, []), manager).isEmpty)
        #expect(try Self.found(.notIn(clicks * 2, []), manager) == all)
        #expect(try Self.found(!DBBCondition<Visit>.in(\.page, []), manager) == all)
        #expect(try Self.found(!DBBCondition<Visit>.notIn(\.page, []), manager).isEmpty)
        #expect(try Self.found(.in(\.clicks, nothing), manager).isEmpty)
        #expect(try Self.found(.notIn(\.clicks, nothing), manager) == all)
        #expect(try Self.found(!DBBCondition<Visit>.exists(nothing), manager) == all)
        #expect(try Self.found(.in(\.page, []) || \.page == "x", manager) == ["x"])
    }
}
