import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// The SQL and arguments of every construct of the typed query tree, per dialect, compared
/// with `Golden/query-sqlite.sql` and `Golden/query-postgresql.sql`
/// (`DBB_UPDATE_GOLDEN=1 swift test --filter QueryGoldenSQLTests` rewrites them). Every value is
/// a bound argument: no value appears in the text.
@Suite struct QueryGoldenSQLTests {
    @Test("each construct's SQL and arguments match the dialect's golden file", arguments: Backend.allCases)
    func constructsMatchTheGoldenFile(_ backend: Backend) throws {
        guard
            let database = try BackendDatabase(
                backend, [Visit.self, Volume.self, Writer.self, Voucher.self, Novel.self, Penman.self, Crew.self])
        else { return }
        let manager = database.manager
        var lines: [String] = []
        func record(_ name: String, _ sql: DBBQuerySQL) {
            lines += ["-- \(name)", sql.sql, "-- arguments: \(sql.arguments)"]
        }
        func condition(_ name: String, _ condition: DBBCondition<Visit>) throws {
            record(name, try Visit.select(.column(\.id)).where(condition).sql(on: manager))
        }
        let hostile = "'; DROP TABLE \"Visit\"; --"

        try condition("comparisons and logic", \.seconds > 10 && (\.page == "/" || !(\.clicks < 3)))
        try condition("the key columns", \.id > 0 && \.createdTime != nil && \.modifiedTime == nil)
        try condition("IN, NOT IN, empty IN", .in(\.clicks, [1, 2]) && .notIn(\.page, ["/a"]) && .in(\.clicks, []))
        try condition("empty NOT IN", .notIn(\.clicks, []))
        try condition("LIKE, case-sensitive", .like(\.page, "/blog/%_1\\%"))
        try condition("LIKE ignoring ASCII case", .like(\.referrer, "Ab*?[c%", ignoringCase: true))
        try condition("an array under OR and NOT", .contains(\.tags, "new") || !.contains(\.tags, "old"))
        try condition("an array without elements", .isNull(\.tags) || \.page == hostile)
        let clicks = DBBExpression<Visit, Int>.column(\.clicks)
        let page = DBBExpression<Visit, String>.column(\.page)
        let arithmetic: DBBCondition<Visit> = clicks * 2 + 1 > clicks / 3 && -clicks < 0
        let text: DBBCondition<Visit> = page + "?" == "/?" && .coalesce(\.referrer, "none") != "none"
        try condition("arithmetic, text and COALESCE", arithmetic && text)
        try condition("the same value twice is one parameter", \.page == "/" || \.referrer == "/")

        let knuth = Writer(dbManager: manager)
        knuth.name = "Knuth"
        try knuth.save()
        record(
            "a reference, an array, IN a subquery, EXISTS",
            try Volume.select(.column(\.title))
                .where(
                    \.author == knuth || .contains(\.tags, "formal")
                        || .in(\.year, Visit.select(.column(\.clicks)).where(\.seconds > 1))
                        || .exists(Writer.select(.count()).where(\.name == "Knuth"))
                )
                .sql(on: manager))
        record(
            "aggregates, grouping, HAVING, order, page",
            try Visit.select(
                .column(\.page), .count(), .count(distinct: \.referrer), .sum(\.clicks), .sum(\.seconds),
                .average(\.clicks), .min(\.day), .max(\.seconds)
            )
            .where(\.clicks >= 0)
            .group(by: .column(\.page))
            .having(.count() > 1 && .sum(\.clicks) > 10)
            .order(by: .descending(.sum(\.clicks)), .ascending(\.page))
            .limit(10).offset(20)
            .sql(on: manager))
        record("DISTINCT and an offset alone", try Visit.select(.column(\.page)).distinct().offset(5).sql(on: manager))
        let week = DBBExpression<Visit, String?>.week(of: \.day, in: "ru_RU")
        record(
            "the calendar in select, group, order and HAVING",
            try Visit.select(week, .weekStart(of: \.day, in: "ru_RU"), .count())
                .group(by: week, .weekStart(of: \.day, in: "ru_RU"))
                .having(.isNotNull(week))
                .order(by: .ascending(week))
                .sql(on: manager))
        record(
            "quarters, half-years, spans and formats",
            try Visit.select(
                .quarter(of: \.day, in: "de_DE"), .halfYear(of: \.day, in: "de_DE", first: "1. HJ %@", shortYear: true),
                .start(of: .quarter, containing: \.day, in: "en_US"),
                .end(of: .halfYear, containing: \.day, in: "en_US"),
                .formatted(\.day, as: "LLLL yyyy", in: "ru_RU")
            ).where(.formatted(\.createdTime, as: "yyyy", in: "en_US") == "2024").sql(on: manager))
        record(
            "Decimal and UUID take their column's placeholder",
            try Voucher.select(.column(\.amount))
                .where(
                    \.amount > Decimal(string: "10.5")!
                        && \.reference == UUID(uuidString: "0F0F0F0F-0000-0000-0000-000000000001")!
                )
                .sql(on: manager))

        try joins(record, manager)

        // The typed fetch of objects: its WHERE and ORDER BY come from the same tree.
        let fetched = Locked<[String]>([])
        manager.trace { sql in fetched.withLock { $0.append(sql) } }
        _ = try Visit.instances(
            where: \.id > 0 || .contains(\.tags, "x"), sortedBy: [.descending(\.modifiedTime), .ascending(\.page)],
            limit: 5, offset: 10, manager: manager)
        manager.trace(nil)
        lines += ["-- a typed fetch of objects"] + fetched.withLock { $0 }
        fetched.withLock { $0 = [] }
        manager.trace { sql in fetched.withLock { $0.append(sql) } }
        _ = try Novel.instances(
            where: Novel.join(\.author).satisfies(\.name == "Knuth") || .isNull(Novel.leftJoin(\.editor).column(\.id)),
            sortedBy: [.ascending(Novel.join(\.author).join(\.mentor).column(\.name)), .descending(\.pages)],
            manager: manager)
        manager.trace(nil)
        lines +=
            ["-- a typed fetch of objects across joins: id IN a query with the joins, a sort by a joined value"]
            + fetched.withLock { $0 }

        try GoldenSQLTests.compare(lines.joined(separator: "\n") + "\n", with: "query-\(backend.rawValue).sql")
    }

