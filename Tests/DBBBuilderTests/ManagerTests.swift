import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("The manager: raw SQL, locale functions, versions, DBBBuilder files, maintenance")
struct ManagerTests {
    @Test("raw execute with and without arguments, and queries returning rows")
    func rawSQL() throws {
        let database = try ManagerTestDatabase([Project.self])
        let m = database.manager
        try m.execute("INSERT INTO Project (itemName, budget) VALUES ('Raw', 1.5)")
        try m.execute("INSERT INTO Project (itemName, budget) VALUES (?, ?)", arguments: ["Bound's", 2.5])
        let rows = try m.query("SELECT itemName AS name, budget FROM Project ORDER BY budget")
        #expect(rows.map { $0["name"] } == [.text("Raw"), .text("Bound's")])
        #expect(rows[1][1] == .real(2.5))
        #expect(rows[0]["missing"] == nil)
        #expect(m.countForTable("Project") == 2)
        #expect(throws: DBBError.self) { try m.execute("INSERT INTO Nowhere VALUES (1)") }
    }

    @Test("every connection has the locale functions: the seed's weekly report and a date column")
    func localeFunctions() throws {
        let database = try ManagerTestDatabase([Project.self])
        let m = database.manager
        try m.execute("CREATE TABLE Usage (FacetId VARCHAR, Value INTEGER, Visits INTEGER, Date DATETIME)")
        try m.execute(
            """
            INSERT INTO Usage VALUES ('a', 10, 1, '2011-01-01'), ('a', 20, 2, '2011-01-02'), ('b', 30, 3, '2011-01-08'),
                                     ('b', 40, 4, '2011-01-09')
            """)
        let report = try m.query(
            """
            SELECT SUM(Value) / SUM(Visits) AS ratio, dbb_week(Date, 'en_US') AS week FROM Usage
            WHERE Date BETWEEN ? AND ? GROUP BY week ORDER BY week
            """, arguments: ["2011-01-01", "2011-01-31"])
        #expect(report.map { $0["week"]! } == ["2011-01", "2011-02", "2011-03"])
        #expect(report.map { $0["ratio"]! } == [10, 10, 10])

        let project = Project("Kickoff", budget: 1, manager: m)
        project.startDate = Calendar(identifier: .gregorian).date(
            from: DateComponents(
                timeZone: TimeZone(identifier: "UTC"), year: 2011, month: 1, day: 2, hour: 9))
        #expect(project.startDate != nil)
        try project.save()
        #expect(try m.query("SELECT dbb_week(startDate, 'en_US') AS w FROM Project").first?["w"] == "2011-02")
        var options = DBBQueryOptions.options(withConditions: ["dbb_week(startDate, 'ru_RU') = ?"])
        options.arguments = ["2010-52"]
        #expect(try Project.instances(matching: options, manager: m).map(\.name) == ["Kickoff"])
    }

    @Test("schema versions: DBBBuilder's DBVersion table, never lowered")
    func versions() throws {
        let database = try ManagerTestDatabase()
        let m = database.manager
        #expect(m.hasLatestDBVersion(currentVersion: 1) == (false, 0))
        m.setCurrentDBVersion(1.5)
        #expect(m.hasLatestDBVersion(currentVersion: 1) == (true, 1.5))
        #expect(m.hasLatestDBVersion(currentVersion: 2) == (false, 1.5))
        try m.setDatabaseVersion(1.0)
        #expect(try m.databaseVersion() == 1.5)
        try m.setDatabaseVersion(3)
        #expect(try database.reopen().databaseVersion() == 3)
        let layout = try database.connection().fetchAll("SELECT name FROM pragma_table_info('DBVersion')") {
            $0.string(at: 0)!
        }
        #expect(layout == ["id", "createdTime", "modifiedTime", "version"])
        #expect(try database.connection().fetchValue("SELECT count(*) FROM DBVersion", as: Int.self) == 1)
    }

    @Test(
        "a database laid out by DBBBuilder on iOS reads back, and saving keeps its layout (registration adds the catalog)"
    )
    func dbbBuilderFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("ios.sqlite")
        do {
            // As DBBBuilder writes it: its own column order, unquoted DDL, join table, DBVersion.
            let db = try SQLiteConnection(path: url.path)
            try db.execute(
                """
                CREATE TABLE Project (budget Real, endDate Real, id Integer PRIMARY KEY AUTOINCREMENT, code Text,
                    itemName Text, modifiedTime Real, startDate Real, createdTime Real);
                CREATE INDEX IF NOT EXISTS Project_name ON Project (itemName);
                CREATE TABLE DBVersion (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real, modifiedTime Real, version Real);
                INSERT INTO DBVersion (version) VALUES (2.0);
                INSERT INTO Project (budget, endDate, code, itemName, modifiedTime, startDate, createdTime)
                    VALUES (12.5, NULL, 'AP', 'Apollo', 347000000.25, 315000000.5, 346000000.125);
                """)
        }
        let before = try SQLiteConnection(path: url.path).fetchAll(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"
        ) { $0.string(at: 0)! }

        let manager = try DBBManager(url: url)
        try manager.register([Project.self])
        #expect(manager.hasLatestDBVersion(currentVersion: 2).hasLatest)
        let apollo = try #require(try Project.all(manager: manager).first)
        #expect(apollo.name == "Apollo" && apollo.code == "AP" && apollo.budget == 12.5)
        #expect(apollo.startDate == Date(timeIntervalSinceReferenceDate: 315000000.5) && apollo.endDate == nil)
        #expect(apollo.createdTime == Date(timeIntervalSinceReferenceDate: 346000000.125))
        apollo.budget = 13
        try apollo.save()
        try Project("Gemini", budget: 1, manager: manager).save()
        let after = try SQLiteConnection(path: url.path).fetchAll(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"
        ) { $0.string(at: 0)! }
        // Registration adds the package's catalog, and nothing else.
        #expect(
            after.filter { !$0.hasPrefix("CREATE TABLE dbb_columns ") } == before,
            "no class table, column or index changed")
        #expect(after.count == before.count + 1)
        #expect(try Project.all(manager: manager).map(\.budget) == [13, 1])
    }

    @Test("opening a file that is not a database fails with a typed error and keeps the file")
    func notADatabase() throws {
        let directory = try TemporaryDirectory()
        let bytes = Data(repeating: 0x42, count: 4096)
        let path = try directory.write(bytes, to: "junk.sqlite")
        #expect {
            _ = try DBBManager(url: URL(fileURLWithPath: path))
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unavailable && error.message.contains(path)
                && error.sqliteError?.code == .notADatabase
        }
        let manager = DBBManager(databaseURL: URL(fileURLWithPath: path))
        #expect(manager.errorMessage().contains("junk.sqlite"))
        #expect(Person.allInstances(manager: manager).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("vacuum, dropIndex, in-memory managers")
    func maintenance() throws {
        let database = try ManagerTestDatabase([Project.self])
        let m = database.manager
        m.vacuumDB()
        #expect(m.errorMessage().isEmpty)
        #expect(m.dropIndex(named: "Project_name"))
        #expect(
            try database.connection().fetchValue(
                "SELECT count(*) FROM sqlite_master WHERE name = 'Project_name'", as: Int.self) == 0)

        let memory = DBBManager.inMemoryDatabaseManager()
        memory.addTableClasses([Project.self])
        #expect(Project("M", budget: 1, manager: memory).saveToDB())
        #expect(memory.countForTable("Project") == 1)
        #expect(memory.databaseURL == nil)
    }
}
