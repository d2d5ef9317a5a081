import DBBSQLite
import Foundation

extension DBBManager {
    /// Attaches another database file under the schema name `name` on every connection this
    /// manager has or will open, so queries can use `name.table` and join it with the main
    /// database — for example a large reference database shipped read-only beside a small
    /// user database.
    ///
    /// ```swift
    /// try manager.attach(databaseAt: Bundle.main.url(forResource: "food", withExtension: "sqlite")!,
    ///                    as: "reference", readOnly: true)
    /// let rows = try manager.query("SELECT f.name, m.grams FROM Meal m JOIN reference.food f ON f.id = m.foodID")
    /// ```
    ///
    /// - Parameters:
    ///   - url: the database file to attach.
    ///   - name: the schema name queries use for it (`name.table`).
    ///   - readOnly: when true (the default), a write into the attachment fails with a
    ///     ``DBBError`` whose SQLite code is `.readOnly`.
    /// - Throws: ``DBBError`` naming the file, e.g. when it does not exist.
    public func attach(databaseAt url: URL, as name: String, readOnly: Bool = true) throws {
        let path = url.path
        do {
            try access.addSetup { connection in
                guard let sqlite = (connection as? SQLiteBackend)?.sqlite else {
                    throw DBBError(
                        .invalidOption,
                        "cannot attach \(path) as \(name): attaching database files is SQLite's; "
                            + "on a server, keep reference tables in the server's database or another schema")
                }
                try sqlite.attach(databaseAt: path, as: name, readOnly: readOnly)
            }
        } catch let error as SQLiteError {
            throw DBBError(.unavailable, "cannot attach \(path) as \(name): \(error.message)", sqliteError: error)
        }
    }

    /// Opens the database at `url`, first copying `templateURL` there when no file exists at
    /// `url` — never over an existing database. The copy lands whole or not at all.
    ///
    /// ```swift
    /// let manager = try DBBManager(url: userDatabaseURL, templateURL: bundledEmptyDatabaseURL)
    /// ```
    public convenience init(url: URL, templateURL: URL) throws {
        try Self.copyTemplate(templateURL, to: url)
        try self.init(url: url)
    }

    /// Copies `template` to `url` unless a file is there: through a temporary file linked into
    /// place, which fails rather than overwrite a file that appeared meanwhile.
    static func copyTemplate(_ template: URL, to url: URL) throws {
        let fileManager = FileManager.default
        guard !fileManager.fileExists(atPath: url.path) else { return }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).template-\(UUID().uuidString)")
        defer { try? fileManager.removeItem(at: temporary) }
        do {
            try fileManager.copyItem(at: template, to: temporary)
        } catch {
            throw DBBError(
                .unavailable, "cannot copy the template \(template.path) to \(url.path): \(error.localizedDescription)")
        }
        if link(temporary.path, url.path) != 0 && errno != EEXIST {
            throw DBBError(.unavailable, "cannot put the template at \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
