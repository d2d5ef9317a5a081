import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Save hooks that save, fetch and refuse")
struct HookTests {
    @Test("a pre-save hook's saves and fetches join the save's transaction", arguments: Backend.allCases)
    func hookSaves(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [AuditedNote.self, AuditEntry.self]) else { return }
        let note = AuditedNote(dbManager: database.manager)
        note.text = "one"
        try note.save()
        note.text = "two"
        try note.save()
        #expect(note.hookErrors.isEmpty)
        let entries = try AuditEntry.all(manager: database.manager)
        #expect(entries.map(\.line) == ["saving one", "saving two"])
        #expect(entries.map(\.earlier) == [0, 1])
    }

    @Test("when the outer save fails, the hook's saves are undone and their objects put back", arguments: Backend.allCases)
    func outerFailureUndoesHookSaves(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [AuditedNote.self, AuditEntry.self, Person.self]) else { return }
        let good = AuditedNote(dbManager: database.manager)
        good.text = "good"
        let refused = AuditedNote(dbManager: database.manager)
        (refused.text, refused.refuse) = ("bad", true)
        #expect(throws: RefusedForTest.self) { try AuditedNote.save([good, refused], manager: database.manager) }
        #expect(good.id == 0 && refused.id == 0 && good.createdTime == nil)
        #expect(try database.manager.count(of: "AuditEntry") == 0 && database.manager.count(of: "AuditedNote") == 0)
        #expect(!AuditedNote.saveObjects([refused], dbManager: database.manager))
        refused.refuse = false
        try AuditedNote.save([good, refused], manager: database.manager)
        #expect(try database.manager.count(of: "AuditEntry") == 2)
    }
}
