import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// Product of its argument over a group; fails on a negative number.
struct Product: SQLiteAggregate {
    var value: Double = 1
    var rows = 0
    struct NegativeFactor: Error, CustomStringConvertible {
        let factor: Double
        var description: String { "product() refuses the negative factor \(factor): use abs() first" }
    }
    mutating func step(_ arguments: SQLiteFunctionArguments) throws {
        let factor = arguments.double(at: 0)
        if factor < 0 { throw NegativeFactor(factor: factor) }
        value *= factor
        rows += 1
    }
    func result() -> SQLiteValue { rows == 0 ? .null : .real(value) }
}

/// Joins its text arguments with "|", in row order.
struct Concat: SQLiteAggregate {
    var parts: [String] = []
    mutating func step(_ arguments: SQLiteFunctionArguments) {
        parts.append((0..<arguments.count).map { arguments.string(at: $0) ?? "∅" }.joined(separator: ","))
    }
    func result() -> SQLiteValue { .text(parts.joined(separator: "|")) }
}

@Suite("SQL functions written in Swift")
struct FunctionTests {
    static let reverse = SQLiteFunction("dbb_reverse", argumentCount: 1) { arguments in
        guard let text = arguments.string(at: 0) else { return .null }
        return .text(String(text.reversed()))
    }

