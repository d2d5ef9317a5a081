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

    @Test("a hook's save that failed leaves its object unsaved in the session: saving it again writes it",
          arguments: Backend.allCases)
    func failedNestedSaveCanBeRetried(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [LabelledNote.self, UniqueLabel.self]) else { return }
        let taken = UniqueLabel(dbManager: database.manager)
        taken.label = "draft"
        try taken.save()

        let note = LabelledNote(dbManager: database.manager)
        note.text = "first"
        note.pending = UniqueLabel(dbManager: database.manager)
        note.pending?.label = "draft"
        try note.save()

        #expect(note.attempts.count == 2)
        let refusal = try #require(note.attempts.first.flatMap { $0 as? DBBError })
        #expect([.sqlite, .server].contains(refusal.kind) && refusal.table == "UniqueLabel")
        #expect(note.attempts.count == 2 && note.attempts[1] == nil)
        let retried = try #require(note.pending)
        #expect(retried.id != 0 && retried.label == "draft (2)")
        #expect(try UniqueLabel.all(manager: database.manager).map(\.label).sorted() == ["draft", "draft (2)"])
    }
}

/// A label no two rows share.
final class UniqueLabel: DBBTableObject {
    var label = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["label": DBBPropertyPersistence(\UniqueLabel.label)], for: self)
        attributesDictionary = ["label": [.notNull, .unique]]
    }
}

/// Saves its pending label from its save hook; when that save fails, renames the label and
/// saves it again in the same hook. `attempts` holds each save's error, or `nil` for success.
final class LabelledNote: DBBTableObject {
    var text = ""
    nonisolated(unsafe) var pending: UniqueLabel?
    nonisolated(unsafe) var attempts: [Error?] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["text": DBBPropertyPersistence(\LabelledNote.text)], for: self)
    }

    override func performPreSaveActions() {
        guard let pending else { return }
        for attempt in 1...2 {
            if attempt > 1 { pending.label += " (\(attempt))" }
            do {
                try pending.save()
                attempts.append(nil)
                return
            } catch {
                attempts.append(error)
            }
        }
    }
}
