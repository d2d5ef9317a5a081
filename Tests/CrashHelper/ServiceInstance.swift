import DBBBuilder
import DBBTestSupport
import Foundation

/// One "service instance" of the multi-process tests: random saves, deletes and unique-key
/// claims through its own manager, and the tally of what the database acknowledged.
struct ServiceInstance {
    let manager: DBBManager
    var random: SeededRandom

    init(manager: DBBManager, seed: UInt64) {
        self.manager = manager
        random = SeededRandom(seed: seed)
    }

    /// What this instance was told it wrote.
    struct Tally: Encodable {
        var created: [Int64] = []
        var deleted: [Int64] = []
        var claimed: [String] = []
        var lost = 0
    }

    private mutating func pick(_ bound: Int) -> Int { Int(random.next(upTo: UInt64(bound))) }

    mutating func run(_ operations: Int) throws {
        try manager.register([CrashCompany.self, CrashItem.self, CrashClaim.self])
        let company = CrashCompany(dbManager: manager)
        company.name = "instance \(getpid())"
        try company.save()
        var tally = Tally()
        var alive: [CrashItem] = []
        for _ in 0..<operations {
            switch pick(4) {
            case 0, 1:
                let items = (0..<(1 + pick(5))).map { _ in
                    let item = CrashItem(dbManager: manager)
                    (item.name, item.value, item.company) = ("from \(getpid())", pick(1000), company)
                    item.tags = (0..<pick(3)).map { "t\($0)" }
                    return item
                }
                try CrashItem.save(items, manager: manager)
                tally.created += items.map(\.id)
                alive += items
            case 2 where !alive.isEmpty:
                let item = alive.remove(at: pick(alive.count))
                try item.delete()
                tally.deleted.append(item.id)
            default:
                let claim = CrashClaim(dbManager: manager)
                (claim.key, claim.owner) = ("key \(pick(40))", "\(getpid())")
                do {
                    try claim.save()
                    tally.claimed.append(claim.key)
                } catch let error as DBBError where error.property == "key" {
                    tally.lost += 1  // another instance holds it: the UNIQUE constraint held
                }
            }
        }
        let json = try JSONEncoder().encode(tally)
        FileHandle.standardOutput.write(json + Data("\n".utf8))
    }
}
