/// The SQL of rebuilding a table (SQLite's [12-step procedure](https://www.sqlite.org/lang_altertable.html#otheralter)):
/// its `CREATE TABLE` text with constraints lifted, and the copy of its rows.
enum RebuildSQL {
    /// The `CREATE TABLE` statement of the table named `?`.
    static let createStatement = "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE"

    /// The ordinary columns of the table named `?` (generated columns are computed, not copied).
    static let ordinaryColumns = "SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid"

    /// The indexes and triggers of the table named `?`, as created (automatic indexes have no SQL
    /// and come back with the table's constraints).
    static let dependents =
        "SELECT sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = ? COLLATE NOCASE AND sql IS NOT NULL ORDER BY type, name"

    /// Tables whose foreign keys refer to the table named `?`.
    static let referencingTables = """
        SELECT DISTINCT m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f \
        WHERE m.type = 'table' AND f."table" = ? COLLATE NOCASE
        """

    static let sequenceTableExists =
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    static let sequence = "SELECT seq FROM sqlite_sequence WHERE name = ? COLLATE NOCASE"
    static let deleteSequence = "DELETE FROM sqlite_sequence WHERE name = ? COLLATE NOCASE"
    static let insertSequence = "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)"
    static let foreignKeysEnabled = "PRAGMA foreign_keys"
    /// Renaming with `legacy_alter_table` on leaves the references in other tables' triggers
    /// and views alone, so they keep naming the rebuilt table.
    static func legacyAlterTable(_ on: Bool) -> String { "PRAGMA legacy_alter_table = \(on ? "ON" : "OFF")" }

    static func copyRows(from table: String, to newTable: String, columns: [String]) -> String {
        let list = columns.map(SQLDialect.quoteAlways).joined(separator: ", ")
        return
            "INSERT INTO \(SQLDialect.quoteAlways(newTable)) (\(list)) SELECT \(list) FROM \(SQLDialect.quoteAlways(table))"
    }

    static func dropTable(_ table: String) -> String { "DROP TABLE \(SQLDialect.quoteAlways(table))" }

    static func renameTable(_ table: String, to newName: String) -> String {
        "ALTER TABLE \(SQLDialect.quoteAlways(table)) RENAME TO \(SQLDialect.quoteAlways(newName))"
    }

    /// `create` (a `CREATE TABLE` statement) for a table named `newName`, with the `NOT NULL`
    /// constraints (and their `ON CONFLICT` clauses) of the column definitions of `columns`
    /// taken out; everything else is kept as written. `nil` when `create` is not of that form.
    static func createTable(from create: String, named newName: String, droppingNotNullOf columns: [String]) -> String?
    {
        let tokens = SQLTokenizer.tokens(create)
        guard let open = tokens.firstIndex(where: { $0.text == "(" }) else { return nil }
        let targets = Set(columns.map { $0.lowercased() })
        var removals: [Range<String.Index>] = []
        var depth = 0
        var segmentStart = open + 1
        for position in open..<tokens.count {
            let text = tokens[position].text
            if text == "(" { depth += 1 }
            if text == ")" { depth -= 1 }
            let endsSegment = (depth == 1 && text == ",") || (depth == 0 && text == ")")
            guard endsSegment else { continue }
            let segment = Array(tokens[segmentStart..<position])
            if let name = segment.first(where: { $0.kind != .space })?.identifier, targets.contains(name.lowercased()) {
                removals += notNullRanges(segment)
            }
            segmentStart = position + 1
            if depth == 0 { break }
        }
        var body = ""
        var cursor = tokens[open].range.lowerBound
        for range in removals {
            body += create[cursor..<range.lowerBound]
            cursor = range.upperBound
        }
        body += create[cursor...]
        return "CREATE TABLE \(SQLDialect.quoteAlways(newName)) \(body)"
    }

    /// The places of `NOT NULL [ON CONFLICT x]` in one column definition, outside parentheses.
    private static func notNullRanges(_ segment: [SQLToken]) -> [Range<String.Index>] {
        let words = segment.filter { $0.kind != .space }
        var ranges: [Range<String.Index>] = []
        var depth = 0
        var index = 0
        while index < words.count {
            let token = words[index]
            if token.text == "(" { depth += 1 }
            if token.text == ")" { depth -= 1 }
            if depth == 0, token.isKeyword("NOT"), index + 1 < words.count, words[index + 1].isKeyword("NULL") {
                var end = index + 1
                if end + 2 < words.count, words[end + 1].isKeyword("ON"), words[end + 2].isKeyword("CONFLICT") {
                    end = min(end + 3, words.count - 1)
                }
                ranges.append(token.range.lowerBound..<words[end].range.upperBound)
                index = end + 1
                continue
            }
            index += 1
        }
        return ranges
    }
}
