import DBBBuilder
import Foundation

/// A `String` enum, stored as its raw value.
enum Stage: String, Codable {
    case draft, review, published
}

/// An `Int` enum, stored as its raw value.
enum Urgency: Int {
    case low = 1
    case normal = 5
    case urgent = 10
}

/// A value stored as JSON.
struct Address: Codable, Equatable {
    var street: String
    var city: String
    var zip: Int?
    var lines: [String] = []
    var rating = 0.0
}

/// Every value type of the "Value types" section, through `@DBBTable`: plain, optional, in
/// arrays, and as JSON.
@DBBTable
final class Voucher: DBBTableObject {
    var amount: Decimal = 0
    var fee: Decimal?
    var token = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
    var reference: UUID?
    var home = URL(string: "https://example.com/")!
    var link: URL?
    var stage: Stage = .draft
    var previous: Stage?
    var urgency: Urgency = .normal
    var tokens: [UUID] = []
    var stages: [Stage] = []
    var prices: [Decimal] = []
    var links: [URL]?
    @JSON var address = Address(street: "", city: "")
    @JSON var alternates: [Address]?
    @JSON var counts: [String: Int] = [:]
}

/// The same kinds of property mapped by hand, as a DBBBuilder port writes them.
final class HandVoucher: DBBTableObject {
    var amount: Decimal = 0
    var token: UUID?
    var link = URL(string: "https://example.com/")!
    var stage: Stage = .draft
    var previous: Stage?
    var stages: [Stage]?
    var urgencies: [Urgency] = []
    var address: Address?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "amount": DBBPropertyPersistence(\HandVoucher.amount),
                "token": DBBPropertyPersistence(\HandVoucher.token),
                "link": DBBPropertyPersistence(\HandVoucher.link),
                "stage": DBBPropertyPersistence(\HandVoucher.stage),
                "previous": DBBPropertyPersistence(\HandVoucher.previous),
                "stages": DBBPropertyPersistence(\HandVoucher.stages),
                "urgencies": DBBPropertyPersistence(\HandVoucher.urgencies),
                "address": DBBPropertyPersistence(json: \HandVoucher.address),
            ], for: self)
    }
}

/// A class whose property was a `String`, before it became an enum (`Relabeled.stage`).
@DBBTable(tableName: "Relabeled")
final class RenamedBefore: DBBTableObject {
    var stage = ""
}

/// The same table, its property now an enum of the same raw values.
@DBBTable(tableName: "Relabeled")
final class RenamedAfter: DBBTableObject {
    var stage: Stage = .draft
}

/// A value whose JSON encoding fails when asked to.
struct Fragile: Codable, Equatable {
    var text = ""
    var fails = false

    struct Refused: Error {}

    func encode(to encoder: any Encoder) throws {
        if fails { throw Refused() }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    init(text: String = "", fails: Bool = false) { (self.text, self.fails) = (text, fails) }

    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }
}

@DBBTable
final class Parcel: DBBTableObject {
    @JSON var content = Fragile()
    var weight: Decimal?
}

/// A class whose amount was text (`Priced.amount`), before it became a `Decimal`.
@DBBTable(tableName: "Priced")
final class PricedBefore: DBBTableObject {
    var amount = ""
}

/// The same table, its amount now a `Decimal`.
@DBBTable(tableName: "Priced")
final class PricedAfter: DBBTableObject {
    var amount: Decimal = 0
}
