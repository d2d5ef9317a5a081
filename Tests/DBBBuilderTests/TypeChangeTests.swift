import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// A property whose Swift type changes between versions: applied when every stored value comes
/// back through the new type, refused naming a row whose value would not, before anything changes.
@Suite("Type changes are judged by the stored values")
struct TypeChangeTests {
    /// The declared type of `column` of `table`.
    private func declaredType(_ database: BackendDatabase, _ table: String, _ column: String) throws -> String? {
        try database.columns(of: table).first { $0.name == column }?.type
    }

    private func integerType(_ backend: Backend) -> String { backend == .sqlite ? "INTEGER" : "bigint" }
    private func realType(_ backend: Backend) -> String { backend == .sqlite ? "REAL" : "double precision" }

    /// What the catalog records of `Reading`: property, Swift type, mapped.
    private func recorded(_ database: BackendDatabase) throws -> [String] {
        try database.manager.query(
            #"SELECT "property", "swift_type", "mapped" FROM "dbb_columns" WHERE "table_name" = 'Reading' ORDER BY 1"#
        ).map {
            "\(try $0.decode(String.self, at: 0)) \(try $0.decode(String.self, at: 1)) \(try $0.decode(Int.self, at: 2))"
        }
    }

    /// Saves a `ReadingInt` through `manager`.
    @discardableResult
    private func saveInt(_ value: Int, _ samples: [Int] = [], _ manager: DBBManager) throws -> ReadingInt {
        let reading = ReadingInt(dbManager: manager)
        (reading.value, reading.samples) = (value, samples)
        try reading.save()
        return reading
    }

