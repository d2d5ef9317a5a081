import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Values an engine cannot hold are refused; arrays never lose or shift elements")
struct ValueTests {
    @Test(
        "NaN in a Double, Float or Date property is refused naming the property; nothing is written",
        arguments: Backend.allCases)
    func nanScalars(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Measurement.self]) else { return }
        let cases: [(String, (Measurement) -> Void)] = [
            ("reading", { $0.reading = .nan }),
            ("ratio", { $0.ratio = .nan }),
            ("takenAt", { $0.takenAt = Date(timeIntervalSinceReferenceDate: .nan) }),
        ]
        for (property, spoil) in cases {
            let measurement = Measurement(dbManager: database.manager)
            spoil(measurement)
            #expect {
                try measurement.save()
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .invalidValue && error.table == "Measurement" && error.property == property
            }
            #expect(measurement.id == 0)
        }
        // An update with NaN leaves the stored value.
        let kept = Measurement(dbManager: database.manager)
        kept.reading = 1.5
        try kept.save()
        kept.reading = -.nan
        #expect(throws: DBBError.self) { try kept.save() }
        #expect(try Measurement.instance(id: kept.id, manager: database.manager)?.reading == 1.5)
        #expect(try database.manager.count(of: "Measurement") == 1)
    }

    @Test(
        "an unsigned integer above Int64.max is refused naming the property or element; Int64.max itself is stored and compares in SQL",
        arguments: Backend.allCases)
    func unsignedAboveInt64(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Tally.self]) else { return }
        let m = database.manager
        let tally = Tally(dbManager: m)
        tally.total = UInt64(Int64.max) + 1
        #expect {
            try tally.save()
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidValue && error.table == "Tally" && error.property == "total"
                && error.message.contains("9223372036854775807")
        }
        #expect(tally.id == 0)
        #expect(try m.count(of: "Tally") == 0)
        (tally.total, tally.steps) = (UInt64(Int64.max), [1, UInt.max])
        #expect {
            try tally.save()
        } throws: { error in
            (error as? DBBError)?.property == "steps[1]"
        }
        #expect(try m.count(of: "Tally") == 0 && m.count(of: "Tally_steps") == 0)
        tally.steps = [1, UInt(Int64.max)]
        try tally.save()
        let small = Tally(dbManager: m)
        small.total = 5
        try small.save()
        var options = DBBQueryOptions.options(withConditions: ["total > ?"], sortColumns: ["total"])
        options.arguments = [UInt64(5)]
        #expect(try Tally.instances(matching: options, manager: m).map(\.total) == [UInt64(Int64.max)])
        options.arguments = [UInt64.max]
        #expect(
            try Tally.instances(matching: options, manager: m).isEmpty, "bound as a REAL above every stored integer")
        #expect(try Tally.instance(id: tally.id, manager: m)?.steps == [1, UInt(Int64.max)])
    }

    @Test(
        "NaN in an array is refused naming the element; infinities and signed zero round-trip in place",
        arguments: Backend.allCases)
    func arrays(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Measurement.self]) else { return }
        let measurement = Measurement(dbManager: database.manager)
        measurement.series = [.nan, .infinity, 1.5]
        #expect {
            try measurement.save()
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidValue && error.property == "series[0]"
        }
        #expect(try database.manager.count(of: "Measurement") == 0)
        measurement.series = [.infinity, -.infinity, 1.5, -0.0, .greatestFiniteMagnitude]
        try measurement.save()
        let back = try #require(try Measurement.instance(id: measurement.id, manager: database.manager))
        #expect(back.series == [.infinity, -.infinity, 1.5, 0, .greatestFiniteMagnitude])
    }

    @Test(
        "a join row another program wrote as NULL fails the fetch naming the property, instead of shifting the array",
        arguments: Backend.allCases)
    func foreignNullElement(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Measurement.self]) else { return }
        let measurement = Measurement(dbManager: database.manager)
        measurement.series = [1, 2, 3]
        try measurement.save()
        try database.manager.execute(#"UPDATE "Measurement_series" SET "series" = NULL WHERE "series" = 2"#)
        #expect {
            try Measurement.instance(id: measurement.id, manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidValue && error.property == "series" && error.rowID == measurement.id
        }
    }

    @Test(
        "a Bool column holding another integer than 0 or 1 fails the fetch naming property, row and value",
        arguments: Backend.allCases)
    func foreignBoolInteger(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [AllTypes.self]) else { return }
        let row = AllTypes(dbManager: database.manager)
        row.bool = true
        try row.save()
        #expect(try AllTypes.instance(id: row.id, manager: database.manager)?.bool == true)
        try database.manager.execute(#"UPDATE "AllTypes" SET "bool" = 2"#)
        #expect {
            try AllTypes.all(manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidValue && error.property == "bool" && error.rowID == row.id
                && error.description.contains("neither 0 nor 1")
        }
        #expect(try database.scalar(#"SELECT "bool" FROM "AllTypes""#, as: Int.self) == 2)
    }

    @Test(
        "an integer another program stored out of the property's range fails the fetch naming property and row; the row stays",
        arguments: Backend.allCases)
    func foreignOutOfRangeInteger(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [AllTypes.self, Tally.self]) else { return }
        let row = AllTypes(dbManager: database.manager)
        row.int8 = 100
        try row.save()
        let tally = Tally(dbManager: database.manager)
        try tally.save()
        try database.manager.execute(#"UPDATE "AllTypes" SET "int8" = 300"#)
        try database.manager.execute(#"UPDATE "Tally" SET "total" = -5"#)
        for (fetch, property, id) in [
            ({ _ = try AllTypes.all(manager: database.manager) }, "int8", row.id),
            ({ _ = try Tally.instance(id: tally.id, manager: database.manager) }, "total", tally.id),
        ]
            as [(() throws -> Void, String, Int64)]
        {
            #expect {
                try fetch()
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .invalidValue && error.property == property && error.rowID == id
                    && error.description.contains(property == "int8" ? "300" : "-5")
            }
        }
        // Nothing was read, so nothing can be written back over the stored value.
        #expect(try database.scalar(#"SELECT "int8" FROM "AllTypes""#, as: Int.self) == 300)
        var partial = DBBQueryOptions.options(withConditions: ["int8 = ?"], properties: ["int16"])
        partial.arguments = [300]
        #expect(
            try AllTypes.instances(matching: partial, manager: database.manager).count == 1,
            "a fetch not reading int8 works")
    }

    @Test(
        "a value of another kind that another program stored (a fraction or text in a number column, text in a date) fails the fetch; SQLite would read another number"
    )
    func foreignValueOfAnotherKind() throws {
        guard let database = try BackendDatabase(.sqlite, [AllTypes.self]) else { return }
        let row = AllTypes(dbManager: database.manager)
        try row.save()
        for (column, value, property) in [
            ("int", "1.5", "int"), ("int", "'abc'", "int"), ("int", "x'00'", "int"),
            ("bool", "'yes'", "bool"), ("double", "'NaN'", "double"), ("single", "'1e300x'", "float"),
            ("date", "'yesterday'", "date"), ("int64", "9.3e18", "int64"),
        ] {
            try database.manager.execute("UPDATE AllTypes SET \(column) = \(value)")
            #expect {
                _ = try AllTypes.all(manager: database.manager)
            } throws: { error in
                let error = try #require(error as? DBBError)
                return error.kind == .invalidValue && error.property == property && error.rowID == row.id
            }
            try database.manager.execute("UPDATE AllTypes SET \(column) = 0")
        }
        #expect(
            try AllTypes.all(manager: database.manager).count == 1,
            "whole numbers in a REAL column and 0 read as before")
    }
}

/// Unsigned counters, which SQLite's 64-bit integers hold only up to `Int64.max`.
final class Tally: DBBTableObject {
    var total: UInt64 = 0
    var steps: [UInt] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "total": DBBPropertyPersistence(\Tally.total),
                "steps": DBBPropertyPersistence(\Tally.steps),
            ], for: self)
    }
}
