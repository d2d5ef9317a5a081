#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// SQL text the application writes — conditions and raw statements — means the same on both
/// backends: placeholders are counted outside every kind of literal and comment the engine
/// knows, arguments must match them, and raw rows carry their column names.
@Suite("SQL text: placeholders, literals, comments, statements and column names on both backends")
struct SQLTextTests {
    private static func members(_ db: BackendDatabase) throws -> [Member] {
        let members = ["it's ? here", "Ann", "Bo", "what?"].enumerated().map { index, name in
            let member = Member(dbManager: db.manager)
            member.name = name
            member.age = 20 + index
            return member
        }
        try Member.save(members, manager: db.manager)
        return members
    }

    private static func names(_ conditions: [String], _ arguments: DBBArguments, _ db: BackendDatabase) throws
        -> [String]
    {
        var options = DBBQueryOptions.options(withConditions: conditions, sortColumns: ["name"])
        options.arguments = arguments
        return try Member.instances(matching: options, manager: db.manager).map(\.name)
    }

    @Test("a ? inside PostgreSQL's escape strings, dollar quotes and nested comments is text, not a placeholder")
    func postgresLiterals() throws {
        guard let db = try BackendDatabase(.postgresql, [Member.self]) else { return }
        let members = try Self.members(db)
        #expect(try Self.names(["name = E'it\\'s ? here' OR age = ?"], [22], db) == ["Bo", "it's ? here"])
        #expect(try Self.names(["name = $$it's ? here$$ OR age = ?"], [22], db) == ["Bo", "it's ? here"])
        #expect(try Self.names(["name = $tag$it's ? here$tag$ OR age = ?"], [22], db) == ["Bo", "it's ? here"])
        #expect(try Self.names(["name = ? /* a /* nested ? */ still a comment ? */"], ["Ann"], db) == ["Ann"])
        #expect(try Self.names(["name::text = ?", "age::int > ?"], ["what?", 1], db) == ["what?"])

        // In a write, a literal that lost its `?` to a placeholder would store other text.
        try db.manager.execute(
            "UPDATE \"Member\" SET name = $$what? and E'?'$$ || E' \\'?\\'' WHERE id = ?", arguments: [members[1].id])
        #expect(try Member.instance(id: members[1].id, manager: db.manager)?.name == "what? and E'?' '?'")
        try db.manager.execute("UPDATE \"Member\" SET name = ?2 WHERE id = ?1", arguments: [members[2].id, "numbered"])
        #expect(try Member.instance(id: members[2].id, manager: db.manager)?.name == "numbered")
    }

