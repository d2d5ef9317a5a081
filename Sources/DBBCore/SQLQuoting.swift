/// The two quotings of SQL text that SQLite and PostgreSQL read alike, written once for every
/// layer: the SQLite layer, the build tool, the ORM's dialects and the server's locale functions.
public enum SQLQuoting {
    /// `name` as a quoted identifier: in double quotes, each double quote doubled
    /// (`a"b` → `"a""b"`). Quoted, a name keeps its case and may be a keyword.
    public static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a string literal: in single quotes, each single quote doubled
    /// (`Bud's` → `'Bud''s'`). Prefer a bound argument to a literal pasted into SQL.
    public static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
