import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// The second version of `Company`: one more column, which registration adds.
final class CompanyV2: DBBTableObject {
    override class var databaseTableName: String { "Company" }
    var name = ""
    var blurb: Data?
    var suppliers: [CompanyV2] = []
    var founded: Date?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["name": .notNull]
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\CompanyV2.name),
                "blurb": DBBPropertyPersistence(\CompanyV2.blurb),
                "suppliers": DBBPropertyPersistence(\CompanyV2.suppliers),
                "founded": DBBPropertyPersistence(\CompanyV2.founded),
            ], for: self)
    }
}

/// The SQL the library writes, statement by statement, as the manager's trace reports it,
/// compared with `Golden/sqlite.sql` and `Golden/postgresql.sql`: table and index creation, a migration, inserts, an
/// update of the changed columns only, queries with conditions on columns and on join
/// properties, distinct, sorting, ids lists, deletes. A change to the SQL shows up as a diff
/// here; after checking it, `DBB_UPDATE_GOLDEN=1 swift test --filter GoldenSQLTests` rewrites
/// the file.
@Suite struct GoldenSQLTests {
    private final class Recorder: Sendable {
        let lines = Locked<[String]>([])
        func section(_ name: String) { lines.withLock { $0.append("-- section: \(name)") } }
        func record(_ sql: String) { lines.withLock { $0.append(sql) } }
    }

    @Test("the SQL of each dialect matches its golden file", arguments: Backend.allCases)
    func statementsMatchTheGoldenFile(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend) else { return }
        let manager = database.manager
        let recorder = Recorder()
        manager.trace { recorder.record($0) }

        recorder.section("register: tables, join tables, indexes, triggers")
        try manager.register([Member.self, Company.self, Venture.self])
        recorder.section("register again: nothing to do")
        try manager.register([Member.self, Company.self, Venture.self])
        recorder.section("migrate: a new column")
        let v2 = try database.reopen()
        v2.trace { recorder.record($0) }
        try v2.register([CompanyV2.self])
        v2.trace(nil)

        recorder.section("insert a graph")
        let acme = Company("Acme", manager: manager)
        let ada = Member("Ada", "Lovelace", age: 36, manager: manager)
        (ada.nicknames, ada.employer) = (["Enchantress", "Countess"], acme)
        let bob = Member("Bob", "Byron", age: 40, manager: manager)
        (bob.spouse, bob.employer) = (ada, acme)
        try bob.save()
        recorder.section("update one changed column")
        ada.age = 37
        try ada.save()
        recorder.section("save unchanged: nothing")
        try ada.save()
        recorder.section("update a join property")
        ada.nicknames = ["Countess"]
        try ada.save()
        recorder.section("batch insert")
        try Member.save(
            [Member("Cy", "Byron", age: 3, manager: manager), Member("Di", "Byron", age: 5, manager: manager)],
            manager: manager)

        recorder.section("query: conditions with arguments, sorting")
        var options = DBBQueryOptions.options(
            withConditions: ["lastName = ?", "age > ?"], sortColumns: ["age", "firstName"])
        options.arguments = ["Byron", 1]
        _ = try Member.instances(matching: options, manager: manager)
        recorder.section("query: a join-property condition, OR a reference")
        options = .options(withConditions: ["nicknames = ?", "OR", "spouse = ?"])
        options.arguments = ["Countess", ada.id]
        _ = try Member.instances(matching: options, manager: manager)
        recorder.section("query: distinct, property subset, descending")
        options = .options(
            properties: ["lastName"], sortColumns: ["lastName", ColumnSorting.descending], distinct: true)
        _ = try Member.instances(matching: options, manager: manager)
        recorder.section("query: ids list")
        _ = try Member.instances(ids: [bob.id, ada.id], manager: manager)
        recorder.section("all ids, count")
        _ = try Member.allIDs(manager: manager)
        recorder.section("delete one, delete by ids, delete all")
        try bob.delete()
        try Member.delete([ada], manager: manager)
        try Company.deleteAll(manager: manager)
        manager.trace(nil)
        recorder.section("tracing off")
        try Member.deleteAll(manager: manager)

        try Self.compare(recorder.lines.withLock { $0 }.joined(separator: "\n") + "\n", with: "\(backend.rawValue).sql")
    }

    /// Compares `text` with `Golden/<name>`, naming the first line that differs; with
    /// `DBB_UPDATE_GOLDEN=1`, writes `text` there first.
    static func compare(_ text: String, with name: String) throws {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Golden/\(name)")
        if ProcessInfo.processInfo.environment["DBB_UPDATE_GOLDEN"] == "1" {
            try text.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        let (got, want) = (
            text.split(separator: "\n", omittingEmptySubsequences: false),
            expected.split(separator: "\n", omittingEmptySubsequences: false)
        )
        let firstDifference =
            zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? (got.count == want.count ? nil : min(got.count, want.count))
        #expect(
            firstDifference == nil,
            """
            the SQL differs from Golden/\(name) at line \((firstDifference ?? 0) + 1):
              now:    \(firstDifference.map { $0 < got.count ? String(got[$0]) : "(end)" } ?? "")
              golden: \(firstDifference.map { $0 < want.count ? String(want[$0]) : "(end)" } ?? "")
            """)
    }
}
