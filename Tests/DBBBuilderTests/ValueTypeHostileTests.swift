import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// What the value types refuse: a raw value the enum has no case for, stored text that is not
/// a decimal, a UUID, a URL or the JSON of the type, NaN, a value that does not encode — each a
/// typed error naming class, property and row, and nothing stored by a refused save.
@Suite("Value types: hostile values")
struct ValueTypeHostileTests {
    /// The error of fetching the ledger with `id`.
    static func fetchError(_ id: Int64, _ manager: DBBManager) throws -> DBBError {
        try #require(throws: DBBError.self) { _ = try Voucher.instance(id: id, manager: manager) }
    }

    @Test(
        "a raw value the enum has no case for (String and Int enums, arrays) fails the fetch naming it",
        arguments: Backend.allCases)
    func unknownCase(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let ledger = Voucher(dbManager: db.manager)
        try ledger.save()
        try db.manager.execute(#"UPDATE "Voucher" SET "stage" = 'archived' WHERE "id" = ?"#, arguments: [ledger.id])
        var error = try Self.fetchError(ledger.id, db.manager)
        #expect(error.kind == .invalidValue && error.table == "Voucher" && error.property == "stage", "\(error)")
        #expect(error.rowID == ledger.id && error.message.contains("'archived'") && error.message.contains("Stage"))
        // Typed conditions still find the row by its other columns; the fetch refuses it the same.
        #expect(throws: DBBError.self) { _ = try Voucher.instances(where: \.urgency == .normal, manager: db.manager) }

        try db.manager.execute(
            #"UPDATE "Voucher" SET "stage" = 'draft', "urgency" = 7 WHERE "id" = ?"#, arguments: [ledger.id])
        error = try Self.fetchError(ledger.id, db.manager)
        #expect(error.property == "urgency" && error.rowID == ledger.id && error.message.contains("7"), "\(error)")

        try db.manager.execute(#"UPDATE "Voucher" SET "urgency" = 1 WHERE "id" = ?"#, arguments: [ledger.id])
        try db.manager.execute(
            #"INSERT INTO "Voucher_stages" ("Voucher_ID", "stages") VALUES (?, 'review'), (?, 'gone')"#,
            arguments: [ledger.id, ledger.id])
        error = try Self.fetchError(ledger.id, db.manager)
        #expect(
            error.kind == .invalidValue && error.property == "stages" && error.message.contains("'gone'"), "\(error)")
    }

    @Test("a UUID written in upper case by other SQL reads back, and conditions find it", arguments: Backend.allCases)
    func upperCaseUUID(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let ledger = Voucher(dbManager: db.manager)
        try ledger.save()
        let upper = "F47AC10B-58CC-4372-A567-0E02B2C3D479"
        // SQLite keeps the text as written; PostgreSQL's uuid reads either case (its parameter cast).
        let parameter = backend == .sqlite ? "?" : "CAST(? AS uuid)"
        try db.manager.execute(
            #"UPDATE "Voucher" SET "reference" = \#(parameter) WHERE "id" = ?"#, arguments: [upper, ledger.id])
        try db.manager.execute(
            #"INSERT INTO "Voucher_tokens" ("Voucher_ID", "tokens") VALUES (?, \#(parameter))"#,
            arguments: [ledger.id, upper])
        if backend == .sqlite {
            #expect(try db.scalar(#"SELECT "reference" FROM "Voucher""#, as: String.self) == upper)
        }
        let uuid = try #require(UUID(uuidString: upper))
        let read = try #require(try Voucher.instance(id: ledger.id, manager: db.manager))
        #expect(read.reference == uuid && read.tokens == [uuid])
        #expect(try Voucher.instances(where: \.reference == uuid, manager: db.manager).map(\.id) == [ledger.id])
        #expect(try Voucher.instances(where: .contains(\.tokens, uuid), manager: db.manager).map(\.id) == [ledger.id])
        #expect(!read.hasChanges)
    }

    @Test(
        "stored text that is not a URL, a decimal, a UUID, nor the JSON of the type, fails the fetch naming property and row",
        arguments: Backend.allCases)
    func hostileText(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let ledger = Voucher(dbManager: db.manager)
        try ledger.save()
        let id = ledger.id
        let casts = ["address": "jsonb", "counts": "jsonb", "amount": "numeric", "token": "uuid"]
        /// Sets `column` of the row to `value` (cast to the column's type on PostgreSQL).
        func store(_ column: String, _ value: (any DBBValueConvertible)?) throws {
            let parameter = backend == .postgresql ? casts[column].map { "CAST(? AS \($0))" } ?? "?" : "?"
            try db.manager.execute(
                #"UPDATE "Voucher" SET "\#(column)" = \#(parameter) WHERE "id" = ?"#, arguments: [value, id])
        }
        for (column, text) in [
            ("home", "not a url"), ("link", ""), ("address", #"{"street": 5, "city": "x"}"#), ("counts", "[1, 2]"),
            ("amount", "NaN"), ("address", "not json {"), ("amount", "1.5x"),
            ("amount", "1" + String(repeating: "0", count: 40) + ".5"),
            ("token", "not-a-uuid"),
        ] {
            let original = try db.manager.query(
                #"SELECT CAST("\#(column)" AS TEXT) FROM "Voucher" WHERE "id" = ?"#, arguments: [id])[0][
                    0, as: String.self]
            do {
                try store(column, text)
            } catch let error as DBBError where backend == .postgresql {
                // PostgreSQL's jsonb, numeric and uuid refuse what is not theirs when it is written.
                #expect(error.kind == .server && ["address", "amount", "token"].contains(column), "\(error)")
                continue
            }
            let error = try Self.fetchError(id, db.manager)
            #expect(
                error.kind == .invalidValue && error.table == "Voucher" && error.property == column
                    && error.rowID == id,
                "\(column) = \(text): \(error)")
            try store(column, original)
            #expect(try Voucher.instance(id: id, manager: db.manager) != nil)
        }
    }

    @Test(
        "Decimal.nan is refused by the save, plain, optional or in an array, naming the property; nothing is stored",
        arguments: Backend.allCases)
    func saveRefusesNaN(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let kept = Voucher(dbManager: db.manager)
        kept.amount = 5
        try kept.save()
        for (property, set) in [
            ("amount", { (ledger: Voucher) in ledger.amount = .nan }), ("fee", { $0.fee = .nan }),
            ("prices[1]", { $0.prices = [1, .nan] }),
        ] {
            let ledger = Voucher(dbManager: db.manager)
            set(ledger)
            let error = try #require(throws: DBBError.self) { try ledger.save() }
            #expect(
                error.kind == .invalidValue && error.property == property && error.message.contains("Decimal.nan")
                    && !error.isRetryable, "\(error)")
            // An update of a saved object too, which keeps its row as it was.
            let saved = try #require(try Voucher.instance(id: kept.id, manager: db.manager))
            set(saved)
            #expect(throws: DBBError.self) { try saved.save() }
        }
        #expect(try db.rows(of: "Voucher") == 1 && db.rows(of: "Voucher_prices") == 0)
        #expect(try Voucher.instance(id: kept.id, manager: db.manager)?.amount == 5)
        // In a condition, NaN compares with nothing alike on the two backends: refused.
        let error = try #require(throws: DBBError.self) {
            _ = try Voucher.instances(where: \.amount < Decimal.nan, manager: db.manager)
        }
        #expect(error.kind == .invalidValue && error.property == "amount", "\(error)")
    }

    @Test(
        "a value whose JSON encoding throws fails the save naming the property; nothing is stored",
        arguments: Backend.allCases)
    func encodingFailure(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Parcel.self]) else { return }
        let good = Parcel(dbManager: db.manager)
        good.content = Fragile(text: "kept")
        try good.save()
        let bad = Parcel(dbManager: db.manager)
        bad.content = Fragile(text: "x", fails: true)
        let error = try #require(throws: DBBError.self) { try Parcel.save([good, bad], manager: db.manager) }
        #expect(error.kind == .invalidValue && error.table == "Parcel" && error.property == "content", "\(error)")
        #expect(error.message.contains("JSON"))
        #expect(try db.rows(of: "Parcel") == 1)
        #expect(try Parcel.instance(id: good.id, manager: db.manager)?.content == Fragile(text: "kept"))
    }

    @Test(
        "a JSON value holding a NUL character fails the save on both backends, naming the property; a backslash before 'u0000' is text",
        arguments: Backend.allCases)
    func jsonWithNUL(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Parcel.self]) else { return }
        let bad = Parcel(dbManager: db.manager)
        bad.content = Fragile(text: "a\u{0}b")
        let error = try #require(throws: DBBError.self) { try bad.save() }
        #expect(error.kind == .invalidValue && error.property == "content" && error.message.contains("NUL"), "\(error)")
        #expect(try db.rows(of: "Parcel") == 0)
        let text = Parcel(dbManager: db.manager)
        text.content = Fragile(text: #"a\u0000b"#)
        try text.save()
        #expect(try Parcel.instance(id: text.id, manager: db.manager)?.content == Fragile(text: #"a\u0000b"#))
    }
}