    @Test(
        "widening (Int8 → Int → Double) is applied, every row read back; Int → Double makes the columns real",
        arguments: Backend.allCases)
    func widening(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ReadingInt8.self]) else { return }
        var ids: [Int64] = []
        for (value, samples) in [(Int8(127), [Int8(-128), 5]), (-100, [])] {
            let reading = ReadingInt8(dbManager: database.manager)
            (reading.value, reading.samples) = (value, samples)
            try reading.save()
            ids.append(reading.id)
        }
        let int = try database.reopen([ReadingInt.self])
        #expect(try declaredType(database, "Reading", "value") == integerType(backend))
        #expect(try ReadingInt.all(manager: int).map(\.value) == [127, -100])
        ids.append(try saveInt(1 << 40, [1 << 50], int).id)
        #expect(try recorded(database).contains("value Int 1"))

        let double = try database.reopen([ReadingDouble.self])
        #expect(try declaredType(database, "Reading", "value") == realType(backend))
        #expect(try declaredType(database, "Reading_samples", "samples") == realType(backend))
        let readings = try ReadingDouble.all(manager: double).sorted { $0.id < $1.id }
        #expect(readings.map(\.id) == ids)
        #expect(readings.map(\.value) == [127, -100, 1_099_511_627_776])
        #expect(readings.map(\.samples) == [[-128, 5], [], [1_125_899_906_842_624]])
        #expect(try recorded(database).contains("value Double 1"))
        #expect(try database.indexes(of: "Reading").contains("Reading_value"))
        let half = ReadingDouble(dbManager: double)
        (half.value, half.samples) = (2.5, [0.25])
        try half.save()
        #expect(try ReadingDouble.instance(id: half.id, manager: try database.reopen())?.samples == [0.25])
        // The join rows still go with their rows.
        try readings[0].delete()
        #expect(
            try database.scalar(
                #"SELECT count(*) FROM "Reading_samples" WHERE "Reading_ID" = ?"#, [ids[0]], as: Int.self) == 0)
        #expect(try database.rows(of: "Reading_samples") == 2)
        if backend == .sqlite {
            #expect(try database.scalar("PRAGMA integrity_check", as: String.self) == "ok")
        }
    }

    @Test(
        "Int → Int8 is refused naming the row id of the 300, nothing changed, the old class still reads and writes; applied once every row fits",
        arguments: Backend.allCases)
    func narrowingIntegers(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ReadingInt.self]) else { return }
        try saveInt(5, [1], database.manager)
        let big = try saveInt(300, [2], database.manager)
        let layout = try database.layout()
        let catalog = try recorded(database)

        let refused = try #require(throws: DBBError.self) { try database.reopen([ReadingInt8.self]) }
        #expect(refused.kind == .migrationRefused && refused.table == "Reading" && refused.property == "value")
        #expect(refused.rowID == big.id)
        #expect(
            refused.message.contains("row id \(big.id)") && refused.message.contains("300")
                && refused.message.contains(String(reflecting: ReadingInt8.self)) && refused.message.contains("Int8"),
            "\(refused)")
        #expect(!refused.isRetryable)
        #expect(try database.layout() == layout)
        #expect(try recorded(database) == catalog)
        let thousand = try saveInt(1_000, [], database.manager)
        #expect(try ReadingInt.all(manager: database.manager).map(\.value).sorted() == [5, 300, 1_000])
        try thousand.delete()

        // A value in an array counts as much: its object is named.
        big.value = 7
        big.samples = [2, -300]
        try big.save()
        let inArray = try #require(throws: DBBError.self) { try database.reopen([ReadingInt8.self]) }
        #expect(inArray.property == "samples" && inArray.rowID == big.id && inArray.message.contains("-300"))

        big.samples = [2, -128]
        try big.save()
        let narrow = try database.reopen([ReadingInt8.self])
        let readings = try ReadingInt8.all(manager: narrow).sorted { $0.id < $1.id }
        #expect(readings.map(\.value) == [5, 7] && readings.map(\.samples) == [[1], [2, -128]])
        #expect(try recorded(database).contains("value Int8 1"))
        #expect(try declaredType(database, "Reading", "value") == integerType(backend))
    }

    @Test(
        "Double → Float is refused for 1e300 and for a value a Float rounds (0.1), applied when every value fits",
        arguments: Backend.allCases)
    func doubleToFloat(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ReadingDouble.self]) else { return }
        let reading = ReadingDouble(dbManager: database.manager)
        (reading.value, reading.samples) = (1e300, [0.5])
        try reading.save()
        let layout = try database.layout()
        for (value, shown) in [(1e300, "1e+300"), (0.1, "0.1")] {
            reading.value = value
            try reading.save()
            let refused = try #require(throws: DBBError.self) { try database.reopen([ReadingFloat.self]) }
            #expect(
                refused.kind == .migrationRefused && refused.property == "value" && refused.rowID == reading.id
                    && refused.message.contains(shown) && refused.message.contains("Float"), "\(refused)")
            #expect(try database.layout() == layout)
        }
        reading.value = -2.25
        try reading.save()
        let float = try database.reopen([ReadingFloat.self])
        let back = try #require(try ReadingFloat.all(manager: float).first)
        #expect(back.value == -2.25 && back.samples == [0.5])
        // And back: Float → Double widens, with nothing to look at or change.
        let double = try database.reopen([ReadingDouble.self])
        #expect(try ReadingDouble.all(manager: double).map(\.value) == [-2.25])
        #expect(try database.layout() == layout)
    }

    @Test(
        "Int → Double is refused for 2^53 + 1, which a Double rounds, and applied for 2^60, which it holds",
        arguments: Backend.allCases)
    func intToDoubleExactly(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ReadingInt.self]) else { return }
        try saveInt(1, [], database.manager)
        let reading = try saveInt((1 << 53) + 1, [], database.manager)
        let layout = try database.layout()
        let refused = try #require(throws: DBBError.self) { try database.reopen([ReadingDouble.self]) }
        #expect(
            refused.kind == .migrationRefused && refused.property == "value" && refused.rowID == reading.id
                && refused.message.contains("9007199254740993"), "\(refused)")
        #expect(try database.layout() == layout)
        #expect(try declaredType(database, "Reading", "value") == integerType(backend))

        reading.value = 1 << 60
        try reading.save()
        let double = try database.reopen([ReadingDouble.self])
        #expect(try ReadingDouble.all(manager: double).map(\.value).sorted() == [1, 1_152_921_504_606_846_976])
        #expect(try declaredType(database, "Reading", "value") == realType(backend))
    }

    @Test(
        "Double → Int is refused for a fraction, applied when every value is whole; the column becomes an integer one",
        arguments: Backend.allCases)
    func doubleToInt(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ReadingDouble.self]) else { return }
        let reading = ReadingDouble(dbManager: database.manager)
        (reading.value, reading.samples) = (1.5, [3])
        try reading.save()
        let refused = try #require(throws: DBBError.self) { try database.reopen([ReadingInt.self]) }
        #expect(refused.property == "value" && refused.rowID == reading.id && refused.message.contains("1.5"))
        #expect(try declaredType(database, "Reading", "value") == realType(backend))
        reading.value = -3
        try reading.save()
        let int = try database.reopen([ReadingInt.self])
        #expect(try declaredType(database, "Reading", "value") == integerType(backend))
        #expect(try declaredType(database, "Reading_samples", "samples") == integerType(backend))
        let back = try #require(try ReadingInt.all(manager: int).first)
        #expect(back.value == -3 && back.samples == [3])
        #expect(try database.scalar(#"SELECT "value" FROM "Reading""#, as: Int.self) == -3)
    }

    @Test(
        "without a catalog (a file DBBBuilder wrote), a type narrower than the column's is checked against the rows",
        arguments: Backend.allCases)
    func withoutCatalog(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ReadingInt.self]) else { return }
        let reading = try saveInt(300, [], database.manager)
        try database.manager.execute(#"DROP TABLE "dbb_columns""#)
        let refused = try #require(throws: DBBError.self) { try database.reopen([ReadingInt8.self]) }
        #expect(refused.property == "value" && refused.rowID == reading.id && refused.message.contains("300"))
        #expect(try !database.tableExists("dbb_columns"))
        reading.value = 100
        try reading.save()
        let narrow = try database.reopen([ReadingInt8.self])
        #expect(try ReadingInt8.all(manager: narrow).map(\.value) == [100])
        #expect(try recorded(database) == ["note String 1", "samples Array<Int8> 1", "value Int8 1"])
    }

    @Test(
        "a fetch that meets a value its property cannot hold names class, property, row id and value",
        arguments: Backend.allCases)
    func unreadableValueNamesTheRow(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [ReadingInt8.self]) else { return }
        for _ in 0..<2 { try ReadingInt8(dbManager: database.manager).save() }
        let last = ReadingInt8(dbManager: database.manager)
        try last.save()
        try database.manager.execute(#"UPDATE "Reading" SET "value" = 300 WHERE "id" = ?"#, arguments: [last.id])
        let error = try #require(throws: DBBError.self) { try ReadingInt8.all(manager: database.manager) }
        #expect(error.kind == .invalidValue && error.property == "value" && error.rowID == last.id)
        #expect(
            error.description.contains("row id \(last.id) of \(String(reflecting: ReadingInt8.self))")
                && error.description.contains("300"), "\(error)")
    }
}
