#if Postgres
import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Values another program stored that a save would refuse: reading them must not make the
/// object unsaveable.
@Suite("A NaN another program stored in PostgreSQL")
struct ForeignNaNTests {
    @Test("is not a change: the other properties save, and the NaN stays as stored")
    func nanIsNoChange() throws {
        guard let db = try BackendDatabase(.postgresql, [Member.self]) else { return }
        let member = Member(dbManager: db.manager)
        member.name = "n"
        member.born = Date(timeIntervalSinceReferenceDate: 5)
        try member.save()
        try db.manager.execute(
            #"UPDATE "Member" SET "score" = 'NaN', "ratio" = 'NaN', "born" = 'NaN' WHERE "id" = ?"#,
            arguments: [member.id])
        let fetched = try #require(try Member.instance(id: member.id, manager: try db.reopen([Member.self])))
        #expect(
            fetched.score.isNaN && fetched.ratio.isNaN && fetched.born?.timeIntervalSinceReferenceDate.isNaN == true)
        #expect(fetched.changedPropertyNames.isEmpty, "\(fetched.changedPropertyNames)")
        fetched.name = "renamed"
        try fetched.save()
        let row = try db.manager.query(
            #"SELECT "name", "score"::text FROM "Member" WHERE "id" = ?"#, arguments: [member.id])[0]
        #expect(row.values == [.text("renamed"), .text("NaN")])
        // Setting it to a number is a change, and saves.
        fetched.score = 1.5
        #expect(fetched.changedPropertyNames == ["score"])
        try fetched.save()
    }
}
#endif
