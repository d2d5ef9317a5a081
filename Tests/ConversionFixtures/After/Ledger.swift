import DBBBuilder
import Foundation

/// A booking: its init does more than map, so it stays, without the mapping.
@DBBTable(indexes: [DBBIndexer(columnsToIndex: ["account", "booked"], unique: true)])
final class Booking: DBBTableObject {
    enum Keys: String {
        case account
        case amount
        case booked = "booked"
    }

    @Column("acct") var account: String
    var amount: Int
    var booked: Date?
    @Transient private(set) var openedBy: String
    @Transient var note: String?

    required init(dbManager: DBBManager) {
        account = "cash"
        amount = 0
        openedBy = "init"
        super.init(dbManager: dbManager)
        // One booking per account and time.
        openedBy = "init(dbManager:)"
    }
}