    @Test("a comment in a condition, a trailing -- one included, is only a comment", arguments: Backend.allCases)
    func commentsInConditions(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self]) else { return }
        _ = try Self.members(db)
        #expect(try Self.names(["age > ? -- the adults", "name <> 'Bo' /* not Bo */"], [20], db) == ["Ann", "what?"])
        #expect(try Self.names(["age > ?", "OR", "name = ? -- or her"], [22, "Ann"], db) == ["Ann", "what?"])
    }

    @Test(
        "a column named in another case in a condition is that column, as SQLite reads it", arguments: Backend.allCases)
    func columnCase(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self]) else { return }
        _ = try Self.members(db)
        #expect(try Self.names(["NAME = ?"], ["Bo"], db) == ["Bo"])
        #expect(try Self.names(["Age >= ?", "ID > 1", "MODIFIEDTIME >= CreatedTime"], [22], db) == ["Bo", "what?"])
    }

    @Test("arguments must match the placeholders: more or fewer are refused, nothing runs", arguments: Backend.allCases)
    func argumentCount(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self]) else { return }
        let members = try Self.members(db)
        let table = backend == .postgresql ? "\"Member\"" : "Member"
        let extra = #expect(throws: DBBError.self) {
            try db.manager.execute("UPDATE \(table) SET age = 99 WHERE id = ?", arguments: [members[0].id, 5])
        }
        #expect(extra?.description.contains("1 parameter(s) but 2 argument(s)") == true, "\(String(describing: extra))")
        #expect(throws: DBBError.self) {
            _ = try db.manager.query("SELECT name FROM \(table) WHERE age = ? AND name = ?", arguments: [20])
        }
        #expect(throws: DBBError.self) { _ = try db.manager.query("SELECT name FROM \(table)", arguments: [20]) }
        #expect(throws: DBBError.self, "a placeholder number past any limit is not ?1") {
            _ = try db.manager.query("SELECT ?99999999999999999999", arguments: [20])
        }
        #expect(try Member.all(manager: db.manager).allSatisfy { $0.age != 99 })
    }

    @Test("several statements in one execute run in turn, each taking its arguments", arguments: Backend.allCases)
    func statements(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self]) else { return }
        let members = try Self.members(db)
        let table = backend == .postgresql ? "\"Member\"" : "Member"
        try db.manager.execute(
            """
            UPDATE \(table) SET age = ? WHERE id = ?; -- the first; a comment with a ;
            UPDATE \(table) SET name = 'semi;colon' WHERE id = ?;
            """, arguments: [70, members[0].id, members[1].id])
        #expect(try Member.instance(id: members[0].id, manager: db.manager)?.age == 70)
        #expect(try Member.instance(id: members[1].id, manager: db.manager)?.name == "semi;colon")
        #expect(throws: DBBError.self) {
            try db.manager.execute("UPDATE \(table) SET age = ?; UPDATE \(table) SET age = ?", arguments: [1])
        }
    }

    @Test("rows of a raw query carry their column names", arguments: Backend.allCases)
    func rawColumnNames(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Member.self]) else { return }
        _ = try Self.members(db)
        let table = backend == .postgresql ? "\"Member\"" : "Member"
        let rows = try db.manager.query(
            "SELECT name AS n, age FROM \(table) WHERE age > ? ORDER BY age", arguments: [21])
        #expect(rows.map(\.columnNames) == [["n", "age"], ["n", "age"]])
        #expect(try rows.map { try $0.decode(String.self, "n") } == ["Bo", "what?"])
        #expect(try rows[0].decode(Int.self, "age") == 22)
        #expect(rows[1]["age"] != nil)
        #expect(try db.manager.query("SELECT name FROM \(table) WHERE age > 100").isEmpty)
    }

    @Test(
        "raw rows on PostgreSQL read numerics, dates, times, UUIDs (in lower case), OIDs, JSON and enums as values; other types are refused by name"
    )
    func postgresTypes() throws {
        guard let db = try BackendDatabase(.postgresql) else { return }
        try db.manager.execute("CREATE TABLE money (amount bigint); INSERT INTO money VALUES (10), (20)")
        let sums = try db.manager.query(
            "SELECT sum(amount) AS total, avg(amount) AS mean, 2.5 AS half, round(3.14159, 2) AS pi FROM money")
        #expect(sums[0].values == [.integer(30), .real(15), .real(2.5), .real(3.14)], "\(sums[0].values)")
        #expect(try sums[0].decode(Double.self, "total") == 30)
        try db.manager.execute("CREATE TYPE mood AS ENUM ('happy', 'sad')")
        let row = try db.manager.query(
            """
            SELECT date '2001-01-02' AS d, timestamptz '2001-01-01 00:00:01.5+00' AS t, time '13:45:07.25' AS tm,
                   uuid '6ba7b810-9dad-11d1-80b4-00c04fd430c8' AS u, 42::oid AS o, '{"a": 1}'::jsonb AS j, 'sad'::mood AS m
            """)[0]
        #expect(
            row.values == [
                .real(86_400), .real(1.5), .text("13:45:07.250000"), .text("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
                .integer(42), .text(#"{"a": 1}"#), .text("sad"),
            ], "\(row.values)")
        for (expression, column) in [
            ("ARRAY['a', 'b']", "tags"), ("inet '10.0.0.1'", "address"), ("point(1, 2)", "spot"),
        ] {
            let error = try #require(throws: DBBError.self) {
                _ = try db.manager.query("SELECT \(expression) AS \(column)")
            }
            #expect(
                error.kind == .invalidValue && error.message.contains(column) && error.message.contains("::text"),
                "\(error)")
        }
        #expect(try db.manager.query("SELECT ARRAY['a', 'b']::text AS tags")[0].values == [.text("{a,b}")])
    }
}
#endif
