import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Streaming fetch: forEachInstance holds one batch at a time")
struct StreamingFetchTests {
    /// `count` products `p0`, `p1`… priced 0, 1…, with tags, saved in `manager`.
    static func products(_ count: Int, _ manager: DBBManager) throws -> [Product] {
        let products = (0..<count).map { index in
            let product = Product("p\(index)", price: Double(index), manager: manager)
            product.tags = ["t\(index % 3)", "all"]
            return product
        }
        try Product.save(products, manager: manager)
        return products
    }

    @Test("visits what instances(matching:) returns, in its order, with join properties and the chosen properties only")
    func sameAsInstances() throws {
        let database = try ManagerTestDatabase([Product.self])
        _ = try Self.products(2_500, database.manager)
        var options = DBBQueryOptions.options(withConditions: ["price >= ?"], sortColumns: ["price DESC"])
        options.arguments = [.real(100)]
        let expected = try Product.instances(matching: options, manager: database.manager)
        var visited: [Product] = []
        try Product.forEachInstance(matching: options, manager: database.manager, batchSize: 333) { visited.append($0) }
        #expect(visited.map(\.id) == expected.map(\.id))
        #expect(visited.map(\.tags) == expected.map(\.tags))
        #expect(visited.first?.price == 2_499 && visited.count == 2_400)

        var partial = DBBQueryOptions.options(properties: ["name"])
        partial.sorting = ["name"]
        var names: [(String, Double, [String])] = []
        try Product.forEachInstance(matching: partial, manager: database.manager, batchSize: 1_000) {
            names.append(($0.name, $0.price, $0.tags))
        }
        #expect(names.count == 2_500 && names.map(\.0) == names.map(\.0).sorted())
        #expect(names.allSatisfy { $0.1 == 0 && $0.2.isEmpty }, "only name was loaded")
    }

    @Test("objects of earlier batches are released while the iteration goes on")
    func boundedMemory() throws {
        let database = try ManagerTestDatabase([Product.self])
        _ = try Self.products(1_000, database.manager)
        let reader = try database.reopen([Product.self])
        final class WeakBox { weak var object: Product? }
        var seen: [WeakBox] = []
        var aliveFromFirstBatch = -1
        try Product.forEachInstance(manager: reader, batchSize: 100) { product in
            let box = WeakBox()
            box.object = product
            seen.append(box)
            if seen.count == 350 { aliveFromFirstBatch = seen.prefix(100).filter { $0.object != nil }.count }
        }
        #expect(seen.count == 1_000)
        #expect(aliveFromFirstBatch == 0, "the first batch's objects were still alive during the fourth batch")
    }

    @Test("rows deleted or changed during the iteration are skipped or seen changed; rows added are not visited")
    func writesDuringTheIteration() throws {
        let database = try ManagerTestDatabase([Product.self])
        let manager = database.manager
        let products = try Self.products(300, manager)
        let other = try database.reopen([Product.self])
        var visited: [String: Double] = [:]
        try Product.forEachInstance(matching: .options(sortColumns: ["price"]), manager: manager, batchSize: 50) {
            product in
            visited[product.name] = product.price
            if product.name == "p10" {
                // Another manager (another connection) deletes one later row and changes another.
                try #require(try Product.instance(id: products[200].id, manager: other)).delete()
                let changed = try #require(try Product.instance(id: products[250].id, manager: other))
                changed.price = 2_500
                try changed.save()
                try Product("new", price: 1, manager: manager).save()
            }
        }
        #expect(visited.count == 299)
        #expect(visited["p200"] == nil && visited["p250"] == 2_500 && visited["new"] == nil)
    }

