import DBBBuilder
import DBBPostgres
import DBBService
import DBBTestSupport
import DBBWeeklyReport
import Foundation
import Testing

@Suite("dbb-service on a database an older service made")
struct OlderDatabaseTests {
    @Test(
        "its Usage table (no id, text dates) is refused at open, naming the database, and kept as it was",
        arguments: Backend.allCases)
    func olderUsageTable(_ backend: Backend) async throws {
        guard let harness = try ServiceHarness(backend) else { return }
        let manager =
            switch harness.database {
            case .sqlite(let path): try DBBManager(url: URL(fileURLWithPath: try #require(path)))
            case .postgres(let primary, _): try DBBManager(postgres: primary)
            }
        // The table as the older service made it: an unquoted name, so `usage` on PostgreSQL.
        try manager.execute(
            "CREATE TABLE Usage (FacetId VARCHAR, Value INTEGER, Visits INTEGER, Date \(backend == .sqlite ? "DATETIME" : "TEXT"))"
        )
        try manager.execute("INSERT INTO Usage VALUES ('search', 300, 100, '2010-07-01')")
        do {
            _ = try await harness.instance()
            Issue.record("\(backend): a database with the older Usage table was opened")
        } catch let error as UsageData.OlderTable {
            #expect(error.database == harness.database.label && error.postgres == (backend == .postgresql))
            #expect("\(error)".contains("older dbb-demo or dbb-service"), "\(error)")
        }
        #expect(try manager.query("SELECT FacetId, Value, Visits, Date FROM Usage").count == 1, "the rows are kept")
        let tables =
            backend == .sqlite
            ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'Person'"
            : "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'Person'"
        #expect(try manager.query(tables)[0].decode(Int.self, at: 0) == 0, "refused before any table was made")
    }
}
