import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Values SQLite cannot hold are refused; arrays never lose or shift elements")
struct ValueTests {
    @Test("NaN in a Double, Float or Date property is refused naming the property; nothing is written")
    func nanScalars() throws {
        let database = try ManagerTestDatabase([Measurement.self])
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

    @Test("NaN in an array is refused naming the element; infinities and signed zero round-trip in place")
    func arrays() throws {
        let database = try ManagerTestDatabase([Measurement.self])
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

    @Test("a join row another program wrote as NULL fails the fetch naming the property, instead of shifting the array")
    func foreignNullElement() throws {
        let database = try ManagerTestDatabase([Measurement.self])
        let measurement = Measurement(dbManager: database.manager)
        measurement.series = [1, 2, 3]
        try measurement.save()
        try database.connection().execute("UPDATE Measurement_series SET series = NULL WHERE series = 2")
        #expect {
            try Measurement.instance(id: measurement.id, manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidValue && error.property == "series" && error.rowID == measurement.id
        }
    }
}