    @Test("a batch size below 1 is refused by name; an error in the body stops the iteration and comes out")
    func badInput() throws {
        let database = try ManagerTestDatabase([Product.self])
        _ = try Self.products(20, database.manager)
        let error = try #require(throws: DBBError.self) {
            try Product.forEachInstance(manager: database.manager, batchSize: 0) { _ in }
        }
        #expect(error.kind == .invalidOption && error.message.contains("batchSize is 0"))
        struct Stop: Error {}
        var count = 0
        #expect(throws: Stop.self) {
            try Product.forEachInstance(manager: database.manager, batchSize: 4) { _ in
                count += 1
                if count == 6 { throw Stop() }
            }
        }
        #expect(count == 6)
        let unknown = try #require(throws: DBBError.self) {
            try Product.forEachInstance(matching: .options(sortColumns: ["nonexistent"]), manager: database.manager) {
                _ in
            }
        }
        #expect(unknown.message.contains("nonexistent"))
    }

    @Test(
        "without a sorting: id order a batch at a time, conditions applied as each batch is read, no list of ids",
        arguments: Backend.allCases)
    func keysetWithoutSorting(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Product.self]) else { return }
        let manager = database.manager
        let products = try Self.products(40, manager)
        // Rows SQL wrote below the ids the library gives, zero and negative ones included.
        try manager.execute(
            #"INSERT INTO "Product" ("id", "name", "price") VALUES (-5, 'minus five', 7), (0, 'zero', 7)"#)
        let other = try database.reopen([Product.self])
        let traced = Locked<[String]>([])
        manager.trace { sql in if sql.hasPrefix("SELECT") { traced.withLock { $0.append(sql) } } }
        // An OR: the bounds must not bind to its second half only.
        var options = DBBQueryOptions.options(withConditions: ["price < ? OR name = ?"])
        options.arguments = [.real(20), .text("p39")]
        var visited: [String] = []
        try Product.forEachInstance(matching: options, manager: manager, batchSize: 6) { product in
            visited.append(product.name)
            if product.name == "p3" {
                // From another manager: a later row deleted, one changed to stop matching, one
                // changed to start matching, and a new matching row (above the highest id).
                try #require(try Product.instance(id: products[10].id, manager: other)).delete()
                let leaving = try #require(try Product.instance(id: products[11].id, manager: other))
                leaving.price = 1_000
                try leaving.save()
                let joining = try #require(try Product.instance(id: products[30].id, manager: other))
                joining.price = 1
                try joining.save()
                try Product("new", price: 1, manager: other).save()
            }
        }
        manager.trace(nil)
        // The rows, not the tags (which PostgreSQL reads within each batch's statement).
        let statements = traced.withLock { $0 }.filter { !$0.contains("Product_tags") || $0.contains("ARRAY(") }
        let expected =
            ["minus five", "zero"] + (0..<20).filter { $0 != 10 && $0 != 11 }.map { "p\($0)" } + ["p30", "p39"]
        #expect(visited == expected)
        // A check of the arguments (no rows) and one query for the highest id, then one a batch,
        // each with its limit: nothing holds the ids of the whole result.
        let batches = statements.filter { $0.contains("LIMIT 6") }
        #expect(batches.count == 4 && statements.count == batches.count + 2)
        #expect(statements.filter { $0.hasSuffix("LIMIT 0") }.count == 1)
        #expect(statements.allSatisfy { !$0.contains("json") }, "\(statements)")
    }

    @Test(
        "without a sorting: an empty table, a batch size that divides the rows, and a body that saves what it visits",
        arguments: Backend.allCases)
    func keysetEdges(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Product.self]) else { return }
        let manager = database.manager
        var count = 0
        try Product.forEachInstance(manager: manager, batchSize: 5) { _ in count += 1 }
        #expect(count == 0)
        _ = try Self.products(20, manager)
        var names: [String] = []
        try Product.forEachInstance(manager: manager, batchSize: 5) { product in
            names.append(product.name)
            product.price += 100
            try product.save()
            try Product("copy of \(product.name)", price: 0, manager: manager).save()
        }
        #expect(names == (0..<20).map { "p\($0)" })
        #expect(try Product.all(manager: manager).filter { $0.price >= 100 }.count == 20)
        #expect(try manager.count(of: "Product") == 40)
    }

    @Test(
        "without a sorting: arguments that do not match the placeholders are the error instances(matching:) gives",
        arguments: Backend.allCases)
    func keysetArgumentMismatch(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Product.self]) else { return }
        let manager = database.manager
        _ = try Self.products(10, manager)
        var tooFew = DBBQueryOptions.options(withConditions: ["price = ?", "OR", "name = ?"])
        tooFew.arguments = [.real(1)]
        var tooMany = DBBQueryOptions.options(withConditions: ["price = ?"])
        tooMany.arguments = [.real(1), .real(2)]
        var numbered = DBBQueryOptions.options(withConditions: ["price = ?2"])
        numbered.arguments = [.real(1)]
        for options in [tooFew, tooMany, numbered] {
            let expected = try #require(throws: DBBError.self) {
                try Product.instances(matching: options, manager: manager)
            }
            var visited = 0
            let streamed = try #require(throws: DBBError.self) {
                try Product.forEachInstance(matching: options, manager: manager, batchSize: 3) { _ in visited += 1 }
            }
            #expect(streamed.kind == expected.kind && visited == 0, "\(streamed)")
        }
    }
}
