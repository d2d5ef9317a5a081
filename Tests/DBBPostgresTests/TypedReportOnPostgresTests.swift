#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// A day of a typed report on PostgreSQL only.
@DBBTable
final class ReportDay: DBBTableObject {
    var day: Date?
}

@Suite struct TypedReportOnPostgresTests {
    @Test("a read-only manager without the locale functions gets the error that says how to install them")
    func readOnlyWithoutFunctions() throws {
        guard let database = try BackendDatabase(.postgresql, [ReportDay.self]) else { return }
        let saved = ReportDay(dbManager: database.manager)
        saved.day = Date(timeIntervalSinceReferenceDate: 0)
        try saved.save()
        try database.manager.uninstallLocaleFunctions()
        let reader = try database.readOnly([ReportDay.self])
        let error = try #require(throws: DBBError.self) {
            try ReportDay.select(.week(of: \.day, in: "en_US")).rows(reader)
        }
        #expect(error.message.contains("installLocaleFunctions()"), "\(error.message)")
        #expect(try ReportDay.select(.count()).rows(reader)[0] == 1)
    }
}
#endif
