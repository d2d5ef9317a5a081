import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

// MARK: - Models: one per way of writing the attributes

/// Attributes in their typed form.
final class Subscriber: DBBTableObject {
    var email: String?
    var name: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["email": [.notNull, .unique], "name": .notNull]
        dbManager.addPersistenceMapping(
            [
                "email": DBBPropertyPersistence(\Subscriber.email),
                "name": DBBPropertyPersistence(\Subscriber.name),
            ], for: self)
    }
}

/// Attributes as DBBBuilder code wrote them: its constants, joined as text.
final class LegacySubscriber: DBBTableObject {
    var email: String?
    var name: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = [
            "email": ColumnAttribute.notNull + " " + ColumnAttribute.unique, "name": ColumnAttribute.notNull,
        ]
        dbManager.addPersistenceMapping(
            [
                "email": DBBPropertyPersistence(\LegacySubscriber.email),
                "name": DBBPropertyPersistence(\LegacySubscriber.name),
            ], for: self)
    }
}

/// Attributes as a string literal, in any case and spacing.
final class TextSubscriber: DBBTableObject {
    var email: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["email": "unique  not null"]
        dbManager.addPersistenceMapping(["email": DBBPropertyPersistence(\TextSubscriber.email)], for: self)
    }
}

/// Text naming something other than the two supported constraints.
final class DefaultingSubscriber: DBBTableObject {
    var email: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["email": "NOT NULL DEFAULT 'x'"]
        dbManager.addPersistenceMapping(["email": DBBPropertyPersistence(\DefaultingSubscriber.email)], for: self)
    }
}

// MARK: - Tests

@Suite("Column attributes: a typed set, and DBBBuilder's text")
struct ColumnAttributesTests {
    /// The `CREATE TABLE` statement SQLite keeps for `table`.
    static func tableSQL(_ database: ManagerTestDatabase, _ table: String) throws -> String {
        try #require(
            try database.connection().fetchValue(
                "SELECT sql FROM sqlite_master WHERE name = '\(table)'", as: String.self))
    }

    /// Saves `object` and tells whether SQLite refused it with a constraint on `property`.
    static func refuses(_ object: DBBTableObject, property: String) -> Bool {
        do {
            try object.save()
            return false
        } catch let error as DBBError {
            return error.property == property && "\(error)".contains("constraint failed")
        } catch {
            return false
        }
    }

    @Test("[.notNull, .unique] puts both constraints into the real table, and SQLite enforces them")
    func typedSet() throws {
        let database = try ManagerTestDatabase([Subscriber.self])
        let sql = try Self.tableSQL(database, "Subscriber")
        #expect(sql.contains("email Text NOT NULL UNIQUE") && sql.contains("name Text NOT NULL"), "\(sql)")

        let ada = Subscriber(dbManager: database.manager)
        (ada.email, ada.name) = ("ada@example.org", "Ada")
        try ada.save()
        let twin = Subscriber(dbManager: database.manager)
        (twin.email, twin.name) = ("ada@example.org", "Ada's twin")
        #expect(Self.refuses(twin, property: "email"), "UNIQUE")
        let nameless = Subscriber(dbManager: database.manager)
        nameless.email = "nobody@example.org"
        #expect(Self.refuses(nameless, property: "name"), "NOT NULL")
        #expect(try database.connection().fetchValue("SELECT count(*) FROM Subscriber", as: Int.self) == 1)
    }

    @Test("DBBBuilder's text forms give the same table")
    func textForms() throws {
        let database = try ManagerTestDatabase([Subscriber.self, LegacySubscriber.self, TextSubscriber.self])
        let typed = try Self.tableSQL(database, "Subscriber")
        #expect(
            try Self.tableSQL(database, "LegacySubscriber")
                == typed.replacingOccurrences(of: "Subscriber", with: "LegacySubscriber"))
        #expect(try Self.tableSQL(database, "TextSubscriber").contains("email Text NOT NULL UNIQUE"))

        let first = TextSubscriber(dbManager: database.manager)
        first.email = "grace@example.org"
        try first.save()
        let second = TextSubscriber(dbManager: database.manager)
        second.email = "grace@example.org"
        #expect(Self.refuses(second, property: "email"))
        #expect(Self.refuses(TextSubscriber(dbManager: database.manager), property: "email"))
    }

    @Test("text is read without regard to case and spacing; anything else is refused at registration")
    func parsing() throws {
        #expect(ColumnAttributes(parsing: "NOT NULL UNIQUE") == [.notNull, .unique])
        #expect(ColumnAttributes(parsing: " unique\tNot   Null ") == [.notNull, .unique])
        #expect(ColumnAttributes(parsing: ColumnAttribute.notNull.description) == .notNull)
        #expect(ColumnAttributes(parsing: "") == [])
        #expect(
            ColumnAttributes(parsing: "NOT") == nil && ColumnAttributes(parsing: "NULL") == nil
                && ColumnAttributes(parsing: "CHECK (x > 0)") == nil)
        let both: ColumnAttributes = [.unique, .notNull]
        #expect(both.description == "NOT NULL UNIQUE")
        let literal: ColumnAttributes = "not null"
        #expect(literal == .notNull)

        let database = try ManagerTestDatabase()
        #expect {
            try database.manager.register([DefaultingSubscriber.self])
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidMapping && error.property == "email"
                && error.message.contains("NOT NULL and UNIQUE")
        }
        #expect(try !database.schema().joined().contains("DefaultingSubscriber"), "nothing was created")
    }
}
