import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// A class mapped onto a table DBBBuilder did not create: raw SQL, another program.
final class InventoryItem: DBBTableObject {
    override class var databaseTableName: String { "Inventory" }
    var name = ""
    var price = 0.0
    var tags: [String] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\InventoryItem.name, columnName: "itemName"),
                "price": DBBPropertyPersistence(\InventoryItem.price),
                "tags": DBBPropertyPersistence(\InventoryItem.tags),
            ], for: self, indexer: DBBIndexer(columnsToIndex: ["name"], unique: true))
    }
}

@Suite("Registering on tables DBBBuilder did not create")
struct AdoptedTableTests {
    /// A database whose `Inventory` table was made by `create`, holding `rows`.
    private func database(_ create: String, rows: [String] = []) throws -> ManagerTestDatabase {
        let database = try ManagerTestDatabase()
        let connection = try database.connection()
        try connection.execute(create)
        for row in rows { try connection.execute("INSERT INTO Inventory VALUES (\(row))") }
        return database
    }

    private func rows(_ database: ManagerTestDatabase) throws -> [String] {
        try database.connection().fetchAll("SELECT * FROM Inventory ORDER BY 1") { row in
            (0..<row.count).map { row.string(at: $0) ?? "NULL" }.joined(separator: " ")
        }
    }

    @Test(
        "the time columns are added, the rows kept, and fetch and save work",
        arguments: [
            "CREATE TABLE Inventory (id INTEGER PRIMARY KEY, itemName TEXT, price REAL)",
            "CREATE TABLE Inventory (itemName TEXT, \"ID\" integer NOT NULL PRIMARY KEY, price REAL)",
        ])
    func adopted(create: String) throws {
        let idFirst = create.contains("id INTEGER")
        let database = try database(
            create,
            rows: idFirst
                ? ["1, 'bolt', 0.5", "5, 'nut', 0.25"]
                : ["'bolt', 1, 0.5", "'nut', 5, 0.25"])
        let manager = database.manager
        try manager.register([InventoryItem.self])
        let columns = try database.connection().fetchAll("SELECT name, type FROM pragma_table_info('Inventory')") {
            "\($0.string(at: 0) ?? "") \($0.string(at: 1) ?? "")"
        }
        #expect(columns.suffix(2) == ["createdTime REAL", "modifiedTime REAL"], "\(columns)")

        let items = try InventoryItem.all(manager: manager)
        #expect(
            items.map(\.id) == [1, 5] && items.map(\.name) == ["bolt", "nut"] && items.map(\.price) == [0.5, 0.25])
        #expect(items.allSatisfy { $0.createdTime == nil && $0.modifiedTime == nil && $0.tags.isEmpty })
        items[0].price = 0.75
        items[0].tags = ["metal"]
        try items[0].save()
        let washer = InventoryItem(dbManager: manager)
        (washer.name, washer.price) = ("washer", 0.1)
        #expect(washer.saveToDB())
        #expect(washer.id == 6 && washer.createdTime != nil)

        let again = try InventoryItem.all(manager: try database.reopen([InventoryItem.self]))
        #expect(again.map(\.name) == ["bolt", "nut", "washer"])
        #expect(again[0].price == 0.75 && again[0].tags == ["metal"] && again[0].modifiedTime != nil)
        #expect(again[1].createdTime == nil)
        #expect(try database.connection().fetchValue("PRAGMA integrity_check", as: String.self) == "ok")
    }

    @Test(
        "a table without an INTEGER PRIMARY KEY id is refused, naming table and column; nothing changes",
        arguments: [
            "CREATE TABLE Inventory (id TEXT PRIMARY KEY, itemName TEXT, price REAL)",
            "CREATE TABLE Inventory (code INTEGER PRIMARY KEY, itemName TEXT, price REAL)",
            "CREATE TABLE Inventory (id INT PRIMARY KEY, itemName TEXT, price REAL)",
            "CREATE TABLE Inventory (id INTEGER, itemName TEXT, price REAL)",
            "CREATE TABLE Inventory (id INTEGER, itemName TEXT, price REAL, PRIMARY KEY (id, itemName))",
            "CREATE TABLE Inventory (id INTEGER PRIMARY KEY, itemName TEXT, price REAL) WITHOUT ROWID",
        ])
    func refused(create: String) throws {
        let database = try database(create, rows: ["1, 'bolt', 0.5"])
        let schema = try database.schema()
        #expect {
            try database.manager.register([InventoryItem.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.table == "Inventory" && error.property == "id"
                && error.message.contains("INTEGER PRIMARY KEY") && error.message.contains("InventoryItem")
        }
        database.manager.addTableClasses([InventoryItem.self])
        #expect(database.manager.errorMessage().contains("Inventory.id"))
        #expect(InventoryItem.allInstances(manager: database.manager).isEmpty)
        #expect(database.manager.lastError?.kind == .migrationRefused)
        #expect(try database.schema() == schema)
        #expect(try rows(database) == ["1 bolt 0.5"])
    }

    @Test("a time column of another type is refused")
    func textTimeColumn() throws {
        let database = try database(
            "CREATE TABLE Inventory (id INTEGER PRIMARY KEY, itemName TEXT, price REAL, createdTime TEXT)",
            rows: ["1, 'bolt', 0.5, 'yesterday'"])
        let schema = try database.schema()
        #expect {
            try database.manager.register([InventoryItem.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .migrationRefused && error.property == "createdTime" && error.message.contains("TEXT")
                && error.message.contains("createdTime is REAL") && !error.message.contains("columnName:")
        }
        #expect(try database.schema() == schema)
    }

    @Test("the time columns come in the same transaction as the rest: a failure later leaves the table as it was")
    func sameTransaction() throws {
        // Two rows with one name: the unique index the class declares cannot be created.
        let database = try database(
            "CREATE TABLE Inventory (id INTEGER PRIMARY KEY, itemName TEXT, price REAL)",
            rows: ["1, 'bolt', 0.5", "2, 'bolt', 0.75"])
        let schema = try database.schema()
        #expect(throws: DBBError.self) { try database.manager.register([InventoryItem.self]) }
        #expect(try database.schema() == schema)
        #expect(try rows(database) == ["1 bolt 0.5", "2 bolt 0.75"])
    }
}
