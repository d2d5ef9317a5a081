// Only DBBBuilder is imported: raw SQL and its values must work with it alone.
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@Suite("Raw SQL in Swift terms: arguments as Swift values, rows decoded by name or index")
struct RawRowsTests {
    @Test("Swift values as arguments: integers, text, a Date as a table-object column stores it, nil")
    func swiftArguments() throws {
        let database = try ManagerTestDatabase([Project.self])
        let m = database.manager
        let project = Project(dbManager: m)
        project.name = "Apollo"
        project.startDate = Date(timeIntervalSinceReferenceDate: 123_456.75)
        try project.save()
        let id: Int64 = project.id
        let start = try #require(project.startDate)

        let rows = try m.query(
            "SELECT itemName FROM Project WHERE id = ? AND startDate = ? AND endDate IS ?",
            arguments: [id, start, nil])
        #expect(try rows.map { try $0.decode(String.self, "itemName") } == ["Apollo"])
        try m.execute("UPDATE Project SET code = ?, budget = ? WHERE id = ?", arguments: ["A-1", 2.5, id])
        try m.execute("UPDATE Project SET endDate = ? WHERE id = ?", arguments: [.real(200_000), .integer(id)])
        let fetched = try #require(try Project.instance(id: id, manager: m))
        #expect(fetched.code == "A-1" && fetched.budget == 2.5)
        #expect(fetched.endDate == Date(timeIntervalSinceReferenceDate: 200_000))
    }

    @Test("decoding: SQLite's conversions, optionals for NULL, dates from table-object columns")
    func decoding() throws {
        let database = try ManagerTestDatabase([Project.self])
        let m = database.manager
        let project = Project(dbManager: m)
        project.name = "Gemini"
        project.startDate = Date(timeIntervalSinceReferenceDate: -86_400.5)  // before 2001
        try project.save()
        let row = try #require(
            try m.query(
                """
                SELECT 42 AS answer, 2.5 AS half, '17' AS digits, NULL AS empty, startDate, itemName AS Name
                FROM Project
                """
            ).first)
        #expect(try row.decode(String.self, "answer") == "42", "an integer reads as its text")
        #expect(try row.decode(String.self, "half") == "2.5")
        #expect(try row.decode(Int.self, "digits") == 17, "text that spells a number reads as it")
        #expect(try row.decode(Double.self, "answer") == 42)
        #expect(try row.decode(Double?.self, "empty") == nil)
        #expect(try row.decode(Date.self, "startDate") == project.startDate)
        #expect(try row.decode(String.self, "name") == "Gemini", "names match as SQLite matches them, ignoring case")
        #expect(try row.decode(Int.self, at: 0) == 42)
        #expect(row["half", as: Double.self] == 2.5)
        #expect(row["empty", as: Int.self] == nil && row["missing", as: Int.self] == nil)
        let value: SQLiteValue? = row["answer"]
        #expect(value == .integer(42))
    }

    @Test("a value that cannot be read is a typed error naming the column")
    func decodingErrors() throws {
        let database = try ManagerTestDatabase()
        let row = try #require(try database.manager.query("SELECT NULL AS empty, 'abc' AS word").first)
        for (attempt, fragment) in [
            ({ _ = try row.decode(Int.self, "empty") }, "column empty is NULL: decode it as Int? to accept NULL"),
            ({ _ = try row.decode(Int.self, "word") }, "column word holds"),
            ({ _ = try row.decode(Int.self, "missing") }, "no column missing (its columns: empty, word)"),
            ({ _ = try row.decode(Int.self, at: 5) }, "no column 5"),
        ] as [(() throws -> Void, String)] {
            #expect {
                try attempt()
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .invalidValue && error.description.contains(fragment)
            }
        }
    }

    @Test("a real reads as text exactly as SQLite's CAST(x AS TEXT) writes it")
    func realsAsText() throws {
        let database = try ManagerTestDatabase()
        let values: [Double] = [
            0.1, 1, -2.5, 1e20, 1.0 / 3, 123_456_789_012_345_680, .leastNonzeroMagnitude, -0.0, 1e15, 1e16,
            .infinity, -.infinity, 1e-5, 12_345.678_9,
        ]
        for value in values {
            let row = try #require(
                try database.manager.query("SELECT ? AS x, CAST(? AS TEXT) AS t", arguments: [value, value]).first)
            #expect(try row.decode(String.self, "x") == row.decode(String.self, "t"), "\(value): \(row.values)")
        }
    }
}
