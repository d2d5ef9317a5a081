import DBBBuilder
import Foundation

/// A booking: its init does more than map, so it stays, without the mapping.
final class Booking: DBBTableObject {
    enum Keys: String {
        case account
        case amount
        case booked = "booked"
    }

    var account: String
    var amount: Int
    var booked: Date?
    private(set) var openedBy: String
    var note: String?

    required init(dbManager: DBBManager) {
        account = "cash"
        amount = 0
        openedBy = "init"
        super.init(dbManager: dbManager)
        let map: [String: DBBPropertyPersistence] = [
            Keys.account.rawValue: DBBPropertyPersistence(\Booking.account, columnName: "acct"),
            Keys.amount.rawValue: DBBPropertyPersistence(\Booking.amount),
            Keys.booked.rawValue: DBBPropertyPersistence(\Booking.booked),
        ]
        // One booking per account and time.
        let index = DBBIndexer(columnsToIndex: [Keys.account.rawValue, Keys.booked.rawValue], unique: true)
        dbManager.addPersistenceMapping(map, for: self, indexer: index)
        openedBy = "init(dbManager:)"
    }
}
