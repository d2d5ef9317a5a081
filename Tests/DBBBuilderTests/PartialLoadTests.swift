import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@DBBTable
final class PartialBook: DBBTableObject {
    var title = ""
    var price = 0.0
    var isbn: String?
    var rating: Double? = 2.5
    var tags: [String] = []

    /// Set to make the next save fail in its hook.
    @Transient var refuseSave = false

    override func willSave() throws {
        if refuseSave { throw CancellationError() }
    }
}

/// The same table, mapped by hand: its assignments cannot be seen.
final class HandPartialBook: DBBTableObject {
    override class var databaseTableName: String { "PartialBook" }
    var title = ""
    var price = 0.0
    var isbn: String?
    var rating: Double? = 2.5
    var tags: [String] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "title": DBBPropertyPersistence(\HandPartialBook.title),
                "price": DBBPropertyPersistence(\HandPartialBook.price),
                "isbn": DBBPropertyPersistence(\HandPartialBook.isbn),
                "rating": DBBPropertyPersistence(\HandPartialBook.rating),
                "tags": DBBPropertyPersistence(\HandPartialBook.tags),
            ], for: self)
    }
}

@Suite("Partial fetches: a property left out is written when the application sets it, to its default too")
struct PartialLoadTests {
    /// A database with one book, priced, numbered, rated and tagged; its id.
    private func bookDatabase(_ backend: Backend) throws -> (BackendDatabase, Int64)? {
        guard let db = try BackendDatabase(backend, [PartialBook.self]) else { return nil }
        let book = PartialBook(dbManager: db.manager)
        (book.title, book.price, book.isbn, book.rating, book.tags) = ("TAOCP", 190, "0-201", 5, ["classic"])
        try book.save()
        return (db, book.id)
    }

    private func stored(_ db: BackendDatabase, _ id: Int64) throws -> PartialBook {
        try #require(try PartialBook.instance(id: id, manager: db.manager))
    }

    @Test("an optional starts at its declared value, not nil", arguments: Backend.allCases)
    func optionalInitialValue(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [PartialBook.self]) else { return }
        let book = PartialBook(dbManager: db.manager)
        #expect(book.rating == 2.5)
        try book.save()
        #expect(try stored(db, book.id).rating == 2.5)
    }

    @Test("set to the default after a partial fetch: a change, written", arguments: Backend.allCases)
    func defaultsAreWritten(_ backend: Backend) throws {
        guard let (db, id) = try bookDatabase(backend) else { return }
        let book = try #require(
            try PartialBook.instances(matching: .options(properties: ["title"]), manager: db.manager).first)
        #expect(book.isPartiallyLoaded)
        #expect(book.unloadedPropertyNames == ["isbn", "price", "rating", "tags"])
        #expect(!book.hasChanges)
        (book.price, book.isbn) = (0, nil)
        #expect(book.changedPropertyNames == ["isbn", "price"])
        try book.save()
        let again = try stored(db, id)
        #expect(again.price == 0 && again.isbn == nil)
        #expect(again.rating == 5 && again.title == "TAOCP" && again.tags == ["classic"], "left alone")
        #expect(book.unloadedPropertyNames == ["rating", "tags"], "what the save wrote is loaded")
        #expect(!book.hasChanges)
    }

    @Test(
        "a save that sets nothing left out keeps the stored values; a later assignment is still seen",
        arguments: Backend.allCases)
    func untouchedStayStored(_ backend: Backend) throws {
        guard let (db, id) = try bookDatabase(backend) else { return }
        let book = try #require(
            try PartialBook.instances(matching: .options(properties: ["title"]), manager: db.manager).first)
        book.title = "TAOCP 1"
        try book.save()
        #expect(try stored(db, id).price == 190)
        #expect(book.unloadedPropertyNames == ["isbn", "price", "rating", "tags"])
        book.price = 0
        #expect(book.hasChanges)
        try book.save()
        let again = try stored(db, id)
        #expect(again.price == 0 && again.isbn == "0-201" && again.title == "TAOCP 1")
    }

    @Test("a join property left out and set to empty is cleared", arguments: Backend.allCases)
    func unloadedJoinSetEmpty(_ backend: Backend) throws {
        guard let (db, id) = try bookDatabase(backend) else { return }
        var options = DBBQueryOptions()
        options.joinPropertiesToPopulate = []
        let book = try #require(try PartialBook.instances(matching: options, manager: db.manager).first)
        #expect(book.unloadedPropertyNames == ["tags"])
        book.title = "renamed"
        try book.save()
        #expect(try stored(db, id).tags == ["classic"], "not set: kept")
        book.tags = []
        #expect(book.changedPropertyNames == ["tags"])
        try book.save()
        #expect(try stored(db, id).tags == [])
        #expect(!book.isPartiallyLoaded)
    }

    @Test("a sparse object: every property set is written, the others kept", arguments: Backend.allCases)
    func sparse(_ backend: Backend) throws {
        guard let (db, id) = try bookDatabase(backend) else { return }
        let book = try #require(try PartialBook.instance(id: id, manager: db.manager, sparsePopulation: true))
        #expect(book.unloadedPropertyNames == ["isbn", "price", "rating", "tags", "title"])
        book.rating = nil
        try book.save()
        let again = try stored(db, id)
        #expect(again.rating == nil && again.price == 190 && again.title == "TAOCP" && again.tags == ["classic"])
    }

    @Test("a save that fails keeps the assignment for the next one", arguments: Backend.allCases)
    func failedSaveKeepsMarks(_ backend: Backend) throws {
        guard let (db, id) = try bookDatabase(backend) else { return }
        let book = try #require(
            try PartialBook.instances(matching: .options(properties: ["title"]), manager: db.manager).first)
        book.price = 0
        book.refuseSave = true
        #expect(throws: CancellationError.self) { try book.save() }
        #expect(try stored(db, id).price == 190)
        #expect(book.changedPropertyNames == ["price"])
        book.refuseSave = false
        try book.save()
        #expect(try stored(db, id).price == 0)
    }

    @Test(
        "a class mapped by hand: a value other than the default is written, the default is not (documented)",
        arguments: Backend.allCases)
    func handMapped(_ backend: Backend) throws {
        guard let (db, id) = try bookDatabase(backend) else { return }
        let other = try db.reopen([HandPartialBook.self])
        let book = try #require(
            try HandPartialBook.instances(matching: .options(properties: ["title"]), manager: other).first)
        #expect(book.unloadedPropertyNames == ["isbn", "price", "rating", "tags"])
        (book.price, book.isbn) = (0, "0-202")
        #expect(book.changedPropertyNames == ["isbn"])
        try book.save()
        let again = try stored(db, id)
        #expect(again.isbn == "0-202" && again.price == 190)
    }
}
