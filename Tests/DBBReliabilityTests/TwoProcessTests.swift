import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// Runs the helper to its end; its exit status and standard output and error.
private func runHelper(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = ScriptFixture.product("dbb-crash-helper")
    process.arguments = arguments
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    return process
}

private func output(_ process: Process) -> String {
    let out = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
    let err = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
    return String(decoding: out + err, as: UTF8.self)
}

@Suite("Two OS processes on one database")
struct TwoProcessTests {
    @Test("a process that registered only the referenced class deletes a row: the join rows that pointed at it go too")
    func joinRowsFollowDeletesElsewhere() throws {
        let database = try ManagerTestDatabase([CrashItem.self])
        let manager = database.manager
        let acme = CrashCompany(dbManager: manager)
        acme.name = "Acme"
        let item = CrashItem(dbManager: manager)
        (item.name, item.company, item.tags) = ("widget", acme, ["x"])
        try item.save()

        let deleting = try runHelper(["delete-company", database.url.path, "\(acme.id)"])
        deleting.waitUntilExit()
        #expect(deleting.terminationStatus == 0, "\(output(deleting))")
        #expect(try manager.count(of: "CrashItem_company") == 0)
        var options = DBBQueryOptions.options(withConditions: ["company IN (?)"])
        options.arguments = [.integer(acme.id)]
        #expect(try CrashItem.instances(matching: options, manager: manager).isEmpty)
        #expect(try CrashItem.instance(id: item.id, manager: manager)?.company == nil)

        // Raw SQL deletes too, on either side of the join table.
        try database.connection().execute("DELETE FROM CrashItem")
        #expect(try manager.count(of: "CrashItem_tags") == 0)
    }

    @Test("processes opening the same new database at once all succeed (20 trials)")
    func openTogether() throws {
        let directory = try TemporaryDirectory()
        for trial in 0..<20 {
            let path = directory.path("open\(trial).sqlite")
            if trial % 2 == 1 {
                // A rollback-journal file that already exists, as another tool made it.
                var configuration = SQLiteConfiguration()
                configuration.journalMode = .delete
                try SQLiteConnection(path: path, configuration: configuration).execute("CREATE TABLE other (x)")
            }
            // The processes wait for one instant, then open together.
            let start = Date().timeIntervalSince1970 + 0.3
            let processes = try (0..<3).map { _ in try runHelper(["open", path, "\(start)"]) }
            for process in processes {
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "trial \(trial): \(output(process))")
            }
            #expect(try SQLiteConnection(path: path).fetchValue("SELECT count(*) FROM CrashItem", as: Int.self) == 3)
        }
    }
}
