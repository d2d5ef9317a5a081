/// What a raw SQL text (``DBBManager/execute(_:arguments:)``) does with transactions, read
/// from its statements' first words with the dialect's tokenizer, so that a raw text can
/// neither leave the manager's shared writer connection inside a transaction nor half-apply.
struct RawScriptSQL {
    /// The statements of the text (each its tokens, spaces and comments included).
    let statements: [[SQLToken]]
    /// Some statement begins, ends or marks a transaction itself (BEGIN, COMMIT, SAVEPOINT…).
    let controlsTransactions: Bool
    /// Some statement cannot run inside a transaction (VACUUM; ATTACH, DETACH and PRAGMA on
    /// SQLite; on PostgreSQL those `PlaceholderSQL.Statement.runsOnlyOutsideTransactions(_:)`
    /// names: CREATE or DROP DATABASE, ALTER SYSTEM, … CONCURRENTLY, CLUSTER, DISCARD ALL…,
    /// and a `CALL` or a `DO` block that commits, whose `COMMIT` a transaction block forbids).
    let mustRunOutsideTransaction: Bool

    init(_ sql: String, dialect: DBBDialect) {
        statements = SQLTokenizer.statements(SQLTokenizer.tokens(sql, dialect: dialect))
        let firstWords = statements.map { Self.words($0, 2) }
        controlsTransactions = firstWords.contains {
            PlaceholderSQL.Statement.transactionWords.contains($0.first ?? "")
        }
        mustRunOutsideTransaction = statements.contains { statement in
            switch dialect {
            case .sqlite:
                ["VACUUM", "ATTACH", "DETACH", "PRAGMA"].contains(Self.words(statement, 1).first ?? "")
            case .postgresql:
                PlaceholderSQL.Statement.runsOnlyOutsideTransactions(Self.words(statement, .max))
                    || PlaceholderSQL.Statement.mayCommitInside(statement)
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
