import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Typed conditions on the expression tree: what the string path could not say (the key
/// columns, `||` and `!` over arrays, one LIKE rule, offsets) and hostile values, bound through
/// every operator, on each backend.
@Suite struct TypedQueryTests {
    /// Volumes by Knuth and others, with and without tags, titles in every case.
    struct Shelf {
        let database: BackendDatabase
        let knuth: Writer
        let volumes: [String: Volume]

        init?(_ backend: Backend) throws {
            guard let database = try BackendDatabase(backend, [Volume.self, Writer.self]) else { return nil }
            self.database = database
            let manager = database.manager
            knuth = Writer(dbManager: manager)
            knuth.name = "Knuth"
            let rows: [(String, Bool, [String], Int)] = [
                ("TAOCP Vol 1", true, ["algorithms"], 1968), ("taocp notes", false, ["formal"], 1999),
                ("Taocp", false, [], 2011), ("Ärger", false, [], 2001), ("ärger", false, ["formal", "de"], 2002),
                ("100% sure", false, [], 1990), ("100 sure", false, [], 1991),
            ]
            var volumes: [String: Volume] = [:]
            for (title, byKnuth, tags, year) in rows {
                let volume = Volume(dbManager: manager)
                (volume.title, volume.tags, volume.year) = (title, tags, year)
                volume.author = byKnuth ? knuth : nil
                volumes[title] = volume
            }
            try Volume.save(rows.map { volumes[$0.0]! }, manager: manager)
            self.volumes = volumes
        }

        func titles(_ condition: DBBCondition<Volume>) throws -> [String] {
            try Volume.instances(where: condition, sortedBy: [.ascending(\.year)], manager: database.manager)
                .map(\.title)
        }
    }

    @Test("id, createdTime and modifiedTime are columns like the others", arguments: Backend.allCases)
    func keyColumns(_ backend: Backend) throws {
        guard let shelf = try Shelf(backend) else { return }
        let manager = shelf.database.manager
        #expect(try shelf.titles(\.id > 0).count == 7)
        #expect(try shelf.titles(\.createdTime != nil).count == 7)
        #expect(try shelf.titles(\.modifiedTime == nil).isEmpty)
        let taocp = shelf.volumes["Taocp"]!
        taocp.year = 2012
        try taocp.save()
        let latest = try Volume.instances(
            sortedBy: [.descending(\.modifiedTime), .descending(\.id)], limit: 1, manager: manager)
        #expect(latest.map(\.title) == ["Taocp"])
        let last = try #require(taocp.modifiedTime)
        #expect(try shelf.titles(\.modifiedTime >= last) == ["Taocp"])
        let largest: [Int64?] = try Volume.select(.max(\.id)).rows(manager)
        #expect(largest == [shelf.volumes.values.map(\.id).max()])
    }

    @Test("||, ! and && combine any conditions, arrays and references included", arguments: Backend.allCases)
    func arraysUnderOr(_ backend: Backend) throws {
        guard let shelf = try Shelf(backend) else { return }
        #expect(
            try shelf.titles(\.author == shelf.knuth || .contains(\.tags, "formal")) == [
                "TAOCP Vol 1", "taocp notes", "ärger",
            ])
        #expect(
            try shelf.titles(!.contains(\.tags, "formal") && \.year < 1995) == ["TAOCP Vol 1", "100% sure", "100 sure"])
        #expect(
            try shelf.titles(.isNull(\.tags) || .contains(\.tags, "de")) == [
                "100% sure", "100 sure", "Ärger", "ärger", "Taocp",
            ])
        #expect(try shelf.titles(!(.isNotNull(\.tags) || \.author != nil) && \.year > 2005) == ["Taocp"])
        #expect(try shelf.titles(\.author == nil && .contains(\.tags, "algorithms")).isEmpty)
    }

    @Test(
        "LIKE is case-sensitive on both backends; ignoringCase folds A–Z only; \\ escapes", arguments: Backend.allCases)
    func likeRule(_ backend: Backend) throws {
        guard let shelf = try Shelf(backend) else { return }
        #expect(try shelf.titles(.like(\.title, "taocp%")) == ["taocp notes"])
        #expect(
            try shelf.titles(.like(\.title, "taocp%", ignoringCase: true)) == ["TAOCP Vol 1", "taocp notes", "Taocp"])
        #expect(try shelf.titles(.like(\.title, "ä%", ignoringCase: true)) == ["ärger"])
        #expect(try shelf.titles(.like(\.title, "100\\%%")) == ["100% sure"])
        #expect(try shelf.titles(.like(\.title, "100_sure")) == ["100 sure"])
        #expect(try shelf.titles(.like(\.title, "%[*?]%")).isEmpty)
        #expect(try shelf.titles(.like(\.title, "T_OCP%")) == ["TAOCP Vol 1"])
        #expect(
            try shelf.titles(!.like(\.title, "%o%", ignoringCase: true)) == ["100% sure", "100 sure", "Ärger", "ärger"])
    }

    @Test("offset pages a typed fetch; a negative one is refused", arguments: Backend.allCases)
    func offsets(_ backend: Backend) throws {
        guard let shelf = try Shelf(backend) else { return }
        let manager = shelf.database.manager
        let page = try Volume.instances(sortedBy: [.ascending(\.year)], limit: 2, offset: 1, manager: manager)
        #expect(page.map(\.title) == ["100% sure", "100 sure"])
        let rest = try Volume.instances(sortedBy: [.ascending(\.year)], offset: 5, manager: manager)
        #expect(rest.map(\.title) == ["ärger", "Taocp"])
        let error = try #require(throws: DBBError.self) {
            try Volume.instances(offset: -1, manager: manager)
        }
        #expect(error.kind == .invalidOption && error.message.contains("-1"))
    }

    @Test("hostile values are bound through every operator, never spliced", arguments: Backend.allCases)
    func hostileValues(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let hostile = ["'; DROP TABLE \"Visit\"; --", "O'Brien", "\\", "%_", "$1", "?1", "x' OR '1'='1"]
        for (index, page) in hostile.enumerated() {
            let visit = Visit(dbManager: manager)
            (visit.page, visit.clicks, visit.referrer) = (page, index, page)
            visit.tags = [page]
            try visit.save()
        }
        for (index, page) in hostile.enumerated() {
            let clicks = DBBExpression<Visit, Int>.column(\.clicks)
            let equal: DBBCondition<Visit> = \.page == page && .in(\.page, [page])
            let like: DBBCondition<Visit> = .like(\.page, Self.literal(page)) && .contains(\.tags, page)
            let coalesced: DBBCondition<Visit> = DBBExpression<Visit, String>.coalesce(\.referrer, page) == page
            let concatenated: DBBCondition<Visit> = DBBExpression<Visit, String>.column(\.page) + page == page + page
            let found = try Visit.select(clicks).where(equal && like && coalesced && concatenated).rows(manager)
            #expect(found == [index], "\(page)")
        }
        #expect(try Visit.select(.count()).where(.like(\.page, "%_")).rows(manager)[0] == hostile.count)
        #expect(try Visit.select(.count()).where(.like(\.page, "%\\_")).rows(manager)[0] == 1)
        // Int64's extremes, and empty lists.
        let extremes = [Int.min, Int.max]
        for clicks in extremes {
            let visit = Visit(dbManager: manager)
            visit.clicks = clicks
            try visit.save()
        }
        #expect(
            try Visit.select(.column(\.clicks)).where(.in(\.clicks, extremes)).order(by: .ascending(\.clicks)).rows(
                manager) == extremes)
        #expect(
            try Visit.select(.count()).where(\.clicks > Int.min && \.clicks < Int.max).rows(manager)[0] == hostile.count
        )
        let bounds = try Visit.select(.min(\.clicks), .max(\.clicks)).rows(manager)
        #expect(bounds.count == 1 && bounds[0].0 == Int.min && bounds[0].1 == Int.max)
        #expect(throws: DBBError.self) { try Visit.select(.sum(\.clicks)).where(\.clicks >= 1).rows(manager) }
        #expect(try Visit.select(.count()).where(.in(\.clicks, [])).rows(manager)[0] == 0)
        #expect(try Visit.select(.count()).where(.notIn(\.clicks, [])).rows(manager)[0] == hostile.count + 2)
        #expect(try Visit.instances(where: .in(\.page, []), manager: manager).isEmpty)
        // NaN: the backends compare it unlike each other, so both refuse it.
        let nan = try #require(throws: DBBError.self) { try Visit.instances(where: \.seconds < .nan, manager: manager) }
        #expect(nan.kind == .invalidValue && nan.message.contains("NaN") && nan.table == "Visit")
        #expect(try Visit.select(.count()).rows(manager)[0] == hostile.count + 2)
    }

    @Test(
        "text with NUL: found on SQLite, which stores it; refused by name on PostgreSQL, which cannot",
        arguments: Backend.allCases)
    func nulInText(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        let nul = "a\u{0}b"
        if backend == .sqlite {
            let visit = Visit(dbManager: manager)
            visit.page = nul
            try visit.save()
            #expect(try Visit.instances(where: \.page == nul, manager: manager).map(\.id) == [visit.id])
        } else {
            let error = try #require(throws: DBBError.self) {
                try Visit.instances(where: \.page == nul, manager: manager)
            }
            #expect(error.kind == .invalidValue && error.table == "Visit", "\(error.message)")
        }
    }

    @Test("a key path the class does not map is refused naming class and key path", arguments: Backend.allCases)
    func unmappedKeyPath(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let error = try #require(throws: DBBError.self) {
            try Visit.select(.count()).where(\.note == "x").rows(database.manager)
        }
        #expect(error.kind == .unknownProperty && error.table == "Visit")
        #expect(error.message.contains("Visit") && error.message.contains("note"), "\(error.message)")
        let sorted = try #require(throws: DBBError.self) {
            try Visit.instances(sortedBy: [.ascending(\.note)], manager: database.manager)
        }
        #expect(sorted.kind == .unknownProperty)
        let array = try #require(throws: DBBError.self) {
            try Visit.select(.count(DBBExpression<Visit, [String]>.column(\.tags))).rows(database.manager)
        }
        #expect(array.kind == .invalidOption && array.message.contains("tags"), "\(array.message)")
    }

    /// `text` as a LIKE pattern that matches only itself.
    static func literal(_ text: String) -> String {
        text.reduce(into: "") { pattern, character in
            if "%_\\".contains(character) { pattern.append("\\") }
            pattern.append(character)
        }
    }

    @Test(
        "an aggregate in a fetch's sorting or condition is refused by name on both backends",
        arguments: Backend.allCases)
    func aggregateInAFetchIsRefused(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self]) else { return }
        let manager = database.manager
        try Visit(dbManager: manager).save()
        let sorted = #expect(throws: DBBError.self) {
            try Visit.instances(sortedBy: [.ascending(DBBExpression<Visit, Int>.count())], manager: manager)
        }
        #expect(sorted?.kind == .invalidOption)
        #expect(sorted?.message.contains("sorting uses an aggregate") == true)
        let filtered = #expect(throws: DBBError.self) {
            try Visit.instances(where: DBBExpression<Visit, Int>.count() > 0, manager: manager)
        }
        #expect(filtered?.kind == .invalidOption)
        #expect(filtered?.message.contains("condition uses an aggregate") == true)
    }
}
