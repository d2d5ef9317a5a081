/// SQL text written with SQLite's placeholders, as PostgreSQL takes it: split into its
/// statements (the extended protocol runs one at a time), each `?` numbered `$1`, `$2`, … in
/// order and each `?NNN` written `$NNN` — SQLite's rule, so `?` after `?5` is `$6` — outside
/// literals, quoted identifiers, dollar-quoted bodies and comments (see ``SQLTokenizer``).
/// A `$NNN` written for PostgreSQL stays as it is, and counts.
@_spi(DBBBackend)
public struct PlaceholderSQL: Sendable {
    /// One statement of the text.
    public struct Statement: Sendable {
        /// The statement with numbered placeholders.
        public let text: String
        /// The arguments it takes: the highest placeholder number.
        public let parameterCount: Int
    }

    /// The statements, in order; none for text that is only spaces, comments and `;`.
    public let statements: [Statement]

    public init(_ sql: String) {
        var statements: [Statement] = []
        var text = ""
        var count = 0
        var hasContent = false
        func finish() {
            if hasContent { statements.append(Statement(text: text, parameterCount: count)) }
            text = ""
            count = 0
            hasContent = false
        }
        for token in SQLTokenizer.tokens(sql, dialect: .postgresql) {
            switch token.kind {
            case .symbol where token.text == ";":
                finish()
            case .parameter:
                let written = Int(token.text.dropFirst())
                let number = written ?? count + 1
                count = max(count, number)
                text += "$\(number)"
                hasContent = true
            case .space:
                if hasContent { text += token.text }
            default:
                text += token.text
                hasContent = true
            }
        }
        finish()
        self.statements = statements
    }
}
