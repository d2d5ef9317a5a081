import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Change tracking: a save writes only what changed")
struct ChangeTrackingTests {
    /// An order with products 1…3 saved; returns the database (`nil` when the backend is missing).
    private func orderWithProducts(_ backend: Backend) throws -> BackendDatabase? {
        guard let database = try BackendDatabase(backend, [Order.self]) else { return nil }
        let order = Order(dbManager: database.manager)
        order.note = "first"
        order.products = (1...3).map { Product("product \($0)", price: Double($0), manager: database.manager) }
        for product in order.products { product.tags = ["a", "b"] }
        try order.save()
        return database
    }

    @Test("saving an order does not write back an untouched copy of its products", arguments: Backend.allCases)
    func untouchedCopyIsNotWritten(_ backend: Backend) throws {
        guard let database = try orderWithProducts(backend) else { return }
        let manager = database.manager
        let order = try #require(try Order.all(manager: manager).first)
        let productID = order.products[1].id
        let tagRowsBefore = try database.values(#"SELECT "id" FROM "Product_tags" ORDER BY "id""#, as: Int64.self)

        let copy = try #require(try Product.instance(id: productID, manager: manager))
        copy.price = 99
        try copy.save()
        let modified = copy.modifiedTime

        order.note = "second"
        try order.save()
        let back = try #require(try Product.instance(id: productID, manager: manager))
        #expect(back.price == 99)
        #expect(back.modifiedTime == modified)
        #expect(try database.values(#"SELECT "id" FROM "Product_tags" ORDER BY "id""#, as: Int64.self) == tagRowsBefore)
        #expect(try Order.all(manager: manager).first?.note == "second")
    }

    @Test(
        "hasChanges, changedPropertyNames, and a save with nothing changed writes nothing", arguments: Backend.allCases)
    func changesAreTracked(_ backend: Backend) throws {
        guard let database = try orderWithProducts(backend) else { return }
        let manager = database.manager
        let fresh = Product("new", price: 1, manager: manager)
        #expect(fresh.hasChanges && fresh.changedPropertyNames == ["name", "price", "tags"])

        let order = try #require(try Order.all(manager: manager).first)
        #expect(!order.hasChanges && order.changedPropertyNames.isEmpty && !order.isDirty)
        let modified = order.modifiedTime
        let changesBefore = try database.rows(of: "Order_products")
        try order.save()
        #expect(try Order.all(manager: manager).first?.modifiedTime == modified)

        order.products.removeLast()
        #expect(order.changedPropertyNames == ["products"] && order.isDirty)
        order.note = "changed"
        #expect(order.changedPropertyNames == ["note", "products"])
        try order.save()
        #expect(!order.hasChanges)
        #expect(try database.rows(of: "Order_products") == changesBefore - 1)

        // makeDirty forces a write of an unchanged object; the mark is cleared by the save.
        let before = try #require(order.modifiedTime)
        Thread.sleep(forTimeInterval: 0.01)
        order.makeDirty(true)
        #expect(order.isDirty && !order.hasChanges)
        try order.save()
        #expect(!order.isDirty)
        #expect(try #require(try Order.all(manager: manager).first?.modifiedTime) > before)
    }

    @Test(
        "an update's changed values become the object's snapshot: objects of one fetch stay apart, a failed batch keeps them",
        arguments: Backend.allCases)
    func updatedSnapshots(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Product.self]) else { return }
        let manager = database.manager
        try Product.save((1...3).map { Product("p\($0)", price: Double($0), manager: manager) }, manager: manager)
        let products = try Product.all(manager: manager)  // one fetch: their snapshots lie side by side
        func stored() throws -> [String] {
            try Product.all(manager: try database.reopen([Product.self])).map { "\($0.name) \($0.price) \($0.tags)" }
        }

