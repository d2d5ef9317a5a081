import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// `errorMessage()` reports the last DBBBuilder-style operation, as FMDB's `lastErrorMessage()` did.
@Suite("errorMessage() reports the last operation")
struct ErrorMessageTests {
    @Test("fail, then succeed: errorMessage() is empty again")
    func successClears() throws {
        let database = try ManagerTestDatabase([Person.self])
        let manager = database.manager
        #expect(Person.instancesWithOptions(.options(sortColumns: ["nope"]), manager: manager) == nil)
        #expect(manager.errorMessage().contains("nope") && manager.lastError?.kind == .unknownProperty)
        #expect(Person.allInstances(manager: manager).isEmpty)
        #expect(manager.errorMessage() == "" && manager.lastError == nil)

        let unnamed = Person(dbManager: manager)
        unnamed.firstName = nil  // NOT NULL
        #expect(!unnamed.saveToDB())
        #expect(manager.lastError?.property == "firstName")
        unnamed.firstName = "Ann"
        #expect(unnamed.saveToDB())
        #expect(manager.errorMessage() == "")
        #expect(manager.countForTable("NoSuchTable") == 0)
        #expect(manager.errorMessage().contains("NoSuchTable"))
        #expect(manager.countForTable("Person") == 1)
        #expect(manager.errorMessage() == "")
    }

    @Test("the throwing forms leave it alone: their errors belong to their caller")
    func throwingFormsDoNotTouchIt() throws {
        let database = try ManagerTestDatabase([Person.self])
        let manager = database.manager
        _ = Person.instancesWithOptions(.options(sortColumns: ["nope"]), manager: manager)
        _ = try Person.all(manager: manager)
        #expect(manager.errorMessage().contains("nope"))
        #expect(throws: DBBError.self) {
            try Person.instances(matching: .options(sortColumns: ["other"]), manager: manager)
        }
        #expect(manager.errorMessage().contains("nope"))
    }

    @Test("with two threads, the operation that finished last decides, whichever thread asks")
    func twoThreads() throws {
        let database = try ManagerTestDatabase([Person.self])
        let manager = database.manager
        let fail: @Sendable () -> Void = {
            _ = Person.instancesWithOptions(.options(sortColumns: ["nope"]), manager: manager)
        }
        let succeed: @Sendable () -> Void = { _ = Person.allInstances(manager: manager) }
        for (first, second, expectError) in [(fail, succeed, false), (succeed, fail, true)] {
            onOtherThread(first)
            onOtherThread(second)
            #expect(manager.errorMessage().isEmpty == !expectError)
        }
    }

    /// Runs `body` on a new thread and waits for it.
    private func onOtherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        done.wait()
    }
}
