import DBBBackendTestSupport
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

    @Test(
        "when the outer save fails, the hook's saves are undone and their objects put back", arguments: Backend.allCases
    )
    func outerFailureUndoesHookSaves(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [AuditedNote.self, AuditEntry.self, Person.self]) else {
            return
        }
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

    @Test(
        "a hook's save that failed leaves its object unsaved in the session: saving it again writes it",
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

    @Test(
        "a related object whose hook drops the only reference to it is still saved whole, then released",
        arguments: Backend.allCases)
    func hookDropsOnlyReference(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [PeerNote.self]) else { return }
        let manager = database.manager
        let owner = PeerNote("owner", manager: manager)
        weak var released: PeerNote?
        do {
            let orphan = PeerNote("orphan", manager: manager)
            orphan.tags = ["kept"]
            // The save holds the orphan only through the objects it writes: the hook takes away
            // the owner's reference, the last one outside the save.
            orphan.onWillSave = { _ in owner.peer = nil }
            owner.peer = orphan
            released = orphan
        }
        try owner.save()
        #expect(released == nil, "the orphan outlived the save")
        #expect(owner.peer == nil && !owner.hasChanges)
        let stored = try PeerNote.all(manager: manager).sorted { $0.text < $1.text }
        #expect(stored.map(\.text) == ["orphan", "owner"])
        #expect(stored.first?.tags == ["kept"] && stored.last?.peer == nil)
    }

    @Test(
        "a hook that changes an object this save met before, and saves it or not, gets the change written",
        arguments: Backend.allCases)
    func hookChangesObjectAlreadyMet(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [PeerNote.self]) else { return }
        let manager = database.manager
        let a = PeerNote("a", manager: manager)
        try a.save()
        func stored() throws -> PeerNote? {
            try PeerNote.instance(id: a.id, manager: try database.reopen([PeerNote.self]))
        }

        // Written already (its peer changed), then changed and saved by its new peer's hook.
        let b = PeerNote("b", manager: manager)
        b.onWillSave = { _ in
            a.text = "changed by b's hook"
            try a.save()
        }
        a.peer = b
        try a.save()
        #expect(!a.hasChanges)
        #expect(try stored()?.text == "changed by b's hook" && stored()?.peer?.id == b.id)

        // A join property changed by the hook while the save writes the related objects, not saved by it.
        let c = PeerNote("c", manager: manager)
        c.onWillSave = { _ in a.tags.append("from c's hook") }
        a.peer = c
        try a.save()
        #expect(!a.hasChanges)
        #expect(try stored()?.tags == ["from c's hook"] && stored()?.peer?.id == c.id)

        // Met with nothing to write, then changed and saved by a hook of the same batch.
        let d = PeerNote("d", manager: manager)
        d.onWillSave = { _ in
            a.text = "changed by d's hook"
            try a.save()
        }
        try PeerNote.save([a, d], manager: manager)
        #expect(!a.hasChanges)
        #expect(try stored()?.text == "changed by d's hook")

        // When the save fails after the hook's save, nothing of it stays, and the change stays to write.
        let e = PeerNote("e", manager: manager)
        e.onWillSave = { _ in
            a.text = "changed by e's hook"
            try a.save()
            throw RefusedForTest()
        }
        #expect(throws: RefusedForTest.self) { try PeerNote.save([a, e], manager: manager) }
        #expect(a.changedPropertyNames == ["text"])
        #expect(try stored()?.text == "changed by d's hook")
        e.onWillSave = nil
        try PeerNote.save([a, e], manager: manager)
        #expect(try stored()?.text == "changed by e's hook" && !a.hasChanges)

        // Hooks that save each other do not go round: each object is written once.
        let before = try manager.count(of: "PeerNote")
        let (x, y) = (PeerNote("x", manager: manager), PeerNote("y", manager: manager))
        x.onWillSave = { _ in try y.save() }
        y.onWillSave = { _ in try x.save() }
        try x.save()
        #expect(x.id != 0 && y.id != 0 && !x.hasChanges && !y.hasChanges)
        #expect(try manager.count(of: "PeerNote") == before + 2)
    }

    @Test(
        "an object a hook deleted is not marked deleted when the save rolls back: its row is back, and it saves",
        arguments: Backend.allCases)
    func hookDeletionRolledBack(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [DeletingNote.self]) else { return }
        let manager = database.manager
        let victim = DeletingNote(dbManager: manager)
        victim.text = "victim"
        try victim.save()
        let deleter = DeletingNote(dbManager: manager)
        deleter.victim = victim
        let refusing = DeletingNote(dbManager: manager)
        refusing.refuse = true
        #expect(throws: RefusedForTest.self) { try DeletingNote.save([deleter, refusing], manager: manager) }
        #expect(!victim.isDeleted)
        #expect(try DeletingNote.all(manager: manager).map(\.text) == ["victim"])
        victim.text = "kept"
        try victim.save()
        #expect(try DeletingNote.instance(id: victim.id, manager: manager)?.text == "kept")
        // Committed, the deletion holds: the object is marked and the row gone.
        refusing.refuse = false
        try DeletingNote.save([deleter, refusing], manager: manager)
        #expect(victim.isDeleted)
        #expect(try manager.count(of: "DeletingNote") == 2)
    }

    @Test(
        "a related object's hook that deletes the object whose save reached it: refused, rolled back, no join rows left",
        arguments: Backend.allCases)
    func hookDeletesOwnerMidSave(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [PeerNote.self]) else { return }
        let manager = database.manager
        let owner = PeerNote("owner", manager: manager)
        owner.tags = ["t"]
        let peer = PeerNote("peer", manager: manager)
        owner.peer = peer
        peer.onWillSave = { _ in try owner.delete() }
        #expect {
            try owner.save()
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .rowNotFound && error.table == "PeerNote"
                && error.message.contains("deleted by a save hook")
        }
        #expect(!owner.isDeleted && owner.id == 0 && peer.id == 0)
        for table in ["PeerNote", "PeerNote_peer", "PeerNote_tags"] {
            #expect(try manager.count(of: table) == 0, "\(table)")
        }
        peer.onWillSave = nil
        try owner.save()
        #expect(try PeerNote.all(manager: manager).count == 2)
    }

    @Test(
        "a hook's raw ROLLBACK, COMMIT or SAVEPOINT inside the save's transaction is refused: the batch stores all or nothing, as it reports",
        arguments: Backend.allCases)
    func hookTransactionControl(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [PeerNote.self]) else { return }
        let manager = database.manager
        for sql in ["ROLLBACK", "COMMIT", "ROLLBACK; BEGIN", "SELECT 1; COMMIT", "SAVEPOINT s", "END"] {
            let first = PeerNote("first", manager: manager)
            let second = PeerNote("second", manager: manager)
            second.onWillSave = { _ in try manager.execute(sql) }
            let error = #expect(throws: DBBError.self, "\(sql)") {
                try PeerNote.save([first, second], manager: manager)
            }
            #expect(
                error?.kind == .invalidOption && error?.message.contains("transaction control") == true,
                "\(sql): \(String(describing: error))")
            #expect(try manager.count(of: "PeerNote") == 0, "\(sql): nothing of the batch stored")
            // A query's form is refused the same way.
            second.onWillSave = { _ in _ = try manager.query("COMMIT") }
            #expect(throws: DBBError.self, "\(sql)") { try second.save() }
            #expect(try manager.count(of: "PeerNote") == 0)
        }
        let kept = PeerNote("kept", manager: manager)
        try kept.save()
        #expect(try PeerNote.all(manager: manager).map(\.text) == ["kept"])
    }

    @Test(
        "a hook that saves a reference to the new object being saved is refused by name, also when a row 0 exists",
        arguments: Backend.allCases)
    func referenceToObjectUnderSave(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [TracedNote.self, NoteLog.self]) else { return }
        let manager = database.manager
        for rowZero in [false, true] {
            if rowZero { try manager.execute(#"INSERT INTO "TracedNote" ("id", "text") VALUES (0, 'row zero')"#) }
            let note = TracedNote(dbManager: manager)
            note.text = "new"
            #expect {
                try note.save()
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .rowNotFound && error.table == "NoteLog" && error.property == "about"
                    && error.message.contains("no row yet")
            }
            #expect(note.id == 0)
            #expect(try manager.count(of: "NoteLog") == 0 && manager.count(of: "TracedNote") == (rowZero ? 1 : 0))
        }
        // Once the note has its row, the hook's reference to it is stored.
        let note = TracedNote(dbManager: manager)
        note.text = "saved first"
        note.logging = false
        try note.save()
        note.logging = true
        note.text = "changed"
        try note.save()
        let log = try #require(try NoteLog.all(manager: manager).first)
        #expect(log.about?.id == note.id && log.about?.text == "changed")
    }
}

