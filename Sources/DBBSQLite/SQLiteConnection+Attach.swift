import Foundation

extension SQLiteConnection {
    /// Attaches another database file under the schema name `name`, so queries can use
    /// `name.table` and join it with the main database.
    ///
    /// ```swift
    /// try connection.attach(databaseAt: "/usr/share/app/food.sqlite", as: "reference", readOnly: true)
    /// let rows = try connection.fetchAll(
    ///     "SELECT m.amount, f.name FROM meal m JOIN reference.food f ON f.id = m.foodId") { … }
    /// ```
    ///
    /// - Parameters:
    ///   - path: the file to attach. When `readOnly` is true it must exist.
    ///   - name: the schema name (`main` and `temp` are taken).
    ///   - readOnly: when true, any write into the attachment fails with ``SQLiteResultCode/readOnly``.
    /// - Throws: ``SQLiteError`` naming the file, e.g. ``SQLiteResultCode/cantOpen`` when it is missing.
    ///
    /// See [ATTACH DATABASE](https://www.sqlite.org/lang_attach.html).
    public func attach(databaseAt path: String, as name: String, readOnly: Bool = false) throws {
        let uri = Self.fileURI(path: path, readOnly: readOnly)
        do {
            try execute("ATTACH DATABASE ? AS ?", [.text(uri), .text(name)])
        } catch let error as SQLiteError {
            throw SQLiteError(
                code: error.extendedCode, message: "cannot attach \(path) as \(name): \(error.message)",
                sql: error.sql, path: path)
        }
    }

    /// Detaches the database attached as `name`.
    public func detach(_ name: String) throws {
        try execute("DETACH DATABASE ?", [.text(name)])
    }

    /// The schema names of the attached databases (besides `main` and `temp`), in attach order.
    public func attachedDatabaseNames() throws -> [String] {
        try fetchAll("SELECT name FROM pragma_database_list WHERE seq >= 2 ORDER BY seq") {
            $0.string(at: 0) ?? ""
        }
    }

    /// A `file:` URI for `path` (see [URI filenames](https://www.sqlite.org/uri.html)):
    /// `%`, `?` and `#` are escaped so any file name survives.
    static func fileURI(path: String, readOnly: Bool) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        let prefix = path.hasPrefix("/") ? "file://" : "file:"
        return prefix + escaped + (readOnly ? "?mode=ro" : "")
    }
}
