import DBBBackendTestSupport
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
    let pipes = [process.standardOutput, process.standardError].compactMap { $0 as? Pipe }
    return String(decoding: ChildOutput.collect(process, pipes).data.reduce(Data(), +), as: UTF8.self)
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
        #expect(waitForExit(deleting) == 0, "\(output(deleting))")
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
                #expect(waitForExit(process) == 0, "trial \(trial): \(output(process))")
            }
            #expect(try SQLiteConnection(path: path).fetchValue("SELECT count(*) FROM CrashItem", as: Int.self) == 3)
        }
    }

    @Test(
        "a later version registered by another process applies its constraints, or is refused naming the rows in the way",
        arguments: Backend.allCases)
    func constraintsFromAnotherProcess(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ContactV1.self]) else { return }
        let manager = database.manager
        for (code, email) in ["a", "b", "b"].enumerated() {
            let contact = ContactV1(dbManager: manager)
            (contact.email, contact.code) = (email, code)
            try contact.save()
        }
        let schema = try database.layout()
        func register(_ version: String) throws -> (status: Int32, output: String) {
            let process = try runHelper(["register", database.place, version])
            let text = output(process)
            return (waitForExit(process), text)
        }
        let unique = try register("ContactUniqueEmail")
        #expect(unique.status == 1 && unique.output.contains("ContactUniqueEmail.email"), "\(unique.output)")
        #expect(unique.output.contains("'b'") && unique.output.contains("2 rows"), "\(unique.output)")
        let required = try register("ContactRequiredNote")
        #expect(required.status == 1 && required.output.contains("3 row(s)"), "\(required.output)")
        #expect(try database.layout() == schema, "nothing changed")

        try manager.execute(#"DELETE FROM "Contact" WHERE "code" = 2"#)
        #expect(try register("ContactUniqueEmail").status == 0)
        try manager.execute(#"UPDATE "Contact" SET "note" = 'n'"#)
        // Both constraints (the last class registered decides: ContactRequiredNote alone would
        // lift the UNIQUE it does not declare).
        #expect(try register("ContactStrict").status == 0)
        // This process's manager, of version 1 and opened before, now meets both constraints.
        let duplicate = ContactV1(dbManager: manager)
        (duplicate.email, duplicate.note, duplicate.code) = ("a", "n", 7)
        #expect(throws: DBBError.self) { try duplicate.save() }
        let noNote = ContactV1(dbManager: manager)
        (noNote.email, noNote.code) = ("new", 8)
        #expect(throws: DBBError.self) { try noNote.save() }
        noNote.note = "given"
        try noNote.save()
        #expect(try ContactV1.all(manager: manager).map(\.email) == ["a", "b", "new"])
    }
}
