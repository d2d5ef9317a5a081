import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// `SQLiteCollation`: a collating sequence in Swift, and `dbb_decimal`, which compares the text
/// of decimal numbers as the numbers: what `ORDER BY`, `<`, `=`, `MIN`/`MAX` and an index under
/// it see.
@Suite("Collations written in Swift, and dbb_decimal")
struct CollationTests {
    /// A connection with `dbb_decimal` and a table of `texts`.
    static func table(_ texts: [String]) throws -> SQLiteConnection {
        let connection = try SQLiteConnection.inMemory()
        try connection.add(SQLiteCollation.decimal)
        try connection.execute("CREATE TABLE t (p TEXT)")
        for text in texts { try connection.execute("INSERT INTO t VALUES (?)", [.text(text)]) }
        return connection
    }

    static func texts(_ connection: SQLiteConnection, _ sql: String, _ arguments: [SQLiteValue] = []) throws
        -> [String]
    {
        try connection.fetchAll(sql, arguments) { $0.string(at: 0) ?? "NULL" }
    }

    @Test("numbers sort by value: signs, lengths, fractions, exponents, 38 digits and more; texts after them")
    func order() throws {
        let texts = [
            "10", "9", "-2.5", "-10", "0.001", "100.5", ".5", "5.", "+7", "-0", "0.000", "1e3", "1E-2", "-1.5e1",
            "99999999999999999999999999999999999999", "100000000000000000000000000000000000000.5",
            "-99999999999999999999999999999999999999.9", "0.0000000000000000000000000000000000000001", "abc", "",
            "1,5", "NaN", "1.5x",
        ]
        let connection = try Self.table(texts)
        let sorted = try Self.texts(connection, "SELECT p FROM t ORDER BY p COLLATE dbb_decimal, p COLLATE BINARY")
        #expect(
            sorted == [
                "-99999999999999999999999999999999999999.9", "-1.5e1", "-10", "-2.5", "-0", "0.000",
                "0.0000000000000000000000000000000000000001", "0.001", "1E-2", ".5", "5.", "+7", "9", "10", "100.5",
                "1e3", "99999999999999999999999999999999999999", "100000000000000000000000000000000000000.5", "", "1,5",
                "1.5x", "NaN", "abc",
            ], "\(sorted)")
        // Equal values written apart are equal under it (and distinct in bytes).
        #expect(
            try Self.texts(connection, "SELECT p FROM t WHERE p = '0' COLLATE dbb_decimal ORDER BY p") == [
                "-0", "0.000",
            ])
        #expect(try Self.texts(connection, "SELECT p FROM t WHERE p = '1000.00' COLLATE dbb_decimal") == ["1e3"])
        #expect(
            try Self.texts(
                connection, "SELECT max(p COLLATE dbb_decimal) FROM t WHERE p GLOB '*[0-9]*' AND p NOT GLOB '*[,x]*'")
                == ["100000000000000000000000000000000000000.5"])
        // An index under the collation keeps the same order.
        try connection.execute("CREATE INDEX t_p ON t (p COLLATE dbb_decimal)")
        #expect(
            try Self.texts(
                connection, "SELECT p FROM t WHERE p COLLATE dbb_decimal > '99' ORDER BY p COLLATE dbb_decimal LIMIT 3")
                == ["100.5", "1e3", "99999999999999999999999999999999999999"])
    }

    @Test("on random decimals it orders as Decimal does, and equals as Decimal does")
    func agreesWithDecimal() throws {
        var random = SeededRandom(label: "dbb_decimal")
        var values: [Decimal] = []
        for _ in 0..<400 {
            let digits = (0..<Int(random.next(upTo: 30) + 1)).map { _ in String(random.next(upTo: 10)) }.joined()
            let point = Int(random.next(upTo: UInt64(digits.count + 1)))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if random.next(upTo: 2) == 0 { text = "-" + text }
            values.append(try #require(Decimal(string: text)))
        }
        // Written as Decimal writes them, and again with zeros around them.
        let padded = values.prefix(50).map { value in
            let digits = value.description.replacingOccurrences(of: "-", with: "")
            return "00" + digits + (digits.contains(".") ? "000" : ".000")
        }
        let written = values.map(\.description) + padded
        let connection = try Self.table(written)
        let sorted = try Self.texts(connection, "SELECT p FROM t ORDER BY p COLLATE dbb_decimal").map {
            try #require(Decimal(string: $0))
        }
        #expect(sorted == sorted.sorted(), "seed \(random.seed)")
        for value in values.prefix(40) {
            let count = try connection.fetchValue(
                "SELECT count(*) FROM t WHERE p = ? COLLATE dbb_decimal", [.text(value.description)], as: Int.self)
            #expect(count == written.filter { Decimal(string: $0) == value }.count, "\(value), seed \(random.seed)")
        }
    }

    @Test("a collation of one's own replaces one of its name, and is used by name")
    func ownCollation() throws {
        let connection = try SQLiteConnection.inMemory()
        try connection.add(SQLiteCollation("by_length") { $0.count - $1.count })
        try connection.execute("CREATE TABLE w (x TEXT); INSERT INTO w VALUES ('ccc'), ('a'), ('bb')")
        #expect(try Self.texts(connection, "SELECT x FROM w ORDER BY x COLLATE by_length") == ["a", "bb", "ccc"])
        try connection.add(SQLiteCollation("by_length") { $1.count - $0.count })
        #expect(try Self.texts(connection, "SELECT x FROM w ORDER BY x COLLATE by_length") == ["ccc", "bb", "a"])
        #expect(throws: SQLiteError.self) {
            _ = try Self.texts(connection, "SELECT x FROM w ORDER BY x COLLATE nowhere")
        }
    }
}
