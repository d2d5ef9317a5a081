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
        /// Its first word, upper-cased (`BEGIN`, `SELECT`…).
        public let leadingWord: String
        /// Whether it ends a transaction (COMMIT, END, ABORT, ROLLBACK but not ROLLBACK TO, PREPARE
        /// TRANSACTION; not `… AND CHAIN`, which begins the next one at once).
        public let endsTransaction: Bool
        /// Whether it is a query by its words: `SELECT`, `VALUES`, `TABLE`, `SHOW`, `FETCH` without
        /// `INTO` (`SELECT … INTO t` makes a table); `WITH` without `INSERT`, `UPDATE`, `DELETE`,
        /// `MERGE` or `INTO`; `EXPLAIN` without `ANALYZE`. Run on its own it stores nothing —
        /// unless it calls a function that writes, which its words do not show.
        public let isQuery: Bool
        /// What of it outlasts its transaction in the session, named, or `nil` (see
        /// `StatementEffects.swift`). A transaction pooler hands the session to other clients
        /// once the transaction ends.
        public let sessionState: String?
        /// Whether PostgreSQL refuses it inside a transaction block (`VACUUM`, `… CONCURRENTLY`…;
        /// see `StatementEffects.swift`).
        public let runsOnlyOutsideTransactions: Bool
        /// Whether, run outside a transaction block, it may commit part of its work before it
        /// ends — `CALL`, a `DO` block that says `COMMIT` or `CALL` — so that a failure does not
        /// undo all of it (see `StatementEffects.swift`).
        public let mayCommitInside: Bool
        /// What a failure of it leaves that no rollback undoes, in words for its error, or
        /// `nil` (see `StatementEffects.swift`): a failed `CREATE INDEX CONCURRENTLY` its
        /// invalid index, a `CALL` what the procedure committed.
        public let whatFailureLeaves: String?

        /// Whether it commits a transaction (`COMMIT`, `END`, `COMMIT PREPARED`): a failure
        /// once it was sent may leave the transaction committed.
        public var commits: Bool { leadingWord == "COMMIT" || leadingWord == "END" }

        /// Whether it begins, ends or marks a transaction (`BEGIN`, `START`, `COMMIT`, `END`,
        /// `ROLLBACK`, `ABORT`, `SAVEPOINT`, `RELEASE`, `PREPARE TRANSACTION`).
        public var controlsTransactions: Bool { Self.transactionWords.contains(leadingWord) }

        /// Whether a read-only manager refuses it in raw SQL: transaction control and
        /// `SET`/`RESET`, which would step out of the read-only transaction each statement runs
        /// in, or be undone with it; and the server commands whose effects outlast it (`COPY`
        /// to a file, `ANALYZE`'s statistics, `VACUUM`, `REINDEX`, `CLUSTER`, `CHECKPOINT`).
        public var refusedWhenReadOnly: Bool {
            controlsTransactions || Self.sessionAndServerWords.contains(leadingWord)
        }

        static let transactionWords: Set = [
            "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE", "PREPARE",
        ]
        static let sessionAndServerWords: Set = [
            "SET", "RESET", "COPY", "ANALYZE", "ANALYSE", "VACUUM", "REINDEX", "CLUSTER", "CHECKPOINT",
        ]

        /// Whether the words of a statement make it a query (see ``isQuery``).
        static func isQuery(_ words: [String]) -> Bool {
            let all = Set(words)
            switch words.first {
            case "SELECT", "VALUES", "TABLE", "SHOW", "FETCH": return !all.contains("INTO")
            case "WITH": return all.isDisjoint(with: ["INSERT", "UPDATE", "DELETE", "MERGE", "INTO"])
            case "EXPLAIN": return all.isDisjoint(with: ["ANALYZE", "ANALYSE"])
            default: return false
            }
        }
    }

    /// The highest placeholder number (SQLite's default limit; PostgreSQL's is 65,535).
    static let highestNumber = 32_766

    /// The statements, in order; none for text that is only spaces, comments and `;`.
    public let statements: [Statement]

    /// The one statement the expression tree rendered (see
    /// ``DatabaseAccess/knowRendered(_:parameterCount:isQuery:)``), from what its renderer knows
    /// rather than from its tokens: a `SELECT`, `UPDATE` or `DELETE` that leaves nothing in the
    /// session and runs in a transaction or alone.
    public init(rendered text: String, parameterCount: Int, isQuery: Bool) {
        statements = [
            Statement(
                text: text, parameterCount: parameterCount, leadingWord: String(text.prefix { $0 != " " }),
                endsTransaction: false, isQuery: isQuery, sessionState: nil, runsOnlyOutsideTransactions: false,
                mayCommitInside: false, whatFailureLeaves: nil)
        ]
    }

    /// The statements of `sql`, split by `syntax`'s rules (PostgreSQL's unless given).
    public init(_ sql: String, syntax: SQLSyntax = .postgresql) {
        statements = SQLTokenizer.statements(SQLTokenizer.tokens(sql, syntax: syntax)).map { tokens in
            var text = ""
            var count = 0
            // Leading spaces and comments go; the rest is kept as written.
            for token in tokens.drop(while: { $0.kind == .space }) {
                if token.kind == .parameter {
                    let digits = token.text.dropFirst()
                    if digits.isEmpty {
                        count += 1
                        text += "$\(count)"
                    } else if let number = Int(digits), number <= Self.highestNumber {
                        count = max(count, number)
                        text += "$\(number)"
                    } else {
                        // A number no statement can have: sent as written, for the server to refuse.
                        text += "$" + digits
                    }
                } else {
                    text += token.text
                }
            }
            let words = RawScriptSQL.words(tokens, .max)
            let chains = zip(words, words.dropFirst()).contains { $0 == "AND" && $1 == "CHAIN" }
            return Statement(
                text: text, parameterCount: count, leadingWord: words.first ?? "",
                endsTransaction: !chains
                    && (["COMMIT", "END", "ABORT"].contains(words.first ?? "")
                        || (words.first == "ROLLBACK" && !(words.count > 1 && words[1] == "TO"))
                        || (words.first == "PREPARE" && words.count > 1 && words[1] == "TRANSACTION")),
                isQuery: Statement.isQuery(words),
                sessionState: Statement.sessionState(tokens),
                runsOnlyOutsideTransactions: Statement.runsOnlyOutsideTransactions(words),
                mayCommitInside: Statement.mayCommitInside(tokens),
                whatFailureLeaves: Statement.whatFailureLeaves(tokens))
        }
    }
}
