#if Postgres
import DBBBuilder
import DBBPostgres
import DBBTestSupport
import Foundation
import Testing

/// `Parcel` with an `Int` weight, as the first release maps it.
@DBBTable(tableName: "Parcel")
final class ParcelInt: DBBTableObject {
    var weight = 0
    var note = ""
}

/// `Parcel` with an 8-bit weight.
@DBBTable(tableName: "Parcel")
final class ParcelInt8: DBBTableObject {
    var weight: Int8 = 0
    var note = ""
}

/// `Parcel` with a `Double` weight, whose column would have to become `double precision`.
@DBBTable(tableName: "Parcel")
final class ParcelDouble: DBBTableObject {
    var weight = 0.0
    var note = ""
}

/// `Parcel` without `note`.
@DBBTable(tableName: "Parcel")
final class ParcelWithoutNote: DBBTableObject {
    var weight = 0
}

@Suite("A read-only manager reads the schema catalog and never writes it")
struct ReadOnlyCatalogTests {
    private func readOnly(_ url: String) throws -> DBBManager {
        var configuration = try DBBPostgresConfiguration(url: url)
        configuration.readOnly = true
        return try DBBManager(postgres: configuration)
    }

    /// The catalog's rows, with the transaction that wrote each.
    private func rows(_ manager: DBBManager) throws -> [String] {
        try manager.query(
            #"SELECT "property" || ' ' || "swift_type" || ' ' || "mapped" || ' ' || xmin::text FROM "dbb_columns" ORDER BY 1"#
        ).map { try $0.decode(String.self, at: 0) }
    }

    @Test("a read-only manager judges type changes by the rows and the catalog, and writes nothing")
    func readOnlyManager() throws {
        guard let server = try TestPostgresServer.shared() else { return }
        let url = try server.makeDatabase()
        let writer = try DBBManager(postgres: url)
        try writer.register([ParcelInt.self])
        let parcel = ParcelInt(dbManager: writer)
        parcel.weight = 300
        try parcel.save()
        let catalog = try rows(writer)
        #expect(catalog.count == 2)

        try readOnly(url).register([ParcelInt.self])
        try readOnly(url).register([ParcelWithoutNote.self])  // the writer would mark `note`
        let narrowing = try #require(throws: DBBError.self) { try readOnly(url).register([ParcelInt8.self]) }
        #expect(
            narrowing.kind == .migrationRefused && narrowing.rowID == parcel.id && narrowing.message.contains("300"))
        parcel.weight = 3
        try parcel.save()
        let reader = try readOnly(url)
        try reader.register([ParcelInt8.self])
        #expect(try ParcelInt8.all(manager: reader).map(\.weight) == [3])
        let retype = try #require(throws: DBBError.self) { try readOnly(url).register([ParcelDouble.self]) }
        #expect(
            retype.kind == .migrationRefused && retype.property == "weight" && retype.message.contains("read-only")
                && retype.message.contains("double precision"), "\(retype)")
        #expect(try rows(writer) == catalog)

        // A database without the catalog stays without it.
        try writer.execute(#"DROP TABLE "dbb_columns""#)
        try readOnly(url).register([ParcelInt.self])
        #expect(try writer.query("SELECT to_regclass('dbb_columns') IS NULL")[0].decode(Int.self, at: 0) == 1)
    }
}
#endif
