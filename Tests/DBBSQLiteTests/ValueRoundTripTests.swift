import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Values round-trip through a real database file")
struct ValueRoundTripTests {
    /// Every value the tests store, with the storage class SQLite must report for it.
    static let samples: [(SQLiteValue, String)] = [
        (.null, "null"),
        (.integer(0), "integer"),
        (.integer(Int64.min), "integer"),
        (.integer(Int64.max), "integer"),
        (.integer(-1), "integer"),
        (.real(0.0), "real"),
        (.real(-0.0), "real"),
        (.real(Double.pi), "real"),
        (.real(-Double.greatestFiniteMagnitude), "real"),
        (.real(Double.greatestFiniteMagnitude), "real"),
        (.real(Double.leastNonzeroMagnitude), "real"),
        (.real(1e-300), "real"),
        (.text(""), "text"),
        (.text("plain ascii"), "text"),
        (.text("Zoë, Привет, 漢字, עברית, 🇩🇪👨‍👩‍👧"), "text"),
        (.text("e\u{301} combining"), "text"),
        (.text("nul\u{0}inside"), "text"),
        (.text("quote ' and \" and \\"), "text"),
        (.blob(Data()), "blob"),
        (.blob(Data([0])), "blob"),
        (.blob(Data((0...255).map(UInt8.init))), "blob"),
    ]

    @Test("each value bound by index comes back equal, with its storage class")
    func roundTripByIndex() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE item (n INTEGER PRIMARY KEY, v)")
        let insert = try db.cachedStatement("INSERT INTO item (n, v) VALUES (?, ?)")
        for (n, sample) in Self.samples.enumerated() {
            try insert.bind(n, at: 1)
            try insert.bind(sample.0, at: 2)
            try insert.execute()
        }
        db.close()

