#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// `ContactV1`'s table, saved with a hook that holds the save's transaction open: the row
/// before the holder is written and not yet committed.
final class HeldContact: ContactVersion {
    /// Signalled once the holder's hook runs; the hook then waits for `release` (120 s at most).
    nonisolated(unsafe) static var inside = DispatchSemaphore(value: 0)
    nonisolated(unsafe) static var release = DispatchSemaphore(value: 0)

    override func willSave() throws {
        guard email == "holder" else { return }
        // A read from the hook sees the rows the save holds, so they are written first (a
        // set-based save writes them when it ends, or when a hook uses the database).
        _ = try HeldContact.all(manager: dbManager)
        Self.inside.signal()
        _ = Self.release.wait(timeout: .now() + 120)
    }
}

/// Long names: PostgreSQL keeps 63 bytes of a name.
class LongNamedVersion: DBBTableObject {
    override class var databaseTableName: String { "CustomerNotificationPreferences" }
    var secondaryContactEmailAddressForWork = ""
    var secondaryContactEmailAddressForHome = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "secondaryContactEmailAddressForWork": DBBPropertyPersistence(
                    \LongNamedVersion.secondaryContactEmailAddressForWork),
                "secondaryContactEmailAddressForHome": DBBPropertyPersistence(
                    \LongNamedVersion.secondaryContactEmailAddressForHome),
            ], for: self)
    }
}

final class LongNamedV1: LongNamedVersion {}

final class LongNamedUnique: LongNamedVersion {
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = [
            "secondaryContactEmailAddressForWork": .unique, "secondaryContactEmailAddressForHome": .unique,
        ]
    }
}

/// A table name of 70 bytes, which PostgreSQL would cut to 63.
final class OverlongName: DBBTableObject {
    override class var databaseTableName: String {
        "CustomerNotificationPreferencesForEveryDepartmentAndRegionOfTheWorld"
    }
    var name = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\OverlongName.name)], for: self)
    }
}

@Suite("Constraints added on PostgreSQL: against concurrent writes, and with long names")
struct ConstraintRaceTests {
    @Test("a duplicate another session is inserting is waited for and counted: migrationRefused, not a server error")
    func uncommittedDuplicate() throws {
        guard let database = try BackendDatabase(.postgresql, [HeldContact.self]) else { return }
        let first = HeldContact(dbManager: database.manager)
        (first.email, first.code) = ("a", 1)
        try first.save()
        HeldContact.inside = DispatchSemaphore(value: 0)
        HeldContact.release = DispatchSemaphore(value: 0)
        let saved = DispatchSemaphore(value: 0)
        let batch = [("a", 2), ("holder", 3)].map { email, code in
            let contact = HeldContact(dbManager: database.manager)
            (contact.email, contact.code) = (email, code)
            return contact
        }
        nonisolated(unsafe) let held = batch
        let manager = database.manager
        Thread {
            _ = try? HeldContact.save(held, manager: manager)
            saved.signal()
        }.start()
        #expect(HeldContact.inside.wait(timeout: .now() + 120) == .success, "the batch is inside its transaction")

        let outcome = Mutex<Result<DBBManager, any Error>?>(nil)
        let registered = DispatchSemaphore(value: 0)
        let place = database.place
        Thread {
            let result = Result { () throws -> DBBManager in
                let other = try DBBManager(postgres: place)
                try other.register([ContactUniqueEmail.self])
                return other
            }
            outcome.withLock { $0 = result }
            registered.signal()
        }.start()
        // The registration's concurrent build of the unique index waits for the batch's
        // transaction, then meets its duplicate.
        try ReplicaTests.waitUntil("the registration waits for the batch") {
            try database.manager.query(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    + "AND datname = current_database() AND query LIKE 'CREATE UNIQUE INDEX CONCURRENTLY%'"
            )[0].decode(Int.self, at: 0) == 1
        }
        HeldContact.release.signal()
        #expect(saved.wait(timeout: .now() + 120) == .success)
        #expect(registered.wait(timeout: .now() + 120) == .success)
        let result = try #require(outcome.withLock { $0 })
        let error = try #require(throws: DBBError.self) { try result.get() }
        #expect(error.kind == .migrationRefused && error.message.contains("'a'"), "\(error)")
    }

    @Test("two long column names get unique indexes of their own, which duplicates meet and removal lifts")
    func longNames() throws {
        guard let database = try BackendDatabase(.postgresql, [LongNamedV1.self]) else { return }
        let strict = try database.reopen([LongNamedUnique.self])
        #expect(try database.indexes(of: "CustomerNotificationPreferences").count == 2)
        for (work, home) in [("w", "h"), ("w", "other"), ("other", "h")] {
            let row = LongNamedUnique(dbManager: strict)
            (row.secondaryContactEmailAddressForWork, row.secondaryContactEmailAddressForHome) = (work, home)
            if work == "w" && home == "h" {
                try row.save()
            } else {
                #expect(throws: DBBError.self, "\(work) \(home)") { try row.save() }
            }
        }
        _ = try database.reopen([LongNamedV1.self])
        #expect(try database.indexes(of: "CustomerNotificationPreferences").isEmpty)
    }

    @Test("a name longer than PostgreSQL keeps (63 bytes) is refused at registration, naming it")
    func overlongName() throws {
        guard let database = try BackendDatabase(.postgresql) else { return }
        let error = try #require(throws: DBBError.self) { try database.manager.register([OverlongName.self]) }
        #expect(error.kind == .invalidMapping && error.message.contains("63"), "\(error)")
        #expect(try !database.tables().contains { $0.hasPrefix("CustomerNotification") })
    }
}
#endif
