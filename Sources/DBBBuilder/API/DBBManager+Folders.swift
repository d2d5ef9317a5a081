import Foundation

/// DBBBuilder's folder helpers. On Apple platforms they are the user's Documents and
/// Application Support folders, as in DBBBuilder. On Linux they are the XDG base directories:
///
/// | DBBBuilder          | Linux                                                    |
/// |---------------------|----------------------------------------------------------|
/// | Documents           | `$XDG_DATA_HOME`, else `~/.local/share` (the user's data)  |
/// | Application Support | `$XDG_CONFIG_HOME`, else `~/.config` (the app's own files) |
///
/// An XDG variable that is unset, empty or not an absolute path is ignored, as the
/// [XDG Base Directory specification](https://specifications.freedesktop.org/basedir-spec/latest/) says.
extension DBBManager {
    /// DBBBuilder's Documents folder; on Linux the XDG data folder (see the table above).
    public static var documentsFolder: URL {
        #if canImport(Darwin)
        FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        #else
        xdgFolder("XDG_DATA_HOME", default: ".local/share")
        #endif
    }

    /// DBBBuilder's Application Support folder, or `subFolder` (a relative path such as
    /// `"MyApp/Databases"`) inside it, created with its intermediate folders when missing; on
    /// Linux inside the XDG config folder (see the table above). When it cannot be created, the
    /// URL is still returned: opening a database there reports why.
    public static func appSupportFolder(using subFolder: String?) -> URL {
        (try? appSupportFolderCreated(subFolder))
            ?? appSupportBase.appendingPathComponent(subFolder ?? "", isDirectory: true)
    }

    // MARK: - Throwing forms

    /// A manager on the database file `name` in ``documentsFolder`` (created when missing),
    /// with `tableClasses` registered.
    /// - Throws: ``DBBError`` of kind ``DBBError/Kind/unavailable`` naming a bad file name
    ///   (empty, with `/`, or `..`) or the folder that cannot be created; or what
    ///   ``register(_:)`` throws.
    public static func inDocumentsFolder(named name: String, tableClasses: [DBBTableObject.Type]) throws -> DBBManager {
        let manager = try opened(named: name) { () throws(DBBError) in try created(documentsFolder) }
        try manager.register(tableClasses)
        return manager
    }

    /// A manager on the database file `name` in `subFolders` (a relative path) of the
    /// Application Support folder (see ``appSupportFolder(using:)``), with `tableClasses` registered.
    /// - Throws: as ``inDocumentsFolder(named:tableClasses:)``; also for a `subFolders` path
    ///   that is absolute or climbs out with `..`.
    public static func inAppSupportFolder(
        named name: String, subFolders: String?,
        tableClasses: [DBBTableObject.Type]
    ) throws -> DBBManager {
        let manager = try opened(named: name) { () throws(DBBError) in try appSupportFolderCreated(subFolders) }
        try manager.register(tableClasses)
        return manager
    }

    // MARK: - Helpers

    private static var appSupportBase: URL {
        #if canImport(Darwin)
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
        #else
        xdgFolder("XDG_CONFIG_HOME", default: ".config")
        #endif
    }

    /// `$variable` when it is an absolute path, else `~/<fallback>`.
    private static func xdgFolder(_ variable: String, default fallback: String) -> URL {
        if let value = ProcessInfo.processInfo.environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(fallback, isDirectory: true)
    }

    static func appSupportFolderCreated(_ subFolders: String?) throws(DBBError) -> URL {
        guard let subFolders, !subFolders.isEmpty else { return try created(appSupportBase) }
        let parts = subFolders.split(separator: "/", omittingEmptySubsequences: true)
        guard !subFolders.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
            throw DBBError(
                .unavailable,
                "subFolders '\(subFolders)' must be a relative path inside the Application Support "
                    + "folder \(appSupportBase.path) (no leading '/', no '..')")
        }
        return try created(parts.reduce(appSupportBase) { $0.appendingPathComponent(String($1), isDirectory: true) })
    }

    /// `folder`, created with its intermediate folders when missing.
    static func created(_ folder: URL) throws(DBBError) -> URL {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        } catch {
            throw DBBError(.unavailable, "cannot create the folder \(folder.path): \(error.localizedDescription)")
        }
    }

    /// A manager on the file `name` in the folder `folder` gives.
    static func opened(named name: String, in folder: () throws(DBBError) -> URL) throws(DBBError) -> DBBManager {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw DBBError(
                .unavailable,
                "'\(name)' is not a database file name (it must be non-empty, without '/', not '.' or '..')")
        }
        let url = try folder().appendingPathComponent(name)
        do {
            return try DBBManager(url: url)
        } catch let error as DBBError {
            throw error
        } catch {
            throw DBBError(.unavailable, "cannot open database \(url.path): \(error)")
        }
    }
}
