/// What a raw SQL text (``DBBManager/execute(_:arguments:)``) does with transactions, read
/// from its statements' first words with the dialect's tokenizer, so that a raw text can
/// neither leave the manager's shared writer connection inside a transaction nor half-apply.
@_spi(DBBBackend)
public struct RawScriptSQL {
    /// The statements of the text (each its tokens, spaces and comments included).
    let statements: [[SQLToken]]
    /// Some statement begins, ends or marks a transaction itself (BEGIN, COMMIT, SAVEPOINT…).
    let controlsTransactions: Bool
    /// Some statement cannot run inside a transaction, as the dialect says
    /// (``DBBDialect/mustRunOutsideTransaction(_:)``: `VACUUM` on every engine).
    let mustRunOutsideTransaction: Bool

    init(_ sql: String, dialect: any DBBDialect) {
        statements = SQLTokenizer.statements(SQLTokenizer.tokens(sql, syntax: dialect.syntax))
        let firstWords = statements.map { Self.words($0, 2) }
        controlsTransactions = firstWords.contains {
            PlaceholderSQL.Statement.transactionWords.contains($0.first ?? "")
        }
        mustRunOutsideTransaction = statements.contains(where: dialect.mustRunOutsideTransaction)
    }

    /// Whether the text is best run as one transaction: several statements, none of which
    /// handles transactions itself or must run outside one.
    var runsAtomically: Bool { statements.count > 1 && !controlsTransactions && !mustRunOutsideTransaction }

    /// The first `count` words of a statement, upper-cased.
    public static func words(_ statement: [SQLToken], _ count: Int) -> [String] {
        Array(statement.lazy.filter { $0.kind == .word }.prefix(count).map { $0.text.uppercased() })
    }
}

extension SQLTokenizer {
    /// `tokens` split into statements at each `;` outside quotes and comments, statements
    /// holding only spaces and comments left out.
    public static func statements(_ tokens: [SQLToken]) -> [[SQLToken]] {
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
