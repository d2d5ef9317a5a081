import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// The SQL and arguments of the set-based writes (`update(…, where:)`, `delete(where:)`), per
/// dialect, compared with `Golden/writes-sqlite.sql` and `Golden/writes-postgresql.sql`
/// (`DBB_UPDATE_GOLDEN=1 swift test --filter WriteGoldenSQLTests` rewrites them). An update's
/// first argument, the `modifiedTime` it sets, is the time of the call: written as `now`.
@Suite struct WriteGoldenSQLTests {
    @Test("each write's SQL and arguments match the dialect's golden file", arguments: Backend.allCases)
    func writesMatchTheGoldenFile(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Visit.self, Volume.self, Writer.self, Voucher.self])
        else { return }
        let manager = database.manager
        var lines: [String] = []
        func record(_ name: String, _ write: DBBWrite<some DBBTableObject>, update: Bool = true) throws {
            let sql = try write.sql(on: manager)
            let arguments = update ? ["now"] + sql.arguments.dropFirst().map { "\($0)" } : sql.arguments.map { "\($0)" }
            lines += ["-- \(name)", sql.sql, "-- arguments: \(arguments)"]
        }
        let hostile = "'; DROP TABLE \"Visit\"; --"
        let knuth = Writer(dbManager: manager)
        knuth.name = "Knuth"
        try knuth.save()

        try record(
            "values, NULL and an expression",
            Visit.updating(
                .set(\.page, to: hostile), .set(\.referrer, to: nil), .set(\.clicks, to: .column(\.clicks) * 2 + 1),
                where: \.seconds > 10 && \.page != hostile))
        try record(
            "an optional set from an expression, every row",
            Visit.updating(.set(\.referrer, to: .coalesce(\.referrer, "") + "?"), where: .all))
        try record(
            "Decimal and UUID take their column's placeholder",
            Voucher.updating(
                .set(\.amount, to: Decimal(string: "10.50")!),
                .set(\.reference, to: UUID(uuidString: "0F0F0F0F-0000-0000-0000-000000000001")!),
                where: \.amount < Decimal(string: "10.50")!))
        try record(
            "an update by reference and array",
            Volume.updating(
                .set(\.year, to: 1968), where: \.author == knuth || .contains(\.tags, "formal")))
        try record("a delete", Visit.deleting(where: \.clicks == 0 && .isNull(\.day)), update: false)
        try record(
            "a delete by array and subquery",
            Volume.deleting(where: !.contains(\.tags, "keep") && .in(\.year, Visit.select(.column(\.clicks)))),
            update: false)
        try record("a delete of every row", Visit.deleting(where: .all), update: false)

        try GoldenSQLTests.compare(lines.joined(separator: "\n") + "\n", with: "writes-\(backend.rawValue).sql")
    }
}
