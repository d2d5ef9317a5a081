import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// The value types between backends: `copyTables(of:from:)` moves a SQLite file's rows into
/// PostgreSQL and back with every decimal digit, UUID, enum raw value and JSON value, and
/// `copy(_:)` copies objects across; a value the destination's column would not take is
/// refused before anything is written.
@Suite("Value types: copies between SQLite and PostgreSQL")
struct ValueTypeCopyTests {
    /// Vouchers of every kind on a SQLite file: filled, plain, with extremes.
    static func seeded() throws -> BackendDatabase {
        let db = try #require(try BackendDatabase(.sqlite, [Voucher.self]))
        var vouchers = [ValueTypeTests.filled(db.manager), Voucher(dbManager: db.manager)]
        for (index, text) in ["12345678901234567890123456789012345678", "-0.00000001", "1.10", "0"].enumerated() {
            let voucher = ValueTypeTests.filled(db.manager)
            voucher.amount = ValueTypeTests.decimal(text)
            voucher.token = UUID()
            voucher.stage = [.draft, .review, .published][index % 3]
            voucher.address.zip = index
            vouchers.append(voucher)
        }
        try Voucher.save(vouchers, manager: db.manager)
        // Written by other SQL: trailing zeros and an upper-case UUID, each the same value.
        try db.manager.execute(
            #"UPDATE "Voucher" SET "amount" = '2.50', "token" = 'F47AC10B-58CC-4372-A567-0E02B2C3D479' WHERE "id" = 2"#)
        return db
    }

    /// The objects of `manager`, as the tests compare them, in id order.
    static func shown(_ manager: DBBManager) throws -> [[String]] {
        try Voucher.instances(manager: manager).map { [String($0.id)] + ValueTypeTests.shown($0) }
    }

    @Test("copyTables moves every value from SQLite to PostgreSQL and back exactly")
    func tablesThereAndBack() throws {
        let source = try Self.seeded()
        guard let server = try BackendDatabase(.postgresql) else { return }
        let copied = try server.manager.copyTables(of: [Voucher.self], from: source.manager)
        #expect(copied["Voucher"] == 6 && copied["Voucher_prices"] == 15, "\(copied)")
        let expected = try Self.shown(source.manager)
        #expect(try Self.shown(server.manager) == expected)
        // Numeric keeps the digits as written; the uuid is one value in either case.
        #expect(
            try server.scalar(#"SELECT CAST("amount" AS text) FROM "Voucher" WHERE "id" = 2"#, as: String.self)
                == "2.50")
        // Typed conditions on the copy find what they found on the file.
        let condition: DBBCondition<Voucher> = \.amount > ValueTypeTests.decimal("1.1") && \.stage != .review
        #expect(
            try Voucher.instances(where: condition, manager: server.manager).map(\.id)
                == Voucher.instances(where: condition, manager: source.manager).map(\.id))

        let back = try #require(try BackendDatabase(.sqlite))
        try back.manager.copyTables(of: [Voucher.self], from: server.manager)
        #expect(try Self.shown(back.manager) == expected)
        // Every column but JSON (which jsonb writes its own way: spaces, key order) is the
        // same text it was, the UUID aside, which PostgreSQL gives in lower case.
        let columns = #""id", "amount", "fee", "reference", "home", "link", "stage", "previous", "urgency""#
        let rows = { (db: BackendDatabase) in
            try db.manager.query(#"SELECT \#(columns) FROM "Voucher" ORDER BY "id""#).map(\.values)
        }
        #expect(try rows(back) == rows(source))
        #expect(
            try back.scalar(#"SELECT "token" FROM "Voucher" WHERE "id" = 2"#, as: String.self)
                == "f47ac10b-58cc-4372-a567-0e02b2c3d479")
        for table in ["Voucher_tokens", "Voucher_stages", "Voucher_prices", "Voucher_links"] {
            let sql = #"SELECT * FROM "\#(table)" ORDER BY "id""#
            #expect(try back.manager.query(sql).map(\.values) == source.manager.query(sql).map(\.values), "\(table)")
        }
    }

    @Test("copy(_:) copies objects across backends with their values")
    func objectsAcross() throws {
        let source = try Self.seeded()
        guard let server = try BackendDatabase(.postgresql, [Voucher.self]) else { return }
        let originals = try Voucher.instances(manager: source.manager)
        let copies = try server.manager.copy(originals)
        #expect(copies.map(ValueTypeTests.shown) == originals.map(ValueTypeTests.shown))
        let fetched = try Voucher.instances(manager: server.manager)
        #expect(fetched.map(ValueTypeTests.shown) == originals.map(ValueTypeTests.shown))
    }

    @Test("a text in a decimal, UUID or JSON column that is none is refused by the copy, which writes nothing")
    func hostileSourceRefused() throws {
        for (column, text) in [("amount", "12,50"), ("token", "{not-a-uuid}"), ("address", "{\"street\":")] {
            let source = try Self.seeded()
            guard let server = try BackendDatabase(.postgresql) else { return }
            try source.manager.execute(#"UPDATE "Voucher" SET "\#(column)" = ? WHERE "id" = 3"#, arguments: [text])
            let error = try #require(throws: DBBError.self, "\(column) = \(text)") {
                try server.manager.copyTables(of: [Voucher.self], from: source.manager)
            }
            #expect(
                error.kind == .invalidValue && error.table == "Voucher" && error.property == column && error.rowID == 3,
                "\(error)")
            #expect(try server.rows(of: "Voucher") == 0)
        }
    }
}
