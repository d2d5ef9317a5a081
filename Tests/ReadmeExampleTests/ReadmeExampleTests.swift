import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// The README's Swift examples: the committed copies in `Generated/` are what `extract.sh`
/// makes of the README now (so the README's code is what this target compiles), and the
/// examples that need no fixed path are run on real files and their results checked.
@Suite struct ReadmeExampleTests {
    @Test func generatedExamplesMatchTheReadme() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let scratch = try TemporaryDirectory("dbb-readme-extract")
        let result = try ScriptFixture.run(
            URL(fileURLWithPath: "/bin/bash"),
            [
                here.appendingPathComponent("extract.sh").path,
                here.appendingPathComponent("../../README.md").path,
                scratch.url.path,
            ])
        #expect(result.status == 0, "extract.sh failed: \(result.stderr)")
        let committed = here.appendingPathComponent("Generated")
        let names = try FileManager.default.contentsOfDirectory(atPath: committed.path).sorted()
        #expect(
            try scratch.fileNames() == names,
            "README examples and Generated/ differ: run Tests/ReadmeExampleTests/extract.sh")
        for name in try scratch.fileNames() {
            let fresh = try String(contentsOfFile: scratch.path(name), encoding: .utf8)
            let old = try? String(contentsOf: committed.appendingPathComponent(name), encoding: .utf8)
            #expect(fresh == old, "Generated/\(name) is stale: run Tests/ReadmeExampleTests/extract.sh")
        }
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

    @Test func sharedDatabasesCopyTheTemplateOnceAndAttachTheReference() throws {
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

        let (manager, meals) = try #require(try ReadmeExamples.sharedDatabases(given) as? (DBBManager, [DBBRow]))
        #expect(
            try meals.map { try [$0.decode(String.self, "grams"), $0.decode(String.self, "name")] }
                == [["120", "Oil, olive"]])
        try manager.execute("INSERT INTO Meal (grams, foodID) VALUES (30, 1)")
        #expect(throws: DBBError.self) { try manager.execute("DELETE FROM reference.food") }
        // A second launch keeps the user's data: the template is not copied over it.
        let (_, again) = try #require(try ReadmeExamples.sharedDatabases(given) as? (DBBManager, [DBBRow]))
        #expect(again.count == 2)
    }
}
