import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Names: custom columns, SQL keywords, misspellings and table names")
struct NamingTests {
    @Test("a property 'value' on column 'amount' does not break the library's own queries")
    func internalWordsAreNotRewritten() throws {
        let database = try ManagerTestDatabase([Ledger.self])
        let first = Ledger(dbManager: database.manager)
        first.value = 10
        first.entries = [1, 2]
        let second = Ledger(dbManager: database.manager)
        second.value = 20
        second.links = [first]
        try Ledger.save([first, second], manager: database.manager)

        let found = try Ledger.instances(ids: [second.id, first.id], manager: database.manager)
        #expect(found.map(\.value) == [20, 10])
        #expect(found[1].entries == [1, 2])
        #expect(found[0].links.map(\.id) == [first.id])
        found[0].value = 21
        try found[0].save()
        #expect(try Ledger.instance(id: second.id, manager: database.manager)?.links.map(\.id) == [first.id])
        #expect(try database.manager.count(of: "Ledger_links") == 1)
        var options = DBBQueryOptions.options(withConditions: ["value > ?"])
        options.arguments = [15]
        #expect(try Ledger.instances(matching: options, manager: database.manager).map(\.value) == [21])
    }

    @Test("properties named order, group, select, index work in conditions and sorting")
    func keywordProperties() throws {
        let database = try ManagerTestDatabase([Ledger.self])
        for n in 1...3 {
            let ledger = Ledger(dbManager: database.manager)
            (ledger.order, ledger.group, ledger.select, ledger.index) = (n, "g\(n % 2)", n == 2, Double(n) / 2)
            try ledger.save()
        }
        var options = DBBQueryOptions.options(
            withConditions: ["order >= ?", "group = 'g1'", "select = 0", "index < 2"],
            sortColumns: ["order"], ascendingSort: false)
        options.arguments = [1]
        #expect(try Ledger.instances(matching: options, manager: database.manager).map(\.order) == [3, 1])
        // A string literal holding a property name is data, not a column.
        let literal = DBBQueryOptions.options(withConditions: ["group = 'order'"])
        #expect(try Ledger.instances(matching: literal, manager: database.manager).isEmpty)
    }

    @Test("a misspelled or double-quoted unknown column is an error, not an empty result")
    func misspelledColumn() throws {
        let database = try ManagerTestDatabase([Person.self])
        try Person("Ada", "Lovelace", age: 36, manager: database.manager).save()
        for condition in ["\"nmae\" = ?", "nmae = ?"] {
            var options = DBBQueryOptions.options(withConditions: [condition])
            options.arguments = ["Ada"]
            #expect {
                try Person.instances(matching: options, manager: database.manager)
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .sqlite && error.message.contains("nmae")
            }
        }
        #expect(throws: SQLiteError.self) { try database.connection().execute("SELECT \"nmae\" FROM Person") }
    }

    @Test("two classes with one table name are refused, naming both; a declared table name resolves it")
    func sameShortName() throws {
        let database = try ManagerTestDatabase()
        try database.manager.register([Billing.Account.self])
        #expect {
            try database.manager.register([Auth.Account.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidMapping && error.message.contains("Billing.Account")
                && error.message.contains("Auth.Account") && error.message.contains("databaseTableName")
        }
        try database.manager.register([Auth.Renamed.Account.self])
        let login = Auth.Renamed.Account(dbManager: database.manager)
        login.login = "ada"
        try login.save()
        let balance = Billing.Account(dbManager: database.manager)
        balance.balance = 5
        try balance.save()
        #expect(try database.manager.count(of: "AuthAccount") == 1 && database.manager.count(of: "Account") == 1)
        #expect(Auth.Renamed.Account.tableName() == "AuthAccount" && login.shortName == "AuthAccount")
    }
}
