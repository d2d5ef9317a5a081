@_spi(DBBBackend) import DBBBackendTestSupport
import DBBTestSupport
import Foundation
import Testing

@_spi(DBBBackend) @testable import DBBBuilder

/// Each dialect's SQL text, built without a database: the statements a registration and a save
/// run, and the dialect's own answers, checked against the golden SQL that a run on a real
/// SQLite file and a real PostgreSQL server recorded (`Golden/<backend>.sql`, see
/// ``GoldenSQLTests``). PostgreSQL's text is checked here without a server.
@Suite("Each dialect's SQL text, without a database")
struct DialectSQLTests {
    /// The statements that create the tables, join tables, indexes (and cleanup triggers) of the
    /// golden suite's classes, and the INSERT, UPDATE and deletes of their objects, in `dialect`.
    private static func statements(_ dialect: any DBBDialect) throws -> [String] {
        let manager = try DBBManager.inMemory()  // only to build the mappings: nothing runs on it
        let mappings = try [Member.self, Company.self, Venture.self].map {
            try manager.registry.mapping(for: $0, manager: manager)
        }
        let schema = SchemaSQL(dialect: dialect)
        var statements: [String] = []
        for mapping in mappings {
            statements.append(schema.createTable(mapping))
            statements += mapping.indexers.map { schema.createIndex($0, mapping) }
            for join in mapping.joins {
                let target = try join.access.relation.map {
                    try manager.registry.mapping(for: $0.targetType, manager: manager)
                }
                statements += [
                    schema.createJoinTable(join, owner: mapping, target: target), schema.createJoinIndex(join),
                ]
                if target != nil { statements.append(schema.createJoinTargetIndex(join)) }
                guard dialect.deletesJoinRowsWithTriggers else { continue }
                statements.append(schema.ownerDeleteTrigger(join, owner: mapping))
                if let target { statements.append(schema.targetDeleteTrigger(join, target: target)) }
            }
        }
        // The save statements the golden run used: one row at a time on SQLite, a set of rows
        // a statement on PostgreSQL (``SetWriteSQL``).
        let member = mappings[0]
        let age = try #require(member.columns.firstIndex { $0.name == "age" })
        let nicknames = try #require(member.joins.first { $0.name == "nicknames" })
        let rows = MappingStatements(table: member.tableName, columns: member.columns, dialect: dialect)
        statements.append(rows.deleteByIDs)
        if dialect.returningID.isEmpty {
            statements += [
                rows.insert, rows.update(member.columns, [age]), JoinSQL(dialect: dialect).insertRow(nicknames),
            ]
        } else {
            let sets = SetWriteSQL(dialect: dialect)
            statements += [sets.insertRows(member), sets.updateRows(member, [age]), sets.insertJoinRows(nicknames)]
        }
        return statements
    }

