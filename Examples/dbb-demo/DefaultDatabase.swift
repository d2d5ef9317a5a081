import Foundation

/// Where `dbb-demo` keeps its database when `--database` is not given: a per-user cache folder,
/// `$XDG_CACHE_HOME/dbb-demo/dbb-demo.sqlite`, or `~/.cache/dbb-demo/dbb-demo.sqlite` when
/// `XDG_CACHE_HOME` is unset or not an absolute path (as the XDG Base Directory spec says).
enum DefaultDatabase {
    /// The default database file, its folder created when missing.
    static func url(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let cache: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cache = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            cache = home(environment).appendingPathComponent(".cache", isDirectory: true)
        }
        let folder = cache.appendingPathComponent("dbb-demo", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("dbb-demo.sqlite")
    }

    /// `path` with the home folder written `~`, so the output reads the same for every user.
    static func display(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = home(environment).path
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    private static func home(_ environment: [String: String]) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }
}
