import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@Suite("save(ifModifiedTimeIs:): an optimistic lock tested in the UPDATE")
struct ConditionalSaveTests {
    @Test(
        "the first of two managers that read the same row wins; the second is refused and writes nothing",
        arguments: Backend.allCases)
    func secondWriterRefused(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Order.self]) else { return }
        let other = try db.reopen([Order.self])
        let order = Order(dbManager: db.manager)
        order.note = "first"
        try order.save()
        let mine = try #require(try Order.instance(id: order.id, manager: db.manager))
        let theirs = try #require(try Order.instance(id: order.id, manager: other))
        let seen = try #require(mine.modifiedTime)
        #expect(theirs.modifiedTime == seen)

        theirs.note = "theirs"
        try theirs.save(ifModifiedTimeIs: seen)
        mine.note = "mine"
        #expect {
            try mine.save(ifModifiedTimeIs: seen)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .rowChanged && error.table == "Order" && error.rowID == order.id
        }
        // Nothing of the refused save landed, and the object keeps its change to retry.
        #expect(try Order.instance(id: order.id, manager: db.manager)?.note == "theirs")
        #expect(mine.modifiedTime == seen && mine.hasChanges)
        // With the current time it goes through.
        let current = try #require(try Order.instance(id: order.id, manager: db.manager)?.modifiedTime)
        try mine.save(ifModifiedTimeIs: current)
        #expect(try Order.instance(id: order.id, manager: other)?.note == "mine")
    }

    @Test("an unchanged object's row is still written, so a stale time is refused", arguments: Backend.allCases)
    func unchangedObjectIsChecked(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Order.self]) else { return }
        let order = Order(dbManager: db.manager)
        try order.save()
        let stale = try #require(order.modifiedTime)
        try db.manager.execute(#"UPDATE "Order" SET "note" = 'raw', "modifiedTime" = "modifiedTime" - 1"#)
        let copy = try #require(try Order.instance(id: order.id, manager: db.manager))
        #expect(throws: DBBError.self) { try copy.save(ifModifiedTimeIs: stale) }
        let fresh = try #require(copy.modifiedTime)
        try copy.save(ifModifiedTimeIs: fresh)
        #expect(try #require(copy.modifiedTime) > fresh)
    }

    @Test("a deleted row is rowNotFound, a new object invalidOption", arguments: Backend.allCases)
    func goneAndNew(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Order.self]) else { return }
        let order = Order(dbManager: db.manager)
        try order.save()
        let seen = try #require(order.modifiedTime)
        try Order.delete(ids: [order.id], manager: db.manager)
        #expect {
            try order.save(ifModifiedTimeIs: seen)
        } throws: { error in (error as? DBBError)?.kind == .rowNotFound }
        #expect(try db.manager.count(of: "Order") == 0)
        #expect {
            try Order(dbManager: db.manager).save(ifModifiedTimeIs: seen)
        } throws: { error in (error as? DBBError)?.kind == .invalidOption }
        #expect(try db.manager.count(of: "Order") == 0)
    }

    @Test("of eight tasks on two managers racing with the same time, exactly one lands", arguments: Backend.allCases)
    func race(_ backend: Backend) async throws {
        guard let db = try BackendDatabase(backend, [Clerk.self]) else { return }
        let managers = [db.manager, try db.reopen([Clerk.self])]
        let clerk = Clerk("start", manager: db.manager)
        try await clerk.save()
        let (id, seen) = (clerk.id, try #require(clerk.modifiedTime))
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                let manager = managers[index % 2]
                group.addTask {
                    guard let copy = try await Clerk.instance(id: id, manager: manager) else { return false }
                    copy.name = "writer \(index)"
                    do {
                        try await copy.save(ifModifiedTimeIs: seen)
                        return true
                    } catch let error as DBBError where error.kind == .rowChanged {
                        return false
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await Clerk.instance(id: id, manager: db.manager)?.name.hasPrefix("writer ") == true)
    }
}

@Suite("delete(ifModifiedTimeIs:): a delete refused when the row was written since")
struct ConditionalDeleteTests {
    @Test("a stale delete is refused and the row stays; a current one deletes", arguments: Backend.allCases)
    func staleDeleteRefused(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Order.self]) else { return }
        let other = try db.reopen([Order.self])
        let order = Order(dbManager: db.manager)
        try order.save()
        let seen = try #require(order.modifiedTime)
        let theirs = try #require(try Order.instance(id: order.id, manager: other))
        theirs.note = "changed elsewhere"
        try theirs.save()
        #expect {
            try order.delete(ifModifiedTimeIs: seen)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .rowChanged && error.rowID == order.id && error.table == "Order"
        }
        #expect(!order.isDeleted)
        #expect(try Order.instance(id: order.id, manager: db.manager)?.note == "changed elsewhere")
        let fresh = try #require(try Order.instance(id: order.id, manager: db.manager))
        try fresh.delete(ifModifiedTimeIs: try #require(fresh.modifiedTime))
        #expect(fresh.isDeleted)
        #expect(try db.manager.count(of: "Order") == 0)
        #expect {
            try fresh.delete(ifModifiedTimeIs: seen)
        } throws: { error in (error as? DBBError)?.kind == .rowNotFound }
        #expect {
            try Order(dbManager: db.manager).delete(ifModifiedTimeIs: seen)
        } throws: { error in (error as? DBBError)?.kind == .invalidOption }
    }
}
