import DBBSQLite
import Foundation

/// What stands in the way of opening a database file at a path, in words that say what to
/// change: SQLite reports every such case as "unable to open database file".
enum SQLiteOpenFailure {
    /// Why the database at `path` could not be opened (`readOnly`: as an existing file, never
    /// created), or `nil` when the file system shows nothing wrong (SQLite's own message then
    /// stands).
    static func reason(path: String, readOnly: Bool = false) -> String? {
        let files = FileManager.default
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return "\(path) is a folder, not a database file: name a file inside it" }
            if !files.isReadableFile(atPath: path) {
                return "this process may not read \(path): change the file's permissions or owner"
            }
            return nil
        }
        if readOnly {
            return "there is no database file at \(path), and a read-only manager creates none: check the path, "
                + "or create the database with a manager that writes first"
        }
        guard files.fileExists(atPath: folder, isDirectory: &isFolder) else {
            return "the folder \(folder) does not exist: create it first "
                + "(FileManager.default.createDirectory(at:withIntermediateDirectories:true))"
        }
        if !isFolder.boolValue { return "\(folder) is a file, not a folder: the database cannot be created in it" }
        if !files.isWritableFile(atPath: folder) {
            return "this process may not create files in the folder \(folder): change its permissions, "
                + "or open a database elsewhere"
        }
        return nil
    }
}
