import DBBBuilder
import DBBSQLite
import DBBScript
import DBBTestSupport
import Foundation
import Testing

final class Meal: DBBTableObject {
    var foodID = 0
    var grams = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "foodID": DBBPropertyPersistence(\Meal.foodID),
                "grams": DBBPropertyPersistence(\Meal.grams),
            ], for: self)
    }
}

@Suite("A read-only reference database and a template user database")
struct AttachAndTemplateTests {
    /// A reference database built by the script runner, as an app would ship it.
    private func makeReference(_ fixture: ScriptFixture) throws -> URL {
        try fixture.file("food.csv", "1|Apple|52\n2|Bread|265\n3|Cheese|402\n")
        let script = try fixture.file(
            "ref.txt",
            """
            CREATE TABLE food (id INTEGER PRIMARY KEY, name TEXT, calories INTEGER);
            .separator |
            .import food.csv food
            """)
        let url = fixture.directory.url.appendingPathComponent("food.sqlite")
        try DBBScriptRunner.build(script: script, output: url)
        return url
    }

    @Test("an attachment joins with the main database on every connection and refuses writes")
    func readOnlyAttachment() async throws {
        let fixture = try ScriptFixture()
        let reference = try makeReference(fixture)
        let before = try Data(contentsOf: reference)
        let user = try ManagerTestDatabase([Meal.self])
        let manager = user.manager
        try manager.attach(databaseAt: reference, as: "reference")
        for (food, grams) in [(2, 80), (3, 30), (1, 150)] {
            let meal = Meal(dbManager: manager)
            (meal.foodID, meal.grams) = (food, grams)
            try await meal.save()
        }
        let sql =
            "SELECT f.name, m.grams * f.calories / 100 AS kcal FROM Meal m JOIN reference.food f ON f.id = m.foodID ORDER BY f.name"
        let expected: [[SQLiteValue]] = [["Apple", 78], ["Bread", 212], ["Cheese", 120]]
        #expect(try manager.query(sql).map(\.values) == expected)
        // Reader connections opened on other threads have it too.
        let fromTasks = try await withThrowingTaskGroup(of: [[SQLiteValue]].self) { group in
            for _ in 0..<6 { group.addTask { try manager.query(sql).map(\.values) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(fromTasks == Array(repeating: expected, count: 6))
        #expect {
            try manager.execute("INSERT INTO reference.food VALUES (4, 'Dates', 282)")
        } throws: { error in
            (error as? DBBError)?.sqliteError?.code == .readOnly
        }
        #expect(try Data(contentsOf: reference) == before)
        #expect {
            try manager.attach(databaseAt: fixture.directory.url.appendingPathComponent("absent.sqlite"), as: "nothing")
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unavailable && error.message.contains("absent.sqlite")
        }
    }

    @Test("a template is copied only when no database exists, never over one")
    func template() throws {
        let fixture = try ScriptFixture()
        let template = try makeReference(fixture)
        let templateBytes = try Data(contentsOf: template)
        let userURL = fixture.directory.url.appendingPathComponent("user.sqlite")

        let first = try DBBManager(url: userURL, templateURL: template)
        #expect(try first.count(of: "food") == 3)
        try first.execute("INSERT INTO food VALUES (9, 'Mine', 1)")
        let second = try DBBManager(url: userURL, templateURL: template)
        #expect(try second.count(of: "food") == 4, "the existing database was kept, not replaced")
        #expect(try Data(contentsOf: template) == templateBytes)

        let dbbStyle = DBBManager(
            databaseURL: fixture.directory.url.appendingPathComponent("other.sqlite"),
            templateURL: fixture.directory.url.appendingPathComponent("missing-template.sqlite"))
        #expect(dbbStyle.errorMessage().contains("missing-template.sqlite"))
    }
}
