/// What a raw SQL text (``DBBManager/execute(_:arguments:)``) does with transactions, read
/// from its statements' first words with the dialect's tokenizer, so that a raw text can
/// neither leave the manager's shared writer connection inside a transaction nor half-apply.
struct RawScriptSQL {
    /// The statements of the text (each its tokens, spaces and comments included).
    let statements: [[SQLToken]]
    /// Some statement begins, ends or marks a transaction itself (BEGIN, COMMIT, SAVEPOINT…).
    let controlsTransactions: Bool
    /// Some statement cannot run inside a transaction (VACUUM; ATTACH, DETACH and PRAGMA on
    /// SQLite; CREATE or DROP DATABASE, ALTER SYSTEM, … CONCURRENTLY on PostgreSQL).
    let mustRunOutsideTransaction: Bool

    private static let transactionWords: Set<String> = [
        "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT",
        "RELEASE", "PREPARE",
    ]

    init(_ sql: String, dialect: DBBDialect) {
        statements = SQLTokenizer.statements(SQLTokenizer.tokens(sql, dialect: dialect))
        let firstWords = statements.map { Self.words($0, 2) }
        controlsTransactions = firstWords.contains { Self.transactionWords.contains($0.first ?? "") }
        mustRunOutsideTransaction = zip(statements, firstWords).contains { statement, words in
            switch dialect {
            case .sqlite:
                ["VACUUM", "ATTACH", "DETACH", "PRAGMA"].contains(words.first ?? "")
            case .postgresql:
                words.first == "VACUUM" || words == ["ALTER", "SYSTEM"] || words == ["CREATE", "DATABASE"]
                    || words == ["DROP", "DATABASE"] || words == ["CREATE", "TABLESPACE"]
                    || words == ["DROP", "TABLESPACE"]
                    || statement.contains { $0.isKeyword("CONCURRENTLY") }
            }
        }
    }

    /// Whether the text is best run as one transaction: several statements, none of which
    /// handles transactions itself or must run outside one.
    var runsAtomically: Bool { statements.count > 1 && !controlsTransactions && !mustRunOutsideTransaction }

    /// The first `count` words of a statement, upper-cased.
    static func words(_ statement: [SQLToken], _ count: Int) -> [String] {
        Array(statement.lazy.filter { $0.kind == .word }.prefix(count).map { $0.text.uppercased() })
    }
}

extension SQLTokenizer {
    /// `tokens` split into statements at each `;` outside quotes and comments, statements
    /// holding only spaces and comments left out.
    static func statements(_ tokens: [SQLToken]) -> [[SQLToken]] {
        var statements: [[SQLToken]] = []
        var current: [SQLToken] = []
        for token in tokens {
            if token.kind == .symbol && token.text == ";" {
                if current.contains(where: { $0.kind != .space }) { statements.append(current) }
                current = []
            } else {
                current.append(token)
            }
        }
        if current.contains(where: { $0.kind != .space }) { statements.append(current) }
        return statements
    }
}
