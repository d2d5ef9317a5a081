/// Where a database is, as a person types it on a command line: a file path or a server's URL.
public enum DatabasePlace {
    /// Whether `place` names a server rather than a file: a URL (`scheme://…`), or a mistyped
    /// PostgreSQL one (`postgres:/…`, `PostgreSQL:…`), which is never taken for a file's name
    /// (opened, or created, as SQLite) nor shown whole, as it may hold a password.
    public static func isURL(_ place: String) -> Bool {
        let lowered = place.lowercased()
        return place.contains("://") || lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:")
    }
}