    /// The statements of `Golden/<backend>.sql`.
    private static func golden(_ backend: Backend) throws -> Set<String> {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/\(backend.rawValue).sql")
        return Set(try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init))
    }

    @Test("registration and save statements built without a database are the golden SQL", arguments: Backend.allCases)
    func statementsAreGolden(_ backend: Backend) throws {
        guard let dialect = backend.dialect else { return }
        let golden = try Self.golden(backend)
        let statements = try Self.statements(dialect)
        #expect(statements.count > 30)
        for statement in statements {
            let recorded = golden.contains(statement)
            #expect(recorded, "not in Golden/\(backend.rawValue).sql: \(statement)")
        }
    }

    @Test("SQLite: names bare unless a keyword, DBBBuilder's types, counters in sqlite_sequence, affinities")
    func sqlite() throws {
        let dialect = SQLiteDialect()
        #expect(
            dialect.quote("age") == "age" && dialect.quote("order") == #""order""# && dialect.quote("a b") == #""a b""#)
        #expect(dialect.columnType(.date) == "Real" && dialect.columnType(.bool) == "Boolean")
        #expect(dialect.literal(.real(-.infinity)) == "-9e999" && dialect.literal(.blob(Data([0xAB]))) == "x'ab'")
        #expect(dialect.literal(.real(.nan)) == nil && dialect.literal(.text("a\u{0}b")) == nil)
        #expect(dialect.defaultLiteral(.binary) == "x''" && dialect.defaultLiteral(.int) == "0")
        #expect(dialect.nullsOrder(descending: true) == "" && dialect.condition("a IS ?") == "a IS ?")
        #expect(dialect.holds(.int, declaredType: "BIGINT") && !dialect.holds(.int, declaredType: "Text"))
        #expect(dialect.explain(declaredType: "VARCHAR(9)") == " (TEXT affinity)")
        #expect(dialect.attributeIndexName(table: "T", column: "c") == "T_c_unique")
        #expect(dialect.isAttributeIndex("t_C_UNIQUE", table: "T", column: "c"))
        #expect(dialect.lockTables(["T"]) == nil && dialect.schemaLock == nil && dialect.lockAgainstWrites("T") == nil)
        #expect(dialect.raiseLastID("T", to: 7).map(\.sql).allSatisfy { $0.contains("sqlite_sequence") })
        #expect(
            !dialect.altersConstraintsInPlace && dialect.identifiesByFile && dialect.refusal(of: .text("\u{0}")) == nil)
        let outside = { (sql: String) in
            SQLTokenizer.statements(SQLTokenizer.tokens(sql, syntax: dialect.syntax))
                .map(dialect.mustRunOutsideTransaction)
        }
        #expect(outside("VACUUM; pragma user_version = 3; SELECT 1; ATTACH 'x' AS y") == [true, true, false, true])
    }

    @Test("PostgreSQL: every name quoted, its types, IS spelled IS NOT DISTINCT FROM, names cut at 63 bytes")
    func postgresql() throws {
        guard let dialect = Backend.postgresql.dialect else { return }
        #expect(dialect.quote("age") == #""age""# && dialect.quote(#"a"b"#) == #""a""b""#)
        #expect(dialect.columnType(.date) == "double precision" && dialect.columnType(.bool) == "bigint")
        #expect(
            dialect.literal(.real(-.infinity)) == "'-Infinity'" && dialect.literal(.blob(Data([0xAB]))) == #"'\xab'"#)
        #expect(dialect.defaultLiteral(.binary) == "''")
        #expect(
            dialect.nullsOrder(descending: false) == " NULLS FIRST"
                && dialect.nullsOrder(descending: true) == " NULLS LAST")
        #expect(
            dialect.condition("a IS ? AND b IS NOT ? AND c IS NULL AND d IS NOT TRUE")
                == "a IS NOT DISTINCT FROM ? AND b IS DISTINCT FROM ? AND c IS NULL AND d IS NOT TRUE")
        #expect(dialect.condition("x = 'a IS b'") == "x = 'a IS b'", "a literal is left alone")
        #expect(dialect.holds(.int, declaredType: "integer") && !dialect.holds(.int, declaredType: "text"))
        #expect(dialect.explain(declaredType: "text") == "")
        let long = String(repeating: "é", count: 40)
        let name = dialect.attributeIndexName(table: long, column: "c")
        #expect(
            name.utf8.count <= 63 && name.hasSuffix("_unique")
                && name != dialect.attributeIndexName(table: long, column: "d"))
        #expect(dialect.isAttributeConstraint("T_c_key", table: "T", column: "c"))
        #expect(!dialect.isAttributeConstraint("other", table: "T", column: "c"))
        #expect(dialect.lockTables(["T", "U"]) == #"LOCK TABLE "T", "U" IN EXCLUSIVE MODE"#)
        #expect(
            dialect.lastIDArgument("T") == .text(#""T""#) && dialect.altersConstraintsInPlace
                && !dialect.identifiesByFile)
        #expect(dialect.refusal(of: .text("a\u{0}b"))?.kind == .invalidValue && dialect.refusal(of: .text("ab")) == nil)
        let outside = { (sql: String) in
            SQLTokenizer.statements(SQLTokenizer.tokens(sql, syntax: dialect.syntax))
                .map(dialect.mustRunOutsideTransaction)
        }
        let script = "VACUUM; CREATE INDEX CONCURRENTLY i ON t (c); SELECT 1; SELECT $$;$$"
        #expect(outside(script) == [true, true, false, false])
    }
}
