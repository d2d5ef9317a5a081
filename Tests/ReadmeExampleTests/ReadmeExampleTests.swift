import DBBBuilder
import DBBLocale
import DBBScript
import DBBTestSupport
import Foundation
import Testing

/// The README's Swift examples: the committed copies in `Generated/` are what `extract.sh`
/// makes of the README now (so the README's code is what this target compiles), and the
/// examples that need no fixed path are run on real files and their results checked.
@Suite struct ReadmeExampleTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The Markdown files whose Swift blocks are compiled: the README and every DocC article
    /// (`Sources/T/Documentation.docc/A.md`), each with the folder of `Generated/` its examples
    /// go to (`""` for the README, `T-A` for an article).
    static func markdownFiles() throws -> [(file: URL, folder: String)] {
        let fileManager = FileManager.default
        var files = [(file: root.appendingPathComponent("README.md"), folder: "")]
        let sources = root.appendingPathComponent("Sources")
        for target in try fileManager.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent(target).appendingPathComponent("Documentation.docc")
            guard let names = try? fileManager.contentsOfDirectory(atPath: catalog.path) else { continue }
            for name in names.sorted() where name.hasSuffix(".md") {
                files.append((catalog.appendingPathComponent(name), "\(target)-\(name.dropLast(3))"))
            }
        }
        return files
    }

    /// `file`'s path from the repository's root.
    static func relative(_ file: URL) -> String {
        String(file.path.dropFirst(root.path.count + 1))
    }

    /// The committed copies in `Generated/` are what `extract.sh` makes of the README and the
    /// articles now: the README's examples in `Generated/`, each article's in
    /// `Generated/<Target>-<Article>/`, and no folder for an article without examples.
    @Test func generatedExamplesMatchTheReadme() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let generated = here.appendingPathComponent("Generated")
        let scratch = try TemporaryDirectory("dbb-readme-extract")
        let fileManager = FileManager.default
        func swiftFiles(_ folder: URL) -> [String] {
            ((try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".swift") }
                .sorted()
        }
        var folders: [String] = []
        for (file, folder) in try Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard folder.isEmpty || text.contains("\n<!-- example: ") else { continue }
            if !folder.isEmpty { folders.append(folder) }
            let fresh = scratch.url.appendingPathComponent(folder.isEmpty ? "README" : folder)
            let committed = folder.isEmpty ? generated : generated.appendingPathComponent(folder)
            let result = try ScriptFixture.run(
                URL(fileURLWithPath: "/bin/bash"),
                [here.appendingPathComponent("extract.sh").path, file.path, fresh.path])
            #expect(result.status == 0, "extract.sh failed on \(Self.relative(file)): \(result.stderr)")
            #expect(
                swiftFiles(fresh) == swiftFiles(committed),
                "the examples of \(Self.relative(file)) and Generated/\(folder) differ: run Tests/ReadmeExampleTests/extract.sh"
            )
            for name in swiftFiles(fresh) {
                let new = try String(contentsOf: fresh.appendingPathComponent(name), encoding: .utf8)
                let old = try? String(contentsOf: committed.appendingPathComponent(name), encoding: .utf8)
                #expect(new == old, "Generated/\(folder)/\(name) is stale: run Tests/ReadmeExampleTests/extract.sh")
            }
        }
        let committedFolders = try fileManager.contentsOfDirectory(atPath: generated.path).filter { name in
            var isFolder: ObjCBool = false
            return fileManager.fileExists(atPath: generated.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }
        #expect(
            committedFolders.sorted() == folders.sorted(),
            "Generated/ has folders of articles without examples, or lacks some: run Tests/ReadmeExampleTests/extract.sh"
        )
    }

    /// Every ```swift block of the README and of the articles is compiled: it follows an
    /// `<!-- example: … -->` marker (or, in the README, a `<!-- ci: … -->` marker: CI builds
    /// those as a package of their own), and no two examples share a name. A block marked
    /// `<!-- convert-input: NAME -->` is DBBBuilder code for `dbb-codegen --convert`: the code
    /// generator's tests check that it converts to the example NAME.
    @Test func everySwiftBlockHasAnExampleMarker() throws {
        var unmarked: [String] = []
        var names: [String: [String]] = [:]
        for (file, folder) in try Self.markdownFiles() {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let place = "\(Self.relative(file)):\(index + 1)"
                if line.hasPrefix("<!-- example: ") {
                    let name = line.dropFirst("<!-- example: ".count).prefix { $0 != ";" && $0 != " " }
                    names[String(name), default: []].append(place)
                }
                guard line == "```swift" else { continue }
                let marker = index > 0 ? lines[index - 1] : ""
                if marker.hasPrefix("<!-- example: ") || marker.hasPrefix("<!-- convert-input: ")
                    || (folder.isEmpty && marker.hasPrefix("<!-- ci: "))
                {
                    continue
                }
                unmarked.append("\(place): \(index + 1 < lines.count ? lines[index + 1] : "")")
            }
        }
        #expect(unmarked.isEmpty, "Swift blocks without an example marker (see extract.sh): \(unmarked)")
        let repeated = names.filter { $0.value.count > 1 }
        #expect(repeated.isEmpty, "examples sharing a name: \(repeated)")
    }

    @Test func relationsSelectsByElementOrReference() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("meetings.sqlite", [Person.self, Project.self, Meeting.self])
        let ada = Person(dbManager: manager)
        let grace = Person(dbManager: manager)
        (ada.firstName, grace.firstName) = ("Ada", "Grace")
        let apollo = Project(dbManager: manager)
        let gemini = Project(dbManager: manager)
        (apollo.name, gemini.name) = ("Apollo", "Gemini")
        func meeting(_ purpose: String, _ people: [Person], _ project: Project?) throws {
            let meeting = Meeting(dbManager: manager)
            (meeting.purpose, meeting.participants, meeting.project) = (purpose, people, project)
            try meeting.save()
        }
        try meeting("with Ada", [grace, ada], gemini)
        try meeting("on Apollo", [grace], apollo)
        try meeting("neither", [grace], gemini)
        try meeting("nobody", [], nil)
        for (name, value) in [("manager", manager as Any), ("ada", ada), ("apollo", apollo)] { given.set(value, name) }

        let meetings = try #require(try ReadmeExamples.relations(given) as? [Meeting])
        #expect(Set(meetings.map(\.purpose)) == ["with Ada", "on Apollo"])
        let withAda = try #require(meetings.first { $0.purpose == "with Ada" })
        #expect(withAda.participants.map(\.firstName) == ["Grace", "Ada"])
        #expect(withAda.project?.name == "Gemini")
    }

    @Test func loggingIsSetOnTheManager() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("shop.sqlite", [])
        given.set(manager, "manager")
        let returned = try #require(try ReadmeExamples.logging(given) as? DBBManager)
        #expect(returned.logging?.slowStatementThreshold == .milliseconds(100))
        #expect(returned.logging?.logger.logLevel == .notice)
        #expect(try Person.instances(matching: .options(), manager: returned).isEmpty, "Person is registered")
    }

    @Test func conditionalSaveLetsTheFirstWriterLandAndRefusesTheSecond() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("conditional.sqlite", [Project.self, Order.self])
        let order = Order(dbManager: manager)
        order.note = "first"
        try order.save()
        given.set(manager, "manager")
        let (theirs, refused) = try #require(try ReadmeExamples.conditionalSave(given) as? (Order, Bool))
        #expect(refused && theirs.note == "theirs")
        #expect(try Order.instance(id: 1, manager: manager)?.note == "theirs")
    }

    @Test func changeTrackingSavesTheChangeRefusesTheStaleCopyAndCopies() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("orders.sqlite", [Project.self, Order.self])
        let apollo = Project(dbManager: manager)
        apollo.name = "Apollo"
        let orders = (1...8).map { number in
            let order = Order(dbManager: manager)
            (order.note, order.project) = ("order \(number)", apollo)
            return order
        }
        try Order.save(orders, manager: manager)
        #expect(orders[6].id == 7)
        let staleCopy = try #require(try Order.instance(id: 3, manager: manager))
        try manager.execute(#"DELETE FROM "Order" WHERE id = 3"#)
        staleCopy.note = "changed after its row was deleted"
        let archive = try given.manager("archive.sqlite", [Project.self, Order.self])
        for (name, value) in [("manager", manager as Any), ("staleCopy", staleCopy), ("archive", archive)] {
            given.set(value, name)
        }

        let (order, archived) = try #require(try ReadmeExamples.changeTracking(given) as? (Order, [Order]))
        #expect(order.id == 7 && !order.hasChanges)
        let stored = try manager.query(#"SELECT note, modifiedTime > createdTime FROM "Order" ORDER BY id"#)
        #expect(
            try stored.map { try $0.decode(String.self, at: 0) }
                == ["order 1", "order 2", "order 4", "order 5", "order 6", "rush", "order 8"])
        #expect(try Order.instance(id: 3, manager: manager) == nil, "the stale copy was inserted again")
        let copy = try #require(archived.first)
        #expect(archived.count == 1 && copy.dbManager === archive && copy.note == "rush")
        let copied = try Order.all(manager: archive)
        #expect(copied.map(\.note) == ["rush"] && copied.first?.project?.name == "Apollo")
    }

    /// The DBBScript article's example: a program builds the reference database, then attaches it.
    @Test func scriptBuildsThenAttachesTheReference() throws {
        let given = try ReadmeGivens()
        let folder = given.directory.url
        try Data("1|Oil, olive\n2|Lard\n".utf8).write(to: folder.appendingPathComponent("food.csv"))
        let script = folder.appendingPathComponent("food.dbbscript")
        try Data("CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT);\n.import food.csv food\n".utf8).write(
            to: script)
        let reference = folder.appendingPathComponent("food.sqlite")
        let older = try SQLiteConnection(path: reference.path)  // last release's reference database
        try older.execute("CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO food VALUES (1, 'Stale')")
        older.close()
        given.set(script, "scriptURL")
        given.set(reference, "referenceURL")
        given.set(folder.appendingPathComponent("user.sqlite"), "userDatabaseURL")
        let (report, foods) = try #require(
            try ReadmeExamples.scriptBuildAndAttach(given) as? (DBBBuildReport, [DBBRow]))
        #expect(report.importedRows.map(\.rows) == [2])
        #expect(report.filesRead.map(\.lastPathComponent) == ["food.dbbscript", "food.csv"])
        #expect(foods.map { $0["name", as: String.self] } == ["Lard", "Oil, olive"])
    }

    @Test func sharedDatabasesCopyTheTemplateOnceAndAttachTheReference() throws {
        let example = ReadmeExamples.sharedDatabases
        let given = try ReadmeGivens()
        let template = given.directory.url.appendingPathComponent("template.sqlite")
        let food = given.directory.url.appendingPathComponent("food.sqlite")
        let user = given.directory.url.appendingPathComponent("user/data.sqlite")
        try FileManager.default.createDirectory(at: user.deletingLastPathComponent(), withIntermediateDirectories: true)
        let templateDB = try SQLiteConnection(path: template.path)
        try templateDB.execute("CREATE TABLE Meal (id INTEGER PRIMARY KEY, grams INTEGER, foodID INTEGER)")
        try templateDB.execute("INSERT INTO Meal (grams, foodID) VALUES (120, 2)")
        templateDB.close()
        let foodDB = try SQLiteConnection(path: food.path)
        try foodDB.execute("CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT)")
        try foodDB.execute("INSERT INTO food VALUES (1, 'Lard'), (2, 'Oil, olive')")
        foodDB.close()
        for (name, value) in [("userDatabaseURL", user), ("bundledTemplateURL", template), ("bundledFoodURL", food)] {
            given.set(value, name)
        }

        let (manager, meals) = try #require(try example(given) as? (DBBManager, [DBBRow]))
        #expect(
            try meals.map { try [$0.decode(String.self, "grams"), $0.decode(String.self, "name")] }
                == [["120", "Oil, olive"]])
        try manager.execute("INSERT INTO Meal (grams, foodID) VALUES (30, 1)")
        #expect(throws: DBBError.self) { try manager.execute("DELETE FROM reference.food") }
        // A second launch keeps the user's data: the template is not copied over it.
        let (_, again) = try #require(try example(given) as? (DBBManager, [DBBRow]))
        #expect(again.count == 2)
    }

    /// The DBBBuilder articles' examples, run in turn on one library of books.
    @Test func articleExamplesRunOnALibrary() async throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("library.sqlite", [Book.self, Member.self, Shelf.self])
        let archive = try given.manager("archive.sqlite", [Book.self])
        for (title, author, year, price) in [
            ("The Mythical Man-Month", "Fred Brooks", 1975, 20.0), ("Peopleware", "Tom DeMarco", 1987, 0),
            ("The C Programming Language", "Brian Kernighan", 1978, 30),
        ] {
            let book = Book(dbManager: manager)
            (book.title, book.author, book.year, book.price) = (title, author, year, price)
            book.published = year == 1987 ? Date() : nil
            try await book.save()
        }
        given.set(manager, "manager")
        given.set(archive, "archive")
        given.set(try #require(manager.databaseURL), "databaseURL")
        let (read, refused) = try #require(try ReadmeExamples.readOnlyManager(given) as? ([Book], Bool))
        #expect(read.count == 3 && refused)

        let (found, recent) = try #require(try ReadmeExamples.queriesConditions(given) as? ([Book], [Book]))
        #expect(found.map(\.title) == ["The Mythical Man-Month"] && recent.map(\.title) == ["Peopleware"])
        let (authors, ids) = try #require(try ReadmeExamples.queriesPartial(given) as? ([Book], [Int64]))
        #expect(authors.map(\.author) == ["Brian Kernighan", "Fred Brooks", "Tom DeMarco"] && ids == [1, 2, 3])
        #expect(try ReadmeExamples.queriesBatches(given) as? Double == 50)
        let (count, newest, undated) = try #require(try ReadmeExamples.queriesRaw(given) as? (Int, [String], [DBBRow]))
        #expect(count == 3 && newest.first == "Peopleware" && undated.count == 2)
        #expect(try await Book.instance(id: 1, manager: manager)?.price == 18)

        let (shelves, light) = try #require(try ReadmeExamples.relationsQuery(given) as? ([Shelf], [Shelf]))
        #expect(shelves.map(\.name) == ["Lisp"] && shelves.first?.books.first?.year == 0)
        #expect(light.first?.labels == ["functional", "classic"] && light.first?.books.isEmpty == true)

        let copies = try #require(try ReadmeExamples.identityChanges(given) as? [Book])
        #expect(copies.count == 1 && copies.first?.dbManager === archive && copies.first?.price == 23)
        _ = try ReadmeExamples.identityStaleCopy(given)
        #expect(try await Book.instance(id: 1, manager: manager) == nil, "the stale copy was inserted again")

        #expect(try await ReadmeExamples.concurrencyAsync(given) as? Int == 2)
        #expect(try await Book.all(manager: manager).filter { $0.price == 0 }.isEmpty)
        #expect((try ReadmeExamples.concurrencyQueue(given) as? [DBBTableObject])?.count == 3)

        let classics = try #require(try ReadmeExamples.gettingStartedFetch(given) as? [Book])
        #expect(classics.map(\.year) == [0, 1978] && classics.first?.isDeleted == true)
        // The typed report and the same report in SQL give the same rows.
        let perAuthor = try #require(try ReadmeExamples.gettingStartedReport(given) as? [(String, Int)])
        let rows = try #require(try ReadmeExamples.gettingStartedSQL(given) as? [DBBRow])
        #expect(!perAuthor.isEmpty && perAuthor.map(\.0) == rows.map { $0["author", as: String.self] })
        #expect(perAuthor.map(\.1) == rows.map { $0["books", as: Int.self] })
        #expect(try ReadmeExamples.gettingStartedErrors(given) as? Bool == true)
        _ = try ReadmeExamples.loggingTrace(given)
        #if Postgres
        // The Scaling Out article's examples (they import DBBPostgres), run on the SQLite manager.
        let bounded = try #require(try ReadmeExamples.postgresSchemaChanges(given) as? DBBManager)
        #expect(bounded.schemaChanges == DBBSchemaChanges(lockTimeout: .milliseconds(100), waitLimit: .seconds(120)))
        bounded.schemaChanges = DBBSchemaChanges()
        let plan = try #require(try ReadmeExamples.postgresMigrationPlan(given) as? DBBMigrationPlan)
        #expect(plan.isEmpty, "Book is registered: nothing to change")
        #endif
        let (parsed, combined) = try #require(
            try ReadmeExamples.mappingsAttributes(given) as? (ColumnAttributes?, ColumnAttributes))
        #expect(parsed == [.notNull, .unique] && combined == [.notNull, .unique])
    }

    /// The Reports article's example: per-author totals and weeks of the German calendar,
    /// typed, and the SQL they run.
    @Test func reportsExampleRunsOnALibrary() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("reports.sqlite", [Book.self])
        let published = Date(timeIntervalSinceReferenceDate: 315_576_000)  // 2011-01-01, a Saturday
        for (title, author, year, price) in [
            ("The Mythical Man-Month", "Fred Brooks", 1975, 20.0), ("Peopleware", "Tom DeMarco", 1987, 0),
            ("The C Programming Language", "Brian Kernighan", 1978, 30), ("Old", "Anon", 1960, 99),
        ] {
            let book = Book(dbManager: manager)
            (book.title, book.author, book.year, book.price) = (title, author, year, price)
            book.published = year == 1987 ? published : nil
            try book.save()
        }
        given.set(manager, "manager")
        let (perAuthor, weeks, sql) = try #require(
            try ReadmeExamples.reportsBooks(given)
                as? ([(String, Int, Double?, Double?)], [(String?, Int)], DBBQuerySQL))
        #expect(perAuthor.map(\.0) == ["Brian Kernighan", "Fred Brooks", "Tom DeMarco"])
        #expect(perAuthor.map(\.2) == [30, 20, 0] && perAuthor.allSatisfy { $0.1 == 1 && $0.2 == $0.3 })
        // 2011-01-01 is in the last week of 2010 in Germany.
        #expect(weeks.count == 1 && weeks[0].0 == "2010-52" && weeks[0].1 == 1)
        #expect(sql.sql.contains("dbb_week(published, ?1)") && sql.arguments == [.text("de_DE")])
    }

    /// The Reports article's joins example: novels per author (left join, so the anonymous one
    /// counts under nil) per German quarter, and a fetch of objects across a reference.
    @Test func reportsJoinsExampleRunsOnNovels() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("novels.sqlite", [Novel.self, Novelist.self])
        let austen = Novelist(dbManager: manager)
        (austen.name, austen.country) = ("Austen", "UK")
        let tolstoy = Novelist(dbManager: manager)
        (tolstoy.name, tolstoy.country) = ("Tolstoy", "RU")
        let day = 86_400.0
        let january2011 = Date(timeIntervalSinceReferenceDate: 315_576_000)  // 2011-01-01
        for (title, author, days) in [
            ("Emma", austen, 9.0), ("Persuasion", austen, 40), ("Anna Karenina", tolstoy, 120),
            ("Anonymous", nil, 190), ("Sanditon", austen, nil),
        ] as [(String, Novelist?, Double?)] {
            let novel = Novel(dbManager: manager)
            (novel.title, novel.author) = (title, author)
            novel.published = days.map { january2011.addingTimeInterval($0 * day) }
            try novel.save()
        }
        given.set(manager, "manager")
        let (perQuarter, british) = try #require(
            try ReadmeExamples.reportsJoins(given) as? ([(String?, String?, Int)], [Novel]))
        #expect(perQuarter.map(\.0) == [nil, "Austen", "Tolstoy"])
        #expect(perQuarter.map(\.1) == ["Q3 '11", "Q1 '11", "Q2 '11"] && perQuarter.map(\.2) == [1, 2, 1])
        #expect(british.map(\.title) == ["Emma", "Persuasion", "Sanditon"])
    }

    /// The value types example saves an enum, a decimal, a UUID, a URL and JSON, and finds the
    /// shipment by them; the mapping by hand registers and stores the same kinds.
    @Test func valueTypesExample() throws {
        let given = try ReadmeGivens()
        let manager = try given.manager("shipments.sqlite", [])
        given.set(manager, "manager")
        let (parcel, due) = try #require(try ReadmeExamples.valueTypes(given) as? (Shipment, [Shipment]))
        #expect(due.map(\.id) == [parcel.id] && due.first?.price == Decimal(string: "19.9"))
        #expect(due.first?.address == PostalAddress(street: "1 Main St", city: "Springfield"))
        try manager.register([Parcel.self])
        let byHand = Parcel(dbManager: manager)
        (byHand.steps, byHand.weight, byHand.address) = ([.sent, .delivered], Decimal(string: "0.25"), parcel.address)
        try byHand.save()
        let read = try #require(try Parcel.instance(id: byHand.id, manager: manager))
        #expect(
            read.steps == [.sent, .delivered] && read.weight == Decimal(string: "0.25")
                && read.address == parcel.address)
    }

    /// The DBBLocale article's examples give the results its comments and tables show.
    @Test func localeArticleExamplesGiveTheDocumentedResults() throws {
        let given = try ReadmeGivens()
        typealias Week = (String, String, Int)
        let (us, russian) = try #require(try ReadmeExamples.localeWeeklyReport(given) as? ([Week], [Week]))
        #expect(us.map { "\($0.0) \($0.1) \($0.2)" } == ["2011-01 2010-12-26 8", "2011-02 2011-01-02 10"])
        #expect(russian.map { "\($0.0) \($0.1) \($0.2)" } == ["2010-52 2010-12-27 12", "2011-01 2011-01-03 6"])
        typealias Range = (resolution: DBBDateUnit, start: DBBDay, end: DBBDay)
        let (week, quarterEnd, range) = try #require(
            try ReadmeExamples.localeCalendar(given) as? ((Int, Int), DBBDay, Range))
        #expect(week == (2011, 2) && quarterEnd.description == "2011-03-31")
        #expect(range.resolution == .month && "\(range.start) \(range.end)" == "2011-01-01 2011-02-28")

        let db = try SQLiteConnection.inMemory()
        try db.addLocaleFunctions()
        let table = try db.fetchAll(
            """
            SELECT dbb_week(d, 'en_US'), dbb_week(d, 'ru_RU'), strftime('%Y-%W', d) FROM (
                SELECT '2010-12-31' AS d UNION ALL SELECT '2011-01-01' UNION ALL SELECT '2011-01-02'
                UNION ALL SELECT '2011-01-03')
            """
        ) { row in (0..<3).map { row.string(at: $0) ?? "" }.joined(separator: " ") }
        #expect(
            table == [
                "2011-01 2010-52 2010-52", "2011-01 2010-52 2011-00", "2011-02 2010-52 2011-00",
                "2011-02 2011-01 2011-01",
            ])
        let results = try db.fetchOne(
            """
            SELECT dbb_week_start('2011-01-02', 'ru_RU'), dbb_align('2011-01-02', 'quarter', 'en_US', 'end'),
                dbb_format_date('YYYY-ww', '2011-01-02', 'ar_SA'), ObjcGetYearAndQuarterUsingLocale('2011-01-02', 'en_US'),
                ObjcGetYearAndHalfYearUsingLocale('2011-01-02', 'en_US', 'H1 ''%@', 'H2 ''%@', 'short'),
                ObjcGetYearAndHalfYearUsingLocale('2011-01-02', 'ja_JP', '%@ 年 上半期', '%@ 年 下半期', 'long'),
                dbb_date('2011-01-02'), dbb_unixepoch('2011-01-02'), dbb_format_date('MMMM', '2011-01-02', 'ru_RU'),
                dbb_format_date('LLLL', '2011-01-02', 'ru_RU')
            """
        ) { row in (0..<10).map { row.string(at: $0) ?? "" } }
        #expect(
            results == [
                "2010-12-27", "2011-03-31", "٢٠١١-٠٢", "Q1 '11", "H1 '11", "2011 年 上半期", "2011-01-02 00:00:00",
                "1293926400.0", "января", "январь",
            ])
        for (sql, message) in [
            (
                "SELECT dbb_week('2011-01-02', 'xx_YY')",
                "dbb_week: argument 2 (locale) 'xx_YY' is not an available locale identifier (e.g. 'en_US', 'ru_RU')"
            ),
            (
                "SELECT dbb_align('2011-01-02', 'fortnight', 'en_US', 'start')",
                "dbb_align: argument 2 (unit) 'fortnight' is not day, week, month, quarter, halfyear or year"
            ),
            (
                "SELECT ObjcGetYearAndQuarterUsingLocale(NULL, 'en_US')",
                "ObjcGetYearAndQuarterUsingLocale: argument 1 (date) is NULL"
            ),
            ("SELECT dbb_week('no date', 'xx_YY')", "dbb_week: argument 2 (locale) 'xx_YY' is not"),
        ] {
            #expect(throws: SQLiteError.self) { try db.execute(sql) }
            do { try db.execute(sql) } catch let error as SQLiteError { #expect(error.message.hasPrefix(message)) }
        }
        #expect(
            try db.fetchValue("SELECT dbb_week(NULL, 'en_US') IS NULL AND dbb_date('no date') IS NULL", as: Bool.self)
                == true)
    }

    /// The DBBSQLite article's examples give the results its comments show.
    @Test func sqliteArticleExamplesGiveTheDocumentedResults() throws {
        let given = try ReadmeGivens()
        let (count, priced) = try #require(
            try ReadmeExamples.sqliteOpen(given) as? (Int?, [(name: String, price: Double)]))
        #expect(count == 2 && priced.map(\.name) == ["pen", "ink"] && priced.map(\.price) == [1.5, 4])
        #expect(try ReadmeExamples.sqliteStatements(given) as? [String] == ["paper", "stapler"])
        let (initials, product) = try #require(try ReadmeExamples.sqliteFunctions(given) as? (String?, Double?))
        #expect(initials == "GBH" && product == 7)
    }
}
