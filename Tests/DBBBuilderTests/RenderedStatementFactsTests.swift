@_spi(DBBBackend) import DBBBuilder
import Foundation
import Testing

/// The facts a typed statement reaches PostgreSQL's backend with instead of being tokenized
/// (``PlaceholderSQL/init(rendered:parameterCount:isQuery:)``) are what the tokenizer would
/// have found in the same text: checked on every PostgreSQL golden statement of the typed
/// queries and writes, the tokenizer as the oracle.
@Suite struct RenderedStatementFactsTests {
    static func goldenStatements(_ name: String) throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init).filter { line in
            ["SELECT ", "UPDATE ", "DELETE "].contains { line.hasPrefix($0) }
        }
    }

    @Test(
        "a rendered statement's facts equal the tokenizer's",
        arguments: ["query-postgresql.sql", "writes-postgresql.sql"])
    func factsEqualTheTokenizers(_ golden: String) throws {
        let statements = try Self.goldenStatements(golden)
        #expect(statements.count > 5, "\(golden) has \(statements.count) statements")
        for sql in statements {
            let tokenized = PlaceholderSQL(sql).statements
            try #require(tokenized.count == 1, "\(sql)")
            let oracle = tokenized[0]
            // The renderer numbers its values 1…n with none left out, so n is its argument count.
            let numbers = Set(sql.matches(of: /\$([0-9]+)/).compactMap { Int($0.output.1) })
            #expect(numbers == Set(1...max(1, oracle.parameterCount)) || numbers.isEmpty, "\(sql)")
            let facts = PlaceholderSQL(
                rendered: sql, parameterCount: numbers.count, isQuery: sql.hasPrefix("SELECT ")
            ).statements[0]
            #expect(facts.text == oracle.text, "\(sql)")
            #expect(facts.parameterCount == oracle.parameterCount, "\(sql)")
            #expect(facts.leadingWord == oracle.leadingWord, "\(sql)")
            #expect(facts.isQuery == oracle.isQuery, "\(sql)")
            #expect(facts.endsTransaction == oracle.endsTransaction, "\(sql)")
            #expect(facts.sessionState == oracle.sessionState, "\(sql)")
            #expect(facts.runsOnlyOutsideTransactions == oracle.runsOnlyOutsideTransactions, "\(sql)")
            #expect(facts.mayCommitInside == oracle.mayCommitInside, "\(sql)")
            #expect(facts.whatFailureLeaves == oracle.whatFailureLeaves, "\(sql)")
        }
    }
}
