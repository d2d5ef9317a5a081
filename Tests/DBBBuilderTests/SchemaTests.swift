import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Tables, columns, indexes and migration")
struct SchemaTests {
    @Test("the table is created in DBBBuilder's layout")
    func createTable() throws {
        let database = try ManagerTestDatabase([Person.self, Project.self])
        let sql = try #require(
            try database.connection().fetchValue(
                "SELECT sql FROM sqlite_master WHERE name = 'Person'", as: String.self))
        #expect(
            sql.hasPrefix(
                "CREATE TABLE Person (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real, modifiedTime Real"))
        #expect(sql.contains("firstName Text NOT NULL"))
        #expect(sql.contains("age Integer"))
        #expect(sql.contains("birthday Real"))
        #expect(sql.contains("isMember Boolean"))
        #expect(sql.contains("nick Text"), "a custom column name")
        #expect(!sql.contains("nickname"))
        let project = try #require(
            try database.connection().fetchValue(
                "SELECT sql FROM sqlite_master WHERE name = 'Project'", as: String.self))
        #expect(project.contains("itemName Text") && project.contains("budget Real"))
    }

    @Test("indexes use column names; join tables get DBBBuilder's names and index")
    func indexes() throws {
        let database = try ManagerTestDatabase([Person.self, Project.self, AllTypes.self])
        let db = try database.connection()
        #expect(
            try db.fetchAll("SELECT name FROM pragma_index_info('Person_lastNamenickname')") { $0.string(at: 0)! }
                == ["lastName", "nick"])
        #expect(
            try db.fetchAll("SELECT name FROM pragma_index_info('Project_name')") { $0.string(at: 0)! } == ["itemName"])
        let join = try #require(
            try db.fetchValue("SELECT sql FROM sqlite_master WHERE name = 'AllTypes_blob'", as: String.self))
        #expect(
            join == "CREATE TABLE AllTypes_blob (id Integer PRIMARY KEY AUTOINCREMENT, AllTypes_ID Integer, blob BLOB)")
        #expect(
            try db.fetchAll("SELECT name FROM pragma_index_info('AllTypes_blob_idx')") { $0.string(at: 0)! } == [
                "AllTypes_ID"
            ])
        // A keyword as column name is quoted.
        let allTypes = try #require(
            try db.fetchValue("SELECT sql FROM sqlite_master WHERE name = 'AllTypes'", as: String.self))
        #expect(allTypes.contains("\"order\" Real"))
    }

    @Test("a second manager on the same file changes nothing")
    func secondManager() throws {
        let database = try ManagerTestDatabase([Person.self, Project.self, AllTypes.self])
        let before = try database.schema()
        let person = Person("Ada", "Lovelace", age: 36, manager: database.manager)
        try person.save()
        _ = try database.reopen([Person.self, Project.self, AllTypes.self])
        #expect(try database.schema() == before)
        #expect(try database.reopen().count(of: "Person") == 1)
    }

    @Test("added properties become exactly their columns; removed ones keep theirs and the data")
    func migration() throws {
        let database = try ManagerTestDatabase([Version1.Gadget.self])
        let old = Version1.Gadget(dbManager: database.manager)
        old.name = "lamp"
        old.weight = 1.5
        old.obsolete = "kept"
        try old.save()
        let columnsBefore = try database.connection().fetchAll("SELECT name FROM pragma_table_info('Gadget')") {
            $0.string(at: 0)!
        }

        let manager = try database.reopen([Version2.Gadget.self])
        let columnsAfter = try database.connection().fetchAll("SELECT name FROM pragma_table_info('Gadget')") {
            $0.string(at: 0)!
        }
        #expect(columnsAfter == columnsBefore + ["color", "serialNumber"])
        #expect(try database.connection().fetchValue("SELECT obsolete FROM Gadget", as: String.self) == "kept")
        #expect(
            try database.connection().fetchAll("SELECT name FROM pragma_index_info('Gadget_serial')") {
                $0.string(at: 0)!
            }
                == ["serialNumber"])

        let migrated = try #require(try Version2.Gadget.instance(id: old.id, manager: manager))
        #expect(migrated.name == "lamp" && migrated.weight == 1.5)
        #expect(migrated.color == "none", "a NULL in a new column leaves the property's default")
        #expect(migrated.serial == 0, "the NOT NULL column was added with a default")
        migrated.color = "red"
        migrated.serial = 7
        try migrated.save()
        let again = try #require(try Version2.Gadget.instance(id: old.id, manager: try database.reopen()))
        #expect(again.color == "red" && again.serial == 7)
    }

    @Test("subclass chains merge into the runtime class's table")
    func inheritance() throws {
        let database = try ManagerTestDatabase([Pet.self])
        let columns = try database.connection().fetchAll("SELECT name FROM pragma_table_info('Pet')") {
            $0.string(at: 0)!
        }
        #expect(Set(columns) == ["id", "createdTime", "modifiedTime", "species", "legs", "fur", "name", "adopted"])
        let rex = Pet(dbManager: database.manager)
        rex.species = "dog"
        rex.legs = 4
        rex.furColor = "brown"
        rex.name = "Rex"
        try rex.save()
        let back = try #require(try Pet.instance(id: rex.id, manager: database.manager))
        #expect(back.species == "dog" && back.legs == 4 && back.furColor == "brown" && back.name == "Rex")
        // The unique index from Pet's indexer.
        let twin = Pet(dbManager: database.manager)
        twin.name = "Rex"
        #expect(throws: DBBError.self) { try twin.save() }
    }

    @Test("bad mappings are refused with errors naming the class and property")
    func badMappings() throws {
        let database = try ManagerTestDatabase()
        #expect {
            try database.manager.register([NoMapping.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidMapping && error.table == "NoMapping"
                && error.message.contains("addPersistenceMapping")
        }
        #expect {
            try database.manager.register([ClashingColumns.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidMapping && error.property == "b" && error.message.contains("'same'")
        }
        #expect {
            try database.manager.register([BadIndexer.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unknownProperty && error.property == "missing"
        }
        database.manager.addTableClasses([BadIndexer.self])
        #expect(database.manager.errorMessage().contains("missing"))
        #expect(try database.schema().isEmpty, "nothing was created")
    }
}