    @Test("a scalar function is called from SQL with every argument type")
    func scalar() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.add(Self.reverse)
        let describe = SQLiteFunction("dbb_describe", argumentCount: -1) { arguments in
            .text(
                (0..<arguments.count).map { "\(arguments.type(at: $0))=\(arguments.value(at: $0))" }
                    .joined(separator: " "))
        }
        try db.add(describe)
        #expect(try db.fetchValue("SELECT dbb_reverse('Привет')", as: String.self) == "тевирП")
        #expect(try db.fetchValue("SELECT dbb_reverse(NULL)", as: String.self) == nil)
        #expect(
            try db.fetchValue("SELECT dbb_describe(1, 2.5, 'x', x'00ff', NULL, '')", as: String.self)
                == "integer=1 real=2.5 text='x' blob=x'00ff' null=NULL text=''")
        #expect(try db.fetchValue("SELECT typeof(dbb_reverse(''))", as: String.self) == "text")
    }

    @Test("functions return every storage class, empty text and blob included")
    func resultTypes() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        let values: [SQLiteValue] = [
            .null, .integer(.min), .real(-0.5), .text(""), .text("ü"), .blob(Data()), .blob(Data([9])),
        ]
        try db.add(SQLiteFunction("pick", argumentCount: 1) { values[$0.int(at: 0)] })
        for (index, value) in values.enumerated() {
            #expect(try db.fetchOne("SELECT pick(?)", [.integer(Int64(index))]) { $0.value(at: 0) } == value)
        }
    }

    @Test("a Swift error becomes an SQL error carrying the whole message")
    func errorMessage() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        struct Refusal: Error, CustomStringConvertible {
            var description: String { "dbb_check: argument 1 (locale) 'xx_YY' is not a known locale identifier" }
        }
        try db.add(SQLiteFunction("dbb_check", argumentCount: 1) { _ in throw Refusal() })
        #expect {
            _ = try db.fetchValue("SELECT dbb_check('xx_YY')", as: String.self)
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.code == .error
                && error.message == "dbb_check: argument 1 (locale) 'xx_YY' is not a known locale identifier"
                && error.sql == "SELECT dbb_check('xx_YY')"
        }
        // An SQLiteError thrown by a function keeps its code.
        try db.add(
            SQLiteFunction("dbb_toobig", argumentCount: 0) { _ in
                throw SQLiteError(code: .tooBig, message: "result too big for dbb_toobig")
            })
        #expect {
            _ = try db.fetchValue("SELECT dbb_toobig()", as: String.self)
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.code == .tooBig && error.message == "result too big for dbb_toobig"
        }
    }

    @Test("a wrong argument count is refused when the statement is prepared")
    func argumentCountChecked() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.add(Self.reverse)
        #expect {
            _ = try db.prepare("SELECT dbb_reverse('a', 'b')")
        } throws: { error in
            (error as? SQLiteError)?.message == "wrong number of arguments to function dbb_reverse()"
        }
    }

    @Test("an aggregate computes one result per group, NULL for an empty set")
    func aggregate() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.add(.aggregate("product", argumentCount: 1, Product.self))
        try db.add(.aggregate("concat", argumentCount: -1, Concat.self))
        try db.execute("CREATE TABLE t (g TEXT, v REAL)")
        try db.execute("INSERT INTO t VALUES ('a', 2), ('a', 3), ('b', 0.5), ('b', 4), ('b', 5)")
        let groups = try db.fetchAll("SELECT g, product(v), concat(g, v) FROM t GROUP BY g ORDER BY g") {
            "\($0.string(at: 0)!) \($0.double(at: 1)) \($0.string(at: 2)!)"
        }
        #expect(groups == ["a 6.0 a,2.0|a,3.0", "b 10.0 b,0.5|b,4.0|b,5.0"])
        #expect(try db.fetchOne("SELECT product(v) FROM t WHERE v > 100") { $0.type(at: 0) } == .null)
        #expect(try db.fetchValue("SELECT concat(v) FROM t WHERE 0", as: String.self) == "")
    }

    @Test("an aggregate's error stops the query with its message, and the connection stays usable")
    func aggregateError() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.add(.aggregate("product", argumentCount: 1, Product.self))
        try db.execute("CREATE TABLE t (v REAL); INSERT INTO t VALUES (2), (-3), (4)")
        #expect {
            _ = try db.fetchValue("SELECT product(v) FROM t", as: Double.self)
        } throws: { error in
            (error as? SQLiteError)?.message == "product() refuses the negative factor -3.0: use abs() first"
        }
        #expect(try db.fetchValue("SELECT product(abs(v)) FROM t", as: Double.self) == 24)
    }

    @Test("deterministic functions may index expressions; non-deterministic ones may not")
    func deterministic() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.add(Self.reverse)
        try db.add(SQLiteFunction("dbb_random_reverse", argumentCount: 1, deterministic: false) { $0.value(at: 0) })
        try db.execute("CREATE TABLE t (name TEXT)")
        try db.execute("CREATE INDEX t_reversed ON t (dbb_reverse(name))")
        #expect {
            try db.execute("CREATE INDEX t_bad ON t (dbb_random_reverse(name))")
        } throws: { error in
            (error as? SQLiteError)?.message.contains("non-deterministic") == true
        }
        try db.execute("INSERT INTO t VALUES ('abc'), ('xyz')")
        #expect(try db.fetchValue("SELECT name FROM t WHERE dbb_reverse(name) = 'zyx'", as: String.self) == "xyz")
    }

    @Test("a function registers on a raw sqlite3* handle and can be removed")
    func rawHandle() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try Self.reverse.register(on: try #require(db.handle))
        #expect(try db.fetchValue("SELECT dbb_reverse('abc')", as: String.self) == "cba")
        try db.removeFunction(named: "dbb_reverse", argumentCount: 1)
        #expect(throws: SQLiteError.self) { _ = try db.prepare("SELECT dbb_reverse('abc')") }
    }

    @Test("functions run on many connections in parallel threads")
    func parallelConnections() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.sqlite")
        do {
            let setup = try SQLiteConnection(path: path)
            try setup.execute("CREATE TABLE t (s TEXT)")
            try setup.transaction {
                for n in 0..<2000 { try setup.execute("INSERT INTO t VALUES (?)", [.text("r\(n)")]) }
            }
        }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let db = try SQLiteConnection(path: path)
                    try db.add(Self.reverse)
                    try db.add(.aggregate("concat", argumentCount: 1, Concat.self))
                    return try db.fetchValue(
                        "SELECT count(*) FROM t WHERE dbb_reverse(dbb_reverse(s)) = s", as: Int.self) ?? -1
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: 2000, count: 8))
    }
}
