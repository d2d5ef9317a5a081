// dbb-crash-helper: saves one batch of objects with relations, for the crash-safety tests,
// which kill it with SIGKILL at random moments.
//
//   dbb-crash-helper DATABASE COUNT
//
// Prints "saving" when the batch starts and "saved" when it is committed.
import DBBBuilder
import Foundation

final class CrashCompany: DBBTableObject {
    var name = ""
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\CrashCompany.name)], for: self)
    }
}

final class CrashItem: DBBTableObject {
    var name = ""
    var value = 0
    var tags: [String] = []
    var company: CrashCompany?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping([
            "name": DBBPropertyPersistence(\CrashItem.name),
            "value": DBBPropertyPersistence(\CrashItem.value),
            "tags": DBBPropertyPersistence(\CrashItem.tags),
            "company": DBBPropertyPersistence(\CrashItem.company),
        ], for: self)
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: dbb-crash-helper DATABASE COUNT\n".utf8))
    exit(2)
}
do {
    let manager = try DBBManager(url: URL(fileURLWithPath: arguments[1]))
    try manager.register([CrashCompany.self, CrashItem.self])
    let companies = (0..<10).map { n -> CrashCompany in
        let company = CrashCompany(dbManager: manager)
        company.name = "company \(n)"
        return company
    }
    let items = (0..<count).map { n -> CrashItem in
        let item = CrashItem(dbManager: manager)
        item.name = "item \(n)"
        item.value = n
        item.tags = ["a\(n % 7)", "b\(n % 11)"]
        item.company = companies[n % 10]
        return item
    }
    FileHandle.standardOutput.write(Data("saving\n".utf8))
    try CrashItem.save(items, manager: manager)
    FileHandle.standardOutput.write(Data("saved\n".utf8))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
