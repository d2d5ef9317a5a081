import DBBBuilder
import Foundation

/// A support ticket: what the set-based write tests update and delete by condition. Its save
/// hook counts the saves that ran it, in a column, so a test sees whether a write ran it.
@DBBTable
final class Ticket: DBBTableObject {
    @Unique var code: String?
    var price = 0.0
    var views = 0
    var note: String?
    var stage: Stage = .draft
    var labels: [String] = []
    var assignee: Agent?
    var hookedSaves = 0

    override func willSave() throws { hookedSaves += 1 }
}

/// Refers to tickets through an array of references (join table `Agent_tickets`).
@DBBTable
final class Agent: DBBTableObject {
    var name = ""
    var tickets: [Ticket] = []
}

/// Closes every ticket from its save hook: a write by condition inside a save's transaction.
@DBBTable
final class Closer: DBBTableObject {
    @Unique var key: String?

    override func willSave() throws {
        try Ticket.update(.set(\.stage, to: .published), where: .all, manager: dbManager)
    }
}
