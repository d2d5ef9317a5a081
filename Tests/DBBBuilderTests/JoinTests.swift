import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Joins through the mapping — references (`Novel.author`, `Novel.editor`, the self-reference
/// `Penman.mentor`) and an array of objects (`Crew.members`), inner and left — on each backend,
/// each answer compared with the one Swift computes over the objects a second manager fetches.
/// The fixture has references that are `nil` and references to a deleted writer (whose join rows
/// went with it), a join row to no row (SQLite), an empty crew and a crew listing a writer twice:
/// left joins keep those rows with `nil`s, inner joins drop them.
@Suite struct JoinTests {
    static let classes: [DBBTableObject.Type] = [Novel.self, Penman.self, Crew.self]

    /// What a second manager fetched after the fixture was saved and the ghost writer deleted.
    struct Library {
        let novels: [Novel]
        let penmen: [Penman]
        let crews: [Crew]
    }

    /// 24 novels by four writers (one deleted afterwards) or none, edited by two or none,
    /// published over three years or not; four crews. Returns the objects a fresh manager fetches.
    static func library(_ database: BackendDatabase) throws -> Library {
        let manager = database.manager
        func penman(_ name: String, _ country: String?, _ born: Int, _ mentor: Penman?) -> Penman {
            let penman = Penman(dbManager: manager)
            (penman.name, penman.country, penman.born, penman.mentor) = (name, country, born, mentor)
            return penman
        }
        let ada = penman("Ada Lovelace", "UK", 1815, nil)
        let knuth = penman("Donald Knuth", "US", 1938, ada)
        let leGuin = penman("Ursula Le Guin", nil, 1929, knuth)
        let ghost = penman("Ghost Writer", "FR", 1950, leGuin)
        try Penman.save([ada, knuth, leGuin, ghost], manager: manager)
        let first = TypedReportTests.utc.date(from: DateComponents(year: 2020, month: 11, day: 15))!
        var novels: [Novel] = []
        for number in 0..<24 {
            let novel = Novel(dbManager: manager)
            novel.title = String(format: "Novel %02d", number)
            novel.author = [ada, knuth, leGuin, nil, ghost][number % 5]
            novel.editor = [nil, knuth, ada][number % 3]
            novel.published = number % 4 == 3 ? nil : first.addingTimeInterval(Double(number * 41 * 86_400))
            novel.pages = 100 + number * 37 % 300
            novels.append(novel)
        }
        try Novel.save(novels, manager: manager)
        var crews: [Crew] = []
        let named = [("Core", [knuth, ada, knuth]), ("Solo", [leGuin]), ("Empty", []), ("Haunted", [ghost, ada])]
        for (name, members) in named {
            let crew = Crew(dbManager: manager)
            (crew.name, crew.members) = (name, members)
            crews.append(crew)
        }
        try Crew.save(crews, manager: manager)
        try ghost.delete()
        let reader = try database.reopen(classes)
        return Library(
            novels: try Novel.instances(manager: reader), penmen: try Penman.instances(manager: reader),
            crews: try Crew.instances(manager: reader))
    }

    @Test(
        "a reference, inner and left: a nil or deleted target drops the row or keeps it with nil",
        arguments: Backend.allCases)
    func references(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let manager = database.manager
        let library = try Self.library(database)
        let byTitle = library.novels.sorted { $0.title < $1.title }
        #expect(byTitle.count == 24 && byTitle.filter { $0.author != nil }.count == 15, "5 without, 4 deleted")

        let author = Novel.join(\.author)
        let inner = try Novel.select(.column(\.title), author.column(\.name), author.column(\.id))
            .order(by: .ascending(\.title)).rows(manager)
        let expectedInner = byTitle.compactMap { novel in novel.author.map { (novel.title, $0.name, $0.id) } }
        #expect(inner.map(\.0) == expectedInner.map(\.0))
        #expect(inner.map(\.1) == expectedInner.map(\.1) && inner.map(\.2) == expectedInner.map(\.2))

        let left = Novel.leftJoin(\.author)
        let all = try Novel.select(.column(\.title), left.column(\.name), left.column(\.country))
            .order(by: .ascending(\.title)).rows(manager)
        #expect(all.map(\.0) == byTitle.map(\.title))
        #expect(all.map(\.1) == byTitle.map { $0.author?.name } && all.map(\.2) == byTitle.map { $0.author?.country })

        // The same class twice (author and editor) and the author's mentor: `id` and `name`
        // of four tables in one row.
        let editor = Novel.leftJoin(\.editor)
        let mentor = author.leftJoin(\.mentor)
        let four = try Novel.select(
            .column(\.id), .column(\.title), author.column(\.name), editor.column(\.name), mentor.column(\.name),
            mentor.column(\.id)
        ).order(by: .ascending(\.id)).rows(manager)
        let expectedFour = library.novels.sorted { $0.id < $1.id }.filter { $0.author != nil }
        #expect(four.map(\.0) == expectedFour.map(\.id))
        #expect(four.map(\.2) == expectedFour.map { $0.author!.name })
        #expect(four.map(\.3) == expectedFour.map { $0.editor?.name })
        #expect(four.map(\.4) == expectedFour.map { $0.author!.mentor?.name })
        #expect(four.map(\.5) == expectedFour.map { $0.author!.mentor?.id })

        // A join row left pointing at no row, as a database written without the target's
        // trigger holds (SQLite; PostgreSQL's foreign key refuses it): the inner join drops the
        // novel, the left join keeps it with nil.
        let orphan = try #require(byTitle.first { $0.author == nil })
        let dangling = "INSERT INTO \"Novel_author\" (\"Novel_ID\", \"author\") VALUES (?, ?)"
        if backend == .sqlite {
            try manager.execute(dangling, arguments: [orphan.id, 987_654])
            let titles = try Novel.select(.column(\.title)).join(author).rows(manager)
            #expect(titles.count == inner.count && !titles.contains(orphan.title))
            let kept = try Novel.select(left.column(\.name)).where(\.id == orphan.id).rows(manager)
            #expect(kept.count == 1 && kept[0] == nil)
        } else {
            #expect(throws: DBBError.self) { try manager.execute(dangling, arguments: [orphan.id, 987_654]) }
        }

        // Column keys, typed: a left join's optional column is one optional.
        let country: DBBExpression<Novel, String?> = left.column(Penman.Columns.country)
        let born: DBBExpression<Novel, Int> = author.column(Penman.Columns.born)
        let keyed = try Novel.select(.column(\.title), country, born).order(by: .ascending(\.title)).rows(manager)
        #expect(keyed.map(\.1) == byTitle.filter { $0.author != nil }.map { $0.author!.country })
        #expect(keyed.map(\.2) == byTitle.filter { $0.author != nil }.map { $0.author!.born })

        // A class joined to itself.
        let mentors = try Penman.select(.column(\.name), Penman.leftJoin(\.mentor).column(\.name))
            .order(by: .ascending(\.name)).rows(manager)
        let penmen = library.penmen.sorted { $0.name < $1.name }
        #expect(mentors.map(\.0) == penmen.map(\.name) && mentors.map(\.1) == penmen.map { $0.mentor?.name })
    }

    @Test(
        "books per author per localized quarter: WHERE, GROUP BY, HAVING and ORDER BY across a reference",
        arguments: Backend.allCases)
    func perAuthorPerQuarter(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let manager = database.manager
        let library = try Self.library(database)
        let author = Novel.leftJoin(\.author)
        for locale in TypedReportTests.locales {
            let quarter = DBBExpression<Novel, String?>.quarter(of: \.published, in: locale)
            let start = DBBExpression<Novel, String?>.start(of: .quarter, containing: \.published, in: locale)
            let rows = try Novel.select(author.column(\.name), start, quarter, .count(), .sum(\.pages))
                .where(.isNotNull(\.published) && (author.column(\.born) > 1900 || .isNull(author.column(\.id))))
                .group(by: author.column(\.name), start, quarter)
                .having(.count() >= 1)
                .order(by: .ascending(author.column(\.name)), .descending(start))
                .rows(manager)
            let chosen = library.novels.filter { $0.published != nil && ($0.author.map { $0.born > 1900 } ?? true) }
            let grouped = Dictionary(grouping: chosen) { novel -> String in
                let parts = TypedReportTests.utc.dateComponents([.year, .month], from: novel.published!)
                let key = String(format: "%04d-%02d-01", parts.year!, (parts.month! - 1) / 3 * 3 + 1)
                return (novel.author?.name ?? "") + "|" + key
            }
            let expected = grouped.keys.sorted { a, b in
                let (a0, a1) = (a.split(separator: "|", omittingEmptySubsequences: false))
                    .map(String.init).pair
                let (b0, b1) = (b.split(separator: "|", omittingEmptySubsequences: false)).map(String.init).pair
                return a0 != b0 ? a0 < b0 : a1 > b1
            }.map { key -> (String?, String, String, Int, Int) in
                let (name, start) = key.split(separator: "|", omittingEmptySubsequences: false).map(String.init).pair
                let year = Int(start.prefix(4))!
                let month = Int(start.dropFirst(5).prefix(2))!
                let members = grouped[key]!
                return (
                    name.isEmpty ? nil : name, start, "Q\((month - 1) / 3 + 1) '\(String(format: "%02d", year % 100))",
                    members.count, members.reduce(0) { $0 + $1.pages }
                )
            }
            #expect(rows.count == expected.count && rows.count > 8, "\(locale): \(rows.count)")
            for (row, want) in zip(rows, expected) {
                #expect(
                    row.0 == want.0 && row.1 == want.1 && row.2 == want.2 && row.3 == want.3 && row.4 == want.4,
                    "\(locale): \(row) ≠ \(want)")
            }
        }
    }

    @Test(
        "an array of objects: one row per element, an empty one kept by a left join, COUNT(DISTINCT)",
        arguments: Backend.allCases)
    func arrays(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let manager = database.manager
        let library = try Self.library(database)
        let crews = library.crews.sorted { $0.name < $1.name }
        #expect(crews.map { $0.members.count } == [3, 0, 1, 1], "Core, Empty, Haunted (its ghost gone), Solo")

        let members = Crew.join(\.members)
        let pairs = try Crew.select(.column(\.name), members.column(\.name))
            .order(by: .ascending(\.name), .ascending(members.column(\.name))).rows(manager)
        var expectedPairs: [String] = []
        for crew in crews { expectedPairs += crew.members.map(\.name).sorted().map { crew.name + ": " + $0 } }
        #expect(pairs.map { $0.0 + ": " + $0.1 } == expectedPairs)

        let anyMembers = Crew.leftJoin(\.members)
        let counts = try Crew.select(
            .column(\.name), .count(anyMembers.column(\.id)), .count(distinct: anyMembers.column(\.id)),
            .min(anyMembers.column(\.born)), .sum(anyMembers.column(\.born))
        ).group(by: .column(\.name)).order(by: .ascending(\.name)).rows(manager)
        #expect(counts.map(\.0) == crews.map(\.name))
        #expect(counts.map(\.1) == crews.map { $0.members.count })
        #expect(counts.map(\.2) == crews.map { Set($0.members.map(\.id)).count })
        #expect(counts.map(\.3) == crews.map { $0.members.map(\.born).min() })
        #expect(counts.map(\.4) == crews.map { $0.members.isEmpty ? nil : $0.members.reduce(0) { $0 + $1.born } })

        // The join made without reading through it: only crews with a member, once per member.
        let joined = try Crew.select(.column(\.name)).join(members).distinct().order(by: .ascending(\.name))
            .rows(manager)
        #expect(joined == crews.filter { !$0.members.isEmpty }.map(\.name))
    }

    @Test("a typed fetch of objects filters across a reference and an array", arguments: Backend.allCases)
    func typedFetch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let manager = database.manager
        let library = try Self.library(database)
        let author = Novel.join(\.author)
        let fetched = try Novel.instances(
            where: author.satisfies(\.name == "Donald Knuth" || \.country == "UK") && \.pages > 150,
            sortedBy: [.ascending(\.title)], manager: manager)
        let expected = library.novels.filter { novel in
            novel.pages > 150 && (novel.author.map { $0.name == "Donald Knuth" || $0.country == "UK" } ?? false)
        }
        #expect(!expected.isEmpty && fetched.map(\.title) == expected.map(\.title).sorted())

        // Sorted by a joined value: the inner join leaves out the novels without an author, the
        // left join sorts them as nil (last, descending); with a condition and a page.
        let byAuthor = try Novel.instances(
            sortedBy: [
                .ascending(author.column(\.name)), .descending(author.join(\.mentor).column(\.born)), .ascending(\.id),
            ], manager: manager)
        let authored = library.novels.filter { $0.author != nil }
        func authorOrder(_ a: Novel, _ b: Novel) -> Bool {
            a.author!.name != b.author!.name ? a.author!.name < b.author!.name : a.id < b.id
        }
        #expect(byAuthor.map(\.id) == authored.filter { $0.author!.mentor != nil }.sorted(by: authorOrder).map(\.id))
        let newest = try Novel.instances(
            where: \.pages > 120, sortedBy: [.descending(Novel.leftJoin(\.author).column(\.name))], limit: 10,
            offset: 2, manager: manager)
        let everyOne = library.novels.filter { $0.pages > 120 }.sorted { a, b in
            let (x, y) = (a.author?.name ?? "", b.author?.name ?? "")
            return x != y ? x > y : a.id < b.id
        }
        #expect(newest.map(\.id) == Array(everyOne.map(\.id)[2..<12]))

        // A left join's missing row: the novels without a (living) author.
        let orphans = try Novel.instances(
            where: .isNull(Novel.leftJoin(\.author).column(\.id)), sortedBy: [.ascending(\.title)], manager: manager)
        #expect(orphans.map(\.title) == library.novels.filter { $0.author == nil }.map(\.title).sorted())

        // Crews with a member from the US, each once though Knuth is listed twice.
        let withUS = try Crew.instances(where: Crew.join(\.members).satisfies(\.country == "US"), manager: manager)
        #expect(withUS.map(\.name) == library.crews.filter { $0.members.contains { $0.country == "US" } }.map(\.name))
        // `!` on an array's join is per element: crews with a member not from the US; and the
        // crews with no member from the US, by the ids of the others.
        let notAllUS = try Crew.instances(where: !Crew.join(\.members).satisfies(\.country == "US"), manager: manager)
        #expect(
            Set(notAllUS.map(\.name))
                == Set(
                    library.crews.filter { $0.members.contains { $0.country.map { $0 != "US" } ?? false } }.map(\.name)),
            "as in SQL, a nil country is neither equal nor unequal")
        let noUS = try Crew.instances(
            where: .notIn(\.id, Crew.select(.column(\.id)).where(Crew.join(\.members).satisfies(\.country == "US"))),
            manager: manager)
        #expect(
            Set(noUS.map(\.name))
                == Set(library.crews.filter { !$0.members.contains { $0.country == "US" } }.map(\.name)))
        #expect(noUS.count == library.crews.count - withUS.count && noUS.contains { $0.name == "Empty" })

        // Across a reference of the joined class: crews with a member mentored by Ada.
        let mentored = try Crew.instances(
            where: Crew.join(\.members).join(\.mentor).column(\.name) == "Ada Lovelace" || \.name == "Solo",
            manager: manager)
        let expectedMentored = library.crews.filter { crew in
            crew.name == "Solo" || crew.members.contains { $0.mentor?.name == "Ada Lovelace" }
        }
        #expect(!expectedMentored.isEmpty && Set(mentored.map(\.name)) == Set(expectedMentored.map(\.name)))
    }

    @Test(
        "a manager's kept SQL tells joins apart (inner or left, author or editor) and rebinds their values",
        arguments: Backend.allCases)
    func keptShapes(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let manager = database.manager
        let library = try Self.library(database)
        for round in 0..<2 {
            for born in [1900, 1800] {
                let inner = try Novel.select(.column(\.title)).where(Novel.join(\.author).column(\.born) > born)
                    .rows(manager)
                // The same shape but for the join's kind.
                let names = try Novel.select(.column(\.title), Novel.join(\.author).column(\.name)).rows(manager)
                let anyNames = try Novel.select(.column(\.title), Novel.leftJoin(\.author).column(\.name))
                    .rows(manager)
                #expect(names.count == library.novels.filter { $0.author != nil }.count, "round \(round)")
                #expect(anyNames.count == library.novels.count, "round \(round)")
                let edited = try Novel.select(.column(\.title)).where(Novel.join(\.editor).column(\.born) > born)
                    .rows(manager)
                let fetched = try Novel.instances(
                    where: Novel.join(\.editor).column(\.born) > born, sortedBy: [.ascending(\.id)], manager: manager)
                let byAuthor = library.novels.filter { ($0.author?.born ?? 0) > born }
                #expect(Set(inner) == Set(byAuthor.map(\.title)), "round \(round), \(born)")
                let byEditor = library.novels.filter { ($0.editor?.born ?? 0) > born }
                #expect(Set(edited) == Set(byEditor.map(\.title)) && !byEditor.isEmpty, "round \(round), \(born)")
                #expect(fetched.map(\.id) == byEditor.map(\.id).sorted(), "round \(round), \(born)")
            }
        }
    }

    @Test("a chain of joins longer than PostgreSQL's names runs on both backends", arguments: Backend.allCases)
    func longChain(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes) else { return }
        let manager = database.manager
        var chain: [Penman] = []
        for number in 0..<10 {
            let penman = Penman(dbManager: manager)
            (penman.name, penman.mentor) = ("P\(number)", chain.last)
            chain.append(penman)
        }
        try Penman.save(chain, manager: manager)
        var ancestor = Penman.join(\.mentor)
        for _ in 1..<9 { ancestor = ancestor.join(\.mentor) }
        let query = Penman.select(.column(\.name), ancestor.column(\.name), ancestor.column(\.id))
        #expect(try query.rows(manager).map { "\($0.0) \($0.1) \($0.2)" } == ["P9 P0 \(chain[0].id)"])
        let sql = try query.sql(on: manager).sql
        // PostgreSQL cuts names at 63 bytes: the ninth join's path is too long there, and numbered.
        let deepest = "\"Penman" + String(repeating: ".mentor", count: 9) + "\""
        #expect(sql.contains(deepest) == (backend == .sqlite) && sql.contains("\"#9\"") == (backend == .postgresql))
    }

    @Test("unmapped, inherited and wrongly placed key paths are refused by name", arguments: Backend.allCases)
    func refusals(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, Self.classes + [Keeper.self, Pet.self]) else { return }
        let manager = database.manager
        let transient = try #require(throws: DBBError.self) {
            try Novel.select(Novel.join(\.author).column(\.nickname)).rows(manager)
        }
        #expect(transient.kind == .unknownProperty && transient.message.contains("Penman"), "\(transient.message)")
        #expect(transient.message.contains("nickname"), "\(transient.message)")
        let inherited = try #require(throws: DBBError.self) {
            try Keeper.select(.column(\.name), Keeper.leftJoin(\.pet).column(\.species)).rows(manager)
        }
        #expect(inherited.kind == .unknownProperty && inherited.message.contains("Pet"), "\(inherited.message)")
        #expect(inherited.message.contains("superclass"), "\(inherited.message)")
        #expect(inherited.message.contains("joined as Keeper.pet?"), "\(inherited.message)")
        let sorted = try #require(throws: DBBError.self) {
            try Crew.instances(sortedBy: [.ascending(Crew.join(\.members).column(\.name))], manager: manager)
        }
        #expect(sorted.kind == .invalidOption && sorted.message.contains("members"), "\(sorted.message)")
        #expect(try Novel.select(.count()).rows(manager) == [0])
    }
}

extension Array {
    /// The first two elements.
    fileprivate var pair: (Element, Element) { (self[0], self[1]) }
}
