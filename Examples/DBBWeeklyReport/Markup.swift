/// Text put into SVG or HTML, escaped: `&`, `<`, `>`, `"` and `'` become entities, so that a
/// name from a query string can neither end an attribute nor open an element.
public enum Markup {
    /// `text` with its markup characters escaped, for element content and quoted attributes.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