    /// The join constructs: references inner and left, the same class twice and to itself, a
    /// chain, an array with `COUNT(DISTINCT)`, a join made without reading through it.
    private func joins(_ record: (String, DBBQuerySQL) -> Void, _ manager: DBBManager) throws {
        let author = Novel.join(\.author)
        let editor = Novel.leftJoin(\.editor)
        let quarter = DBBExpression<Novel, String?>.quarter(of: \.published, in: "de_DE")
        record(
            "joins: a reference inner and left, the same class twice, across WHERE, GROUP BY, HAVING, ORDER BY",
            try Novel.select(
                .column(\.id), author.column(\.id), author.column(\.name), editor.column(\.name), quarter, .count()
            )
            .where(author.column(\.name) != "'; DROP TABLE \"Penman\"; --" && .like(editor.column(\.country), "U%"))
            .group(by: .column(\.id), author.column(\.id), author.column(\.name), editor.column(\.name), quarter)
            .having(.max(author.column(\.born)) > 1900)
            .order(by: .ascending(author.column(\.name)), .descending(editor.column(\.name)))
            .sql(on: manager))
        let mentor = Penman.leftJoin(\.mentor)
        record(
            "a class joined to itself, and onward from a join",
            try Penman.select(.column(\.name), mentor.column(\.name), mentor.leftJoin(\.mentor).column(\.name))
                .where(mentor.satisfies(\.born < 1900 || .isNull(\.country)))
                .sql(on: manager))
        let members = Crew.leftJoin(\.members)
        record(
            "an array of objects, left, with COUNT(DISTINCT) and an expression of the joined class",
            try Crew.select(
                .column(\.name), .count(distinct: members.column(\.id)), .sum(members.column(\.born)),
                members.expression(.max(\.born))
            ).group(by: .column(\.name)).sql(on: manager))
        record(
            "a join made without reading through it",
            try Crew.select(.count()).join(Crew.join(\.members)).sql(on: manager))
        var ancestor = Penman.join(\.mentor)
        for _ in 1..<9 { ancestor = ancestor.join(\.mentor) }
        record(
            "a chain of joins longer than the dialect's names",
            try Penman.select(ancestor.column(\.name)).sql(on: manager))
    }
}