        products[0].price = 10
        try products[0].save()
        #expect(products.allSatisfy { !$0.hasChanges })
        products[1].price = 10  // the value products[0] now holds is still a change for products[1]
        #expect(products[1].changedPropertyNames == ["price"])
        products[0].price = 1  // the value first loaded is a change from the one saved
        #expect(products[0].changedPropertyNames == ["price"])
        products[0].name = "renamed"
        products[2].tags = ["x"]
        try Product.save(products, manager: manager)
        #expect(products.allSatisfy { !$0.hasChanges })
        #expect(try stored() == ["renamed 1.0 []", "p2 10.0 []", "p3 3.0 [\"x\"]"])

        // A batch that fails on its last object leaves every snapshot as it was.
        products[1].price = 20
        products[2].price = .nan
        #expect(throws: DBBError.self) { try Product.save(products, manager: manager) }
        #expect(products[1].changedPropertyNames == ["price"] && products[2].changedPropertyNames == ["price"])
        #expect(!products[0].hasChanges)
        #expect(try stored() == ["renamed 1.0 []", "p2 10.0 []", "p3 3.0 [\"x\"]"])
        products[2].price = 30
        try Product.save(products, manager: manager)
        #expect(products.allSatisfy { !$0.hasChanges })
        #expect(try stored() == ["renamed 1.0 []", "p2 20.0 []", "p3 30.0 [\"x\"]"])
        // Unchanged objects are not written again.
        let modified = products.map(\.modifiedTime)
        try Product.save(products, manager: manager)
        #expect(products.map(\.modifiedTime) == modified)
    }

    @Test(
        "text changed to other bytes that Swift's == calls equal (é and e + U+0301) is a change, and is saved",
        arguments: Backend.allCases)
    func canonicallyEquivalentText(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Product.self]) else { return }
        let product = Product("caf\u{E9}", price: 1, manager: database.manager)
        product.tags = ["caf\u{E9}"]
        try product.save()
        product.name = "cafe\u{301}"
        product.tags = ["cafe\u{301}"]
        #expect(product.name == "caf\u{E9}", "Swift's == takes them as equal")
        #expect(product.changedPropertyNames == ["name", "tags"])
        try product.save()
        #expect(!product.hasChanges)
        let back = try #require(try Product.instance(id: product.id, manager: try database.reopen([Product.self])))
        #expect(Array(back.name.utf8) == Array("cafe\u{301}".utf8))
        #expect(back.tags.map { Array($0.utf8) } == [Array("cafe\u{301}".utf8)])
        #expect(!back.hasChanges)
    }

    @Test("an update writes only the changed columns: another writer's column survives", arguments: Backend.allCases)
    func onlyChangedColumnsAreWritten(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Product.self]) else { return }
        let product = Product("pen", price: 1, manager: database.manager)
        try product.save()
        let mine = try #require(try Product.instance(id: product.id, manager: database.manager))
        let theirs = try #require(try Product.instance(id: product.id, manager: database.reopen([Product.self])))
        theirs.price = 7
        try theirs.save()
        mine.name = "fountain pen"
        try mine.save()
        let back = try #require(try Product.instance(id: product.id, manager: database.manager))
        #expect(back.name == "fountain pen" && back.price == 7)
    }

    @Test(
        "a partial or sparse fetch saved back keeps the columns and join rows it did not load",
        arguments: Backend.allCases)
    func partialFetchKeepsTheRest(_ backend: Backend) throws {
        guard let database = try orderWithProducts(backend) else { return }
        let manager = database.manager
        let partial = try #require(
            try Product.instances(
                matching: .options(properties: ["price"]), manager: manager
            ).first)
        partial.price = 42
        try partial.save()
        let sparse = try #require(
            try Product.instances(matching: DBBQueryOptions(), manager: manager, sparsePopulation: true).last)
        try sparse.save()
        let products = try Product.all(manager: manager)
        #expect(products.map(\.name) == ["product 1", "product 2", "product 3"])
        #expect(products.map(\.price) == [42, 2, 3])
        #expect(products.allSatisfy { $0.tags == ["a", "b"] })
    }
}
