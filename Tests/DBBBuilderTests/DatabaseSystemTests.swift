import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@Suite("DBBManager.databaseSystem names the engine")
struct DatabaseSystemTests {
    @Test("sqlite or postgresql, as OpenTelemetry's db.system", arguments: Backend.allCases)
    func names(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend) else { return }
        #expect(database.manager.databaseSystem == (backend == .sqlite ? "sqlite" : "postgresql"))
        // The engine answers the same SQL differently: the name is the one that decides.
        let caseBlind = try database.manager.query("SELECT CASE WHEN 'a' LIKE 'A' THEN 1 ELSE 0 END AS x")
        #expect(caseBlind[0]["x", as: Int.self] == (backend == .sqlite ? 1 : 0))
    }

    @Test("a SQLite manager that could not open its file still names its engine")
    func failedOpen() throws {
        let directory = try TemporaryDirectory()
        // DBBBuilder's form, which keeps the failure in errorMessage(): a folder is no database.
        let manager = DBBManager(databaseURL: directory.url)
        #expect(!manager.errorMessage().isEmpty)
        #expect(manager.databaseSystem == "sqlite")
    }
}
