import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// A model written as dbb-codegen writes them: its own `Keys`, beside DBBTableObject's.
final class Note: DBBTableObject {
    enum Keys {
        static let text = "text"
    }

    var text = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping([Keys.text: DBBPropertyPersistence(\Note.text)], for: self)
    }

    /// Reaches both: its own `Keys` and DBBTableObject's.
    static func newest(manager: DBBManager) -> Note? {
        let options = DBBQueryOptions.options(
            withConditions: ["\(Keys.text) <> ''"],
            sortColumns: [DBBTableObject.Keys.id], ascendingSort: false)
        return instancesWithOptions(options, manager: manager)?.first as? Note
    }
}

@Suite("DBBBuilder names a port reaches for")
struct PortedNamesTests {
    @Test("DBBTableObject.Keys names the key columns, beside a subclass's own Keys")
    func keys() throws {
        #expect(
            [DBBTableObject.Keys.id, DBBTableObject.Keys.createdTime, DBBTableObject.Keys.modifiedTime]
                == ["id", "createdTime", "modifiedTime"])
        let database = try ManagerTestDatabase([Note.self])
        for text in ["a", "b", ""] {
            let note = Note(dbManager: database.manager)
            note.text = text
            try note.save()
        }
        #expect(Note.newest(manager: database.manager)?.text == "b")
        let byCreation = DBBQueryOptions.options(sortColumns: [DBBTableObject.Keys.createdTime, DBBTableObject.Keys.id])
        #expect(try Note.instances(matching: byCreation, manager: database.manager).map(\.text) == ["a", "b", ""])
        var byID = DBBQueryOptions.options(withConditions: ["\(DBBTableObject.Keys.id) = ?"])
        byID.arguments = [2]
        #expect(try Note.instances(matching: byID, manager: database.manager).map(\.text) == ["b"])
    }
}

/// The XDG variables are process-wide: these tests set them one at a time.
@Suite("Folder helpers: XDG data and config folders on Linux", .serialized)
struct FolderTests {
    /// Runs `body` with `$variable` set to `value` (unset for `nil`), restoring it after.
    private func with(_ variable: String, _ value: String?, _ body: () throws -> Void) throws {
        let saved = ProcessInfo.processInfo.environment[variable]
        defer { if let saved { setenv(variable, saved, 1) } else { unsetenv(variable) } }
        if let value { setenv(variable, value, 1) } else { unsetenv(variable) }
        try body()
    }

    #if !canImport(Darwin)
    @Test("documentsFolder is $XDG_DATA_HOME, else ~/.local/share; a relative value is ignored")
    func documentsFolder() throws {
        let home = FileManager.default.homeDirectoryForCurrentUser
        try with("XDG_DATA_HOME", "/srv/data") { #expect(DBBManager.documentsFolder.path == "/srv/data") }
        for ignored in [nil, "", "relative/data"] {
            try with("XDG_DATA_HOME", ignored) {
                #expect(
                    DBBManager.documentsFolder.standardizedFileURL
                        == home.appendingPathComponent(".local/share").standardizedFileURL)
            }
        }
    }

    // (Its fallback, ~/.config, is not tested: the call creates the folder, in the real home.)
    @Test("appSupportFolder(using:) is $XDG_CONFIG_HOME/<subFolders>, created")
    func appSupportFolder() throws {
        let directory = try TemporaryDirectory()
        try with("XDG_CONFIG_HOME", directory.url.path) {
            let folder = DBBManager.appSupportFolder(using: "MyApp/Databases")
            #expect(
                folder.standardizedFileURL.path
                    == directory.url.appendingPathComponent("MyApp/Databases").standardizedFileURL.path)
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }
    #endif

    @Test(
        "createDatabaseInDocumentsFolder and createDatabaseInAppSupportFolder open a file there with the classes registered"
    )
    func createDatabases() throws {
        let data = try TemporaryDirectory()
        let config = try TemporaryDirectory()
        try with("XDG_DATA_HOME", data.url.appendingPathComponent("new/data").path) {
            try with("XDG_CONFIG_HOME", config.url.path) {
                let documents = DBBManager.createDatabaseInDocumentsFolder(
                    named: "app.sqlite", tableClasses: [Note.self])
                #expect(documents.errorMessage() == "")
                let note = Note(dbManager: documents)
                note.text = "kept"
                #expect(note.saveToDB())
                #expect(
                    documents.databaseURL?.standardizedFileURL
                        == DBBManager.documentsFolder.appendingPathComponent("app.sqlite").standardizedFileURL)

                let support = DBBManager.createDatabaseInAppSupportFolder(
                    named: "app.sqlite", subFolders: "MyApp", with: [Note.self])
                #expect(support.errorMessage() == "" && Note.allInstances(manager: support).isEmpty)
                #expect(FileManager.default.fileExists(atPath: config.path("MyApp/app.sqlite")))
                let reopened = try DBBManager.inDocumentsFolder(named: "app.sqlite", tableClasses: [Note.self])
                #expect(try Note.all(manager: reopened).map(\.text) == ["kept"])
            }
        }
    }

    @Test(
        "bad names and sub-folders are typed errors naming them; the DBBBuilder forms report them by errorMessage()",
        arguments: [
            ("", "MyApp"), ("a/b.sqlite", "MyApp"), ("..", nil), ("app.sqlite", "../escape"), ("app.sqlite", "/etc"),
        ])
    func badNames(name: String, subFolders: String?) throws {
        let config = try TemporaryDirectory()
        try with("XDG_CONFIG_HOME", config.url.path) {
            #expect {
                try DBBManager.inAppSupportFolder(named: name, subFolders: subFolders, tableClasses: [Note.self])
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .unavailable
                    && error.message.contains(
                        name.isEmpty ? "''" : subFolders == nil || name.contains("/") ? name : subFolders!)
            }
            let manager = DBBManager.createDatabaseInAppSupportFolder(
                named: name, subFolders: subFolders, with: [Note.self])
            #expect(manager.lastError?.kind == .unavailable)
            #expect(!Note(dbManager: manager).saveToDB())
            #expect(manager.lastError?.kind == .unavailable)
            let siblings = try FileManager.default.contentsOfDirectory(
                atPath: config.url.deletingLastPathComponent().path)
            #expect(!siblings.contains("escape"))
        }
    }

    @Test("a folder that cannot be created is a typed error naming it")
    func uncreatableFolder() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(Data("not a folder".utf8), to: "file")
        try with("XDG_DATA_HOME", file) {
            #expect {
                try DBBManager.inDocumentsFolder(named: "app.sqlite", tableClasses: [])
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .unavailable && error.message.contains(file)
            }
            let manager = DBBManager.createDatabaseInDocumentsFolder(named: "app.sqlite", tableClasses: [Note.self])
            #expect(manager.errorMessage().contains(file))
        }
    }
}