/// Runs `onWillSave` from its pre-save hook.
final class PeerNote: DBBTableObject {
    var text = ""
    var tags: [String] = []
    var peer: PeerNote?
    nonisolated(unsafe) var onWillSave: ((PeerNote) throws -> Void)?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "text": DBBPropertyPersistence(\PeerNote.text),
                "tags": DBBPropertyPersistence(\PeerNote.tags),
                "peer": DBBPropertyPersistence(\PeerNote.peer),
            ], for: self)
    }

    convenience init(_ text: String, manager: DBBManager) {
        self.init(dbManager: manager)
        self.text = text
    }

    override func willSave() throws { try onWillSave?(self) }
}

/// Deletes `victim` from its pre-save hook, then refuses the save when `refuse`.
final class DeletingNote: DBBTableObject {
    var text = ""
    nonisolated(unsafe) var victim: DeletingNote?
    nonisolated(unsafe) var refuse = false

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["text": DBBPropertyPersistence(\DeletingNote.text)], for: self)
    }

    override func willSave() throws {
        if let victim { try victim.delete() }
        if refuse { throw RefusedForTest() }
    }
}

/// Saves a log entry referring to itself from its pre-save hook, when `logging`.
final class TracedNote: DBBTableObject {
    var text = ""
    nonisolated(unsafe) var logging = true

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["text": DBBPropertyPersistence(\TracedNote.text)], for: self)
    }

    override func willSave() throws {
        guard logging else { return }
        let log = NoteLog(dbManager: dbManager)
        log.about = self
        try log.save()
    }
}

final class NoteLog: DBBTableObject {
    var about: TracedNote?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["about": DBBPropertyPersistence(\NoteLog.about)], for: self)
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
