import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// Another process's write lock on the file: the save waits the busy timeout, then fails as a
/// timeout that is safe to repeat, having stored nothing.
@Suite("A database another connection keeps locked")
struct BusyDatabaseTests {
    @Test(
        "a save that waited out the busy timeout is isTimeout and isRetryable; repeated once the lock is gone, it is stored"
    )
    func busyThenRetry() throws {
        let database = try ManagerTestDatabase([Person.self])
        try database.manager.execute("PRAGMA busy_timeout = 50")
        let other = try database.connection()
        try other.execute("BEGIN IMMEDIATE")

        let person = Person("Ann", "Lee", age: 30, manager: database.manager)
        let error = try #require(throws: DBBError.self) { try person.save() }
        #expect(error.sqliteError?.code == .busy, "\(error)")
        #expect(error.isTimeout && error.isRetryable, "\(error)")
        #expect(!error.isConnectionLost && !error.isConstraintViolation)
        #expect(person.id == 0, "the failed save gave the object no id")

        try other.execute("ROLLBACK")
        try person.save()
        #expect(try Person.all(manager: database.manager).map(\.firstName) == ["Ann"])
    }
}
