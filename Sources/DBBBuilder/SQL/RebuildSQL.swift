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
        let list = columns.map(SQLText.quoteAlways).joined(separator: ", ")
        return
            "INSERT INTO \(SQLText.quoteAlways(newTable)) (\(list)) SELECT \(list) FROM \(SQLText.quoteAlways(table))"
    }

    static func dropTable(_ table: String) -> String { "DROP TABLE \(SQLText.quoteAlways(table))" }

    static func renameTable(_ table: String, to newName: String) -> String {
        "ALTER TABLE \(SQLText.quoteAlways(table)) RENAME TO \(SQLText.quoteAlways(newName))"
    }

    /// What a rebuild changes in one column's definition.
    struct ColumnEdit: OptionSet, Hashable {
        let rawValue: UInt8
        /// Takes out `NOT NULL` (and its `ON CONFLICT` clause).
        static let dropNotNull = ColumnEdit(rawValue: 1 << 0)
        /// Appends `NOT NULL` (unless the definition has it).
        static let addNotNull = ColumnEdit(rawValue: 1 << 1)
        /// Takes out `UNIQUE` (with its `CONSTRAINT name` and `ON CONFLICT` clause).
        static let dropUnique = ColumnEdit(rawValue: 1 << 2)
    }

    /// `create` (a `CREATE TABLE` statement) for a table named `newName`, with the column
    /// definitions of the columns `edits` names changed as it says, and the declared types of
    /// those `retyping` names replaced by its types; everything else is kept as written. `nil`
    /// when `create` is not of that form.
    /// - Returns: the statement, and the columns whose `UNIQUE` to drop is not in their
    ///   definition (a table constraint `UNIQUE (column)`, which is left alone).
    static func createTable(
        from create: String, named newName: String, editing edits: [String: ColumnEdit],
        retyping: [String: String] = [:]
    ) -> (sql: String, uniqueNotFound: [String])? {
        let tokens = SQLTokenizer.tokens(create)
        guard let open = tokens.firstIndex(where: { $0.text == "(" }) else { return nil }
        let targets = Dictionary(edits.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $0.union($1) })
        let types = Dictionary(retyping.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        // Replacements of ranges of `create`, in order: (range, new text).
        var replacements: [(Range<String.Index>, String)] = []
        var uniqueNotFound: [String] = []
        var depth = 0
        var segmentStart = open + 1
        for position in open..<tokens.count {
            let text = tokens[position].text
            if text == "(" { depth += 1 }
            if text == ")" { depth -= 1 }
            let endsSegment = (depth == 1 && text == ",") || (depth == 0 && text == ")")
            guard endsSegment else { continue }
            let words = tokens[segmentStart..<position].filter { $0.kind != .space }
            segmentStart = position + 1
            if let name = words.first?.identifier, let type = types[name.lowercased()] {
                let (range, declared) = typeRange(words)
                replacements.append((range, declared ? type : " " + type))
            }
            if let name = words.first?.identifier, let edit = targets[name.lowercased()] {
                if edit.contains(.dropNotNull) {
                    replacements += constraintRanges(words, "NOT", "NULL").map { ($0, "") }
                }
                if edit.contains(.dropUnique) {
                    let ranges = constraintRanges(words, "UNIQUE")
                    if ranges.isEmpty { uniqueNotFound.append(name) }
                    replacements += ranges.map { ($0, "") }
                }
                if edit.contains(.addNotNull), constraintRanges(words, "NOT", "NULL").isEmpty, let last = words.last {
                    replacements.append((last.range.upperBound..<last.range.upperBound, " NOT NULL"))
                }
            }
            if depth == 0 { break }
        }
        replacements.sort { $0.0.lowerBound < $1.0.lowerBound }
        var body = ""
        var cursor = tokens[open].range.lowerBound
        for (range, text) in replacements {
            body += create[cursor..<range.lowerBound] + text
            cursor = range.upperBound
        }
        body += create[cursor...]
        return ("CREATE TABLE \(SQLText.quoteAlways(newName)) \(body)", uniqueNotFound)
    }

    /// The words that begin a column constraint, and so end the declared type before them.
    private static let constraintKeywords: Set<String> = [
        "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED",
        "AS",
    ]

    /// The place of the declared type in one column definition's words (the name first), or
    /// the empty place after the name when the column declares none (`declared` false).
    private static func typeRange(_ words: [SQLToken]) -> (range: Range<String.Index>, declared: Bool) {
        let name = words[0].range
        var last: SQLToken?
        var depth = 0
        for word in words.dropFirst() {
            if depth == 0, word.kind == .word, constraintKeywords.contains(word.text.uppercased()) { break }
            if word.text == "(" { depth += 1 }
            if word.text == ")" { depth -= 1 }
            last = word
        }
        guard let last else { return (name.upperBound..<name.upperBound, false) }
        return (words[1].range.lowerBound..<last.range.upperBound, true)
    }

    /// The places of the column constraint `keywords` (`NOT NULL`, `UNIQUE`) in one column
    /// definition's words, outside parentheses, each with the `CONSTRAINT name` before it and
    /// the `ON CONFLICT x` after it.
    private static func constraintRanges(_ words: [SQLToken], _ keywords: String...) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var depth = 0
        var index = 0
        while index < words.count {
            let token = words[index]
            if token.text == "(" { depth += 1 }
            if token.text == ")" { depth -= 1 }
            let matches =
                depth == 0 && index + keywords.count <= words.count
                && keywords.indices.allSatisfy { words[index + $0].isKeyword(keywords[$0]) }
            guard matches else {
                index += 1
                continue
            }
            var first = index
            if first >= 2, words[first - 2].isKeyword("CONSTRAINT") { first -= 2 }
            var end = index + keywords.count - 1
            if end + 2 < words.count, words[end + 1].isKeyword("ON"), words[end + 2].isKeyword("CONFLICT") {
                end = min(end + 3, words.count - 1)
            }
            ranges.append(words[first].range.lowerBound..<words[end].range.upperBound)
            index = end + 1
        }
        return ranges
    }
}
