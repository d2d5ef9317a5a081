// dbb-crash-helper: the other OS process of the multi-process tests.
//
//   dbb-crash-helper DATABASE COUNT            saves one batch of COUNT items with relations;
//                                              prints "saving", then "saved" once committed
//                                              (the crash-safety tests SIGKILL it meanwhile)
//   dbb-crash-helper open DATABASE [AT]        at AT (seconds since 1970, so that several
//                                              processes start together) opens with
//                                              DBBManager(databaseURL:), registers both
//                                              classes and saves one item; prints "ok"
//   dbb-crash-helper delete-company DATABASE ID
//                                              registers only CrashCompany and deletes one
//   dbb-crash-helper hold DATABASE             opens it with DBBManager (WAL), reads, prints
//                                              "holding" and keeps it open until standard
//                                              input ends
//   dbb-crash-helper hot-journal DATABASE      in rollback-journal mode, writes more than
//                                              its cache holds in one transaction and kills
//                                              itself with SIGKILL: a hot journal is left
//   dbb-crash-helper register DATABASE CLASS   registers one version of the Contact class
//                                              (ContactV1, ContactUniqueEmail, …); prints
//                                              "registered", or the error and exits with 1
//   dbb-crash-helper async-fetches URL COUNT [GATE-URL]
//   dbb-crash-helper async-saves URL COUNT [GATE-URL]
//                                              COUNT concurrent async fetches (or saves) on a
//                                              pool of 8 waiting on a locked table; prints the
//                                              threads they held as one JSON line
//                                              (AsyncFetches.swift)
//   dbb-crash-helper mixed-fetches URL        async fetches and synchronous ones from tasks
//                                              on a pool of one read connection; prints the
//                                              failures as one JSON line
//   dbb-crash-helper instance DATABASE SEED OPERATIONS [AT]
//                                              a service instance: at AT registers the
//                                              classes, then saves batches of items, deletes
//                                              some of its own and races the others for
//                                              unique keys; prints its tally as one JSON line
//
// DATABASE is a file path or a postgres:// URL (PostgreSQL) in the batch, open, register and
// instance forms.
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation

/// Fails the process with `message` on standard error.
func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(code)
}

/// A manager on a file path or a `postgres://` URL.
func manager(_ place: String) throws -> DBBManager {
    place.hasPrefix("postgres://") ? try postgresManager(place) : try DBBManager(url: URL(fileURLWithPath: place))
}

let arguments = CommandLine.arguments
let usage =
    "usage: dbb-crash-helper DATABASE COUNT | open DATABASE [AT] | delete-company DATABASE ID | hold DATABASE"
    + " | hot-journal DATABASE | register DATABASE CLASS | instance DATABASE SEED OPERATIONS [AT]"
    + " | async-fetches URL COUNT [GATE-URL] | async-saves URL COUNT [GATE-URL] | mixed-fetches URL"
do {
    switch arguments.dropFirst().first {
    case "open":
        guard arguments.count == 3 || arguments.count == 4 else { fail(usage, code: 2) }
        if arguments.count == 4, let start = Double(arguments[3]) {
            while Date().timeIntervalSince1970 < start { usleep(100) }
        }
        // DBBBuilder's form, which reports a failure only through errorMessage().
        let manager =
            arguments[2].hasPrefix("postgres://")
            ? try postgresManager(arguments[2])
            : DBBManager(databaseURL: URL(fileURLWithPath: arguments[2]))
        manager.addTableClasses([CrashCompany.self, CrashItem.self])
        let item = CrashItem(dbManager: manager)
        item.name = "opened by \(getpid())"
        guard manager.errorMessage().isEmpty, item.saveToDB() else { fail(manager.errorMessage()) }
        print("ok")
    case "delete-company":
        guard arguments.count == 4, let id = Int64(arguments[3]) else { fail(usage, code: 2) }
        let manager = try DBBManager(url: URL(fileURLWithPath: arguments[2]))
        try manager.register([CrashCompany.self])
        guard let company = try CrashCompany.instance(id: id, manager: manager) else { fail("no company \(id)") }
        try company.delete()
        print("deleted")
    case "hold":
        guard arguments.count == 3 else { fail(usage, code: 2) }
        let manager = try DBBManager(url: URL(fileURLWithPath: arguments[2]))
        try manager.register([CrashCompany.self])
        _ = try CrashCompany.all(manager: manager)
        FileHandle.standardOutput.write(Data("holding\n".utf8))
        _ = FileHandle.standardInput.readDataToEndOfFile()
        print("released")
    case "hot-journal":
        guard arguments.count == 3 else { fail(usage, code: 2) }
        var configuration = SQLiteConfiguration()
        configuration.journalMode = .delete
        let connection = try SQLiteConnection(path: arguments[2], configuration: configuration)
        try connection.execute("PRAGMA cache_size = 10")
        try connection.execute("CREATE TABLE IF NOT EXISTS filler (x BLOB)")
        try connection.execute("BEGIN")
        for _ in 0..<200 { try connection.execute("INSERT INTO filler VALUES (randomblob(4000))") }
        kill(getpid(), SIGKILL)
    case "register":
        guard arguments.count == 4, let version = contactVersions[arguments[3]] else { fail(usage, code: 2) }
        try manager(arguments[2]).register([version])
        print("registered")
    #if Postgres
    case "async-fetches", "async-saves":
        guard arguments.count == 4 || arguments.count == 5, let count = Int(arguments[3]) else { fail(usage, code: 2) }
        let tally = try AsyncFetches(
            place: arguments[2], count: count, gatePlace: arguments.count == 5 ? arguments[4] : nil,
            saves: arguments[1] == "async-saves"
        ).run()
        print(String(decoding: try JSONSerialization.data(withJSONObject: tally, options: .sortedKeys), as: UTF8.self))
    case "mixed-fetches":
        guard arguments.count == 3 else { fail(usage, code: 2) }
        let tally = try MixedFetches(place: arguments[2]).run()
        print(String(decoding: try JSONSerialization.data(withJSONObject: tally, options: .sortedKeys), as: UTF8.self))
    #endif
    case "instance":
        guard arguments.count == 5 || arguments.count == 6, let seed = UInt64(arguments[3]),
            let operations = Int(arguments[4])
        else { fail(usage, code: 2) }
        if arguments.count == 6, let start = Double(arguments[5]) {
            while Date().timeIntervalSince1970 < start { usleep(100) }
        }
        var instance = ServiceInstance(manager: try manager(arguments[2]), seed: seed)
        try instance.run(operations)
    default:
        guard arguments.count == 3, let count = Int(arguments[2]) else { fail(usage, code: 2) }
        let manager = try manager(arguments[1])
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
    }
} catch {
    fail("\(error)")
}
