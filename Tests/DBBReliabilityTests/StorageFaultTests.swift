import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Root ignores file permissions, so read-only tests only mean something for other users.
let notRoot = getuid() != 0

@Suite("Storage faults: typed errors naming the file, original bytes untouched")
struct StorageFaultTests {
    /// A database of `count` shelves, in WAL mode, checkpointed into its main file and closed.
    private func makeShelves(_ directory: TemporaryDirectory, count: Int) throws -> URL {
        let url = directory.url.appendingPathComponent("shelves.sqlite")
        do {
            let manager = try DBBManager(url: url)
            try manager.register([Shelf.self])
            try Shelf.save(
                (0..<count).map { Shelf("shelf \($0) " + String(repeating: "x", count: 200), $0, manager: manager) },
                manager: manager)
            try manager.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return url
    }

    @Test("a file that is not a database, and a truncated database")
    func damagedFiles() throws {
        let directory = try TemporaryDirectory()
        let junk = try directory.write(Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37) }), to: "junk.sqlite")
        let junkBytes = try Data(contentsOf: URL(fileURLWithPath: junk))
        #expect {
            _ = try DBBManager(url: URL(fileURLWithPath: junk))
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unavailable && error.description.contains(junk)
                && error.sqliteError?.code == .notADatabase
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: junk)) == junkBytes)

        let url = try makeShelves(directory, count: 2_000)
        var bytes = try Data(contentsOf: url)
        #expect(bytes.count > 100_000)
        bytes = bytes.prefix(bytes.count / 2)
        try bytes.write(to: url)
        var failure: DBBError?
        do {
            let manager = try DBBManager(url: url)
            _ = try Shelf.all(manager: manager)
        } catch let error as DBBError {
            failure = error
        }
        let error = try #require(failure, "reading a truncated database fails")
        #expect([.corrupt, .notADatabase, .ioError].contains(error.sqliteError?.code), "\(error)")
        #expect(error.description.contains(url.path), "the error names the file: \(error)")
        #expect(try Data(contentsOf: url) == bytes, "the damaged file is left as it was")
    }

    @Test("a full disk (max_page_count): the batch fails with SQLITE_FULL and nothing stored is lost")
    func fullDisk() throws {
        let directory = try TemporaryDirectory()
        let url = try makeShelves(directory, count: 100)
        let manager = try DBBManager(url: url)
        let pages = try #require(try manager.query("PRAGMA page_count").first?[0]).description
        try manager.execute("PRAGMA max_page_count = \(Int(pages)! + 3)")
        let before = try Shelf.all(manager: manager).map(\.label)
        let batch = (0..<2_000).map { Shelf("new \($0) " + String(repeating: "y", count: 500), $0, manager: manager) }
        #expect {
            try Shelf.save(batch, manager: manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.sqliteError?.code == .full && error.table == "Shelf" && error.description.contains(url.path)
        }
        #expect(batch.allSatisfy { $0.id == 0 })
        #expect(try Shelf.all(manager: manager).map(\.label) == before)
        #expect(try manager.query("PRAGMA integrity_check").first?[0] == "ok")
        #expect(!Shelf.saveObjects(batch, dbManager: manager))
        #expect(manager.errorMessage().contains("full"))
    }

    @Test(
        "a read-only file: the manager is read-only, reads work, writes are refused naming the file",
        .enabled(if: notRoot, "root ignores file permissions"))
    func readOnlyFile() throws {
        let directory = try TemporaryDirectory()
        let url = try makeShelves(directory, count: 10)
        let bytes = try Data(contentsOf: url)
        chmod(url.path, 0o444)
        defer { chmod(url.path, 0o644) }
        let manager = try DBBManager(url: url)
        #expect(manager.isReadOnly)
        #expect(try Shelf.all(manager: manager).count == 10)
        #expect {
            try Shelf("new", 1, manager: manager).save()
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .readOnly && error.description.contains(url.path)
        }
        #expect {
            try manager.execute(#"DELETE FROM "Shelf""#)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.sqliteError?.code == .readOnly && error.description.contains(url.path)
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test(
        "a read-only folder: a new database cannot be created, and the error names it",
        .enabled(if: notRoot, "root ignores file permissions"))
    func readOnlyFolder() throws {
        let directory = try TemporaryDirectory()
        chmod(directory.url.path, 0o555)
        defer { chmod(directory.url.path, 0o755) }
        let url = directory.url.appendingPathComponent("new.sqlite")
        #expect {
            _ = try DBBManager(url: url)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unavailable && error.description.contains(url.path)
                && error.sqliteError?.code == .cantOpen
        }
    }
}
