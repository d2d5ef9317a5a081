import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@Suite("Opening a file that cannot be, and dropping an index that is not there: errors that say what to change")
struct OpeningAndIndexTests {
    @Test(
        "dropping an index that does not exist is an error naming it; an existing one is dropped",
        arguments: Backend.allCases)
    func removeMissingIndex(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Project.self]) else { return }
        #expect {
            try db.manager.removeIndex(named: "Project_nmae")
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidOption && error.message.contains("'Project_nmae'")
                && error.message.contains("nothing was dropped") && !error.isRetryable
        }
        #expect(db.manager.dropIndex(named: "Project_nmae") == false)
        #expect(db.manager.errorMessage().contains("Project_nmae"))
        #expect(try db.indexes(of: "Project").contains("Project_name"))
        try db.manager.removeIndex(named: "Project_name")
        #expect(try !db.indexes(of: "Project").contains("Project_name"))
    }

    @Test("a missing folder, a file where the folder should be, a folder where the file should be")
    func unopenablePaths() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("plain.txt")
        try Data("x".utf8).write(to: file)
        let cases: [(URL, String)] = [
            (directory.url.appendingPathComponent("missing/db.sqlite"), "does not exist: create it first"),
            (file.appendingPathComponent("db.sqlite"), "is a file, not a folder"),
            (directory.url, "is a folder, not a database file"),
        ]
        for (url, words) in cases {
            #expect {
                try DBBManager(url: url)
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .unavailable && error.message.contains(words) && !error.isRetryable
                    && error.sqliteError?.code == .cantOpen
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("missing").path))
    }

    @Test("a read-only manager of a file that does not exist says so, and creates none")
    func readOnlyMissingFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("absent.sqlite")
        #expect {
            try DBBManager(url: url, readOnly: true)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unavailable && error.message.contains("no database file at")
                && error.message.contains("read-only manager creates none") && !error.isRetryable
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