        // Reopen the file: the values must come from disk, not from memory.
        let reopened = try SQLiteConnection(path: database.path)
        let rows = try reopened.fetchAll("SELECT v, typeof(v) FROM item ORDER BY n") {
            ($0.value(at: 0), $0.string(at: 1))
        }
        #expect(rows.count == Self.samples.count)
        for (row, sample) in zip(rows, Self.samples) {
            #expect(row.0 == sample.0, "value \(sample.0)")
            #expect(row.1 == sample.1, "storage class of \(sample.0)")
        }
    }

    @Test("doubles keep every bit; -0.0 comes back equal to zero (SQLite drops the sign of zero)")
    func doubleBits() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE d (v REAL)")
        let values: [Double] = [.pi, .ulpOfOne, -.leastNormalMagnitude, 123456789.123456789, -1e308]
        for value in values { try db.execute("INSERT INTO d VALUES (?)", [.real(value)]) }
        let back = try db.fetchAll("SELECT v FROM d ORDER BY rowid") { $0.double(at: 0) }
        #expect(back.map(\.bitPattern) == values.map(\.bitPattern))

        try db.execute("INSERT INTO d VALUES (?)", [.real(-0.0)])
        #expect(try db.fetchValue("SELECT v FROM d WHERE rowid = 6", as: Double.self) == 0)
    }

    @Test("typed accessors read each storage class")
    func typedAccessors() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, z)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        try insert.bind(Int64.min, at: 1)
        try insert.bind(2.5, at: 2)
        try insert.bind("日本語", at: 3)
        try insert.bind(Data([1, 2, 3]), at: 4)
        try insert.bindNull(at: 5)
        try insert.execute()

        let row = try #require(
            try db.fetchOne("SELECT i, r, s, b, z FROM t") { row in
                (
                    row.int64(at: 0), row.double(at: 1), row.string(at: 2), row.data(at: 3),
                    row.isNull(at: 4), row.string(at: 4), row.data(at: 4), row.type(at: 4), row.count
                )
            })
        #expect(row.0 == Int64.min)
        #expect(row.1 == 2.5)
        #expect(row.2 == "日本語")
        #expect(row.3 == Data([1, 2, 3]))
        #expect(row.4)
        #expect(row.5 == nil)
        #expect(row.6 == nil)
        #expect(row.7 == .null)
        #expect(row.8 == 5)
    }

    @Test("booleans are stored as 1 and 0")
    func booleans() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE b (v BOOLEAN)")
        let insert = try db.cachedStatement("INSERT INTO b VALUES (?)")
        for value in [true, false] {
            try insert.bind(value, at: 1)
            try insert.execute()
        }
        #expect(
            try db.fetchAll("SELECT v, typeof(v) FROM b ORDER BY rowid") {
                "\($0.int64(at: 0)) \($0.string(at: 1)!) \($0.bool(at: 0))"
            } == ["1 integer true", "0 integer false"])
    }

    @Test("named parameters bind by :name, @name, $name and by bare name")
    func namedParameters() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE p (a, b, c)")
        try db.execute("INSERT INTO p VALUES (:a, @b, $c)", named: ["a": 1, "@b": "two", "c": nil])
        let statement = try db.prepare("INSERT INTO p VALUES (:a, @b, $c)")
        try statement.bind(Int64(4), named: ":a")
        try statement.bind("five", named: "b")
        try statement.bind(Data([6]), named: "$c")
        try statement.execute()
        let rows = try db.fetchAll("SELECT a, b, c FROM p ORDER BY rowid") { $0.values }
        #expect(rows == [[1, "two", nil], [4, "five", .blob(Data([6]))]])

        #expect {
            try statement.bind(Int64(1), named: "missing")
        } throws: { error in
            let error = try #require(error as? SQLiteError)
            return error.code == .range && error.message.contains("missing")
        }
    }

    @Test("Swift types convert through SQLiteValueConvertible, optionals as NULL")
    func convertibles() throws {
        let database = try SQLiteTestDatabase()
        let db = database.connection
        try db.execute("CREATE TABLE c (v)")
        let insert = try db.cachedStatement("INSERT INTO c VALUES (?)")
        let optional: String? = nil
        try insert.bind(UInt64.max, at: 1)
        try insert.execute()
        try insert.bind(Int8.min, at: 1)
        try insert.execute()
        try insert.bind(Float(1.5), at: 1)
        try insert.execute()
        try insert.bind(optional, at: 1)
        try insert.execute()
        try insert.bind(Optional("x"), at: 1)
        try insert.execute()

        let values = try db.fetchAll("SELECT v FROM c ORDER BY rowid") { $0.value(at: 0) }
        #expect(
            values[0] == .real(18_446_744_073_709_551_615.0), "above Int64.max: a REAL, as SQLite reads such a literal")
        #expect(UInt64(sqliteValue: values[0]) == nil && UInt64(sqliteValue: .integer(-1)) == nil)
        #expect(UInt64(sqliteValue: .integer(Int64.max)) == UInt64(Int64.max))
        #expect(Int8(sqliteValue: values[1]) == Int8.min)
        #expect(Float(sqliteValue: values[2]) == 1.5)
        #expect(String?(sqliteValue: values[3]) == .some(nil))
        #expect(String?(sqliteValue: values[4]) == .some("x"))
        // Out of range, or text that spells no number: no conversion rather than a wrong value
        // (SQLite's CAST would say 0). Text that spells one converts; numbers read as text.
        #expect(Int8(sqliteValue: .integer(300)) == nil)
        #expect(Int(sqliteValue: .text("abc")) == nil && Int(sqliteValue: .text("12abc")) == nil)
        #expect(Int(sqliteValue: .text(" 12 ")) == 12 && Double(sqliteValue: .text("2.5")) == 2.5)
        #expect(String(sqliteValue: .integer(-7)) == "-7" && String(sqliteValue: .real(1e20)) == "1.0e+20")
        #expect(try db.fetchValue("SELECT count(*) FROM c", as: Int.self) == 5)
        #expect(try db.fetchValue("SELECT v FROM c WHERE 0", as: Int.self) == nil)
    }
}
