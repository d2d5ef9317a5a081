import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// `Decimal`, `UUID`, `URL`, enums and `@JSON` values: stored, read back exactly, compared and
/// sorted the same on SQLite and PostgreSQL.
@Suite("Value types: Decimal, UUID, URL, enums, JSON")
struct ValueTypeTests {
    static let first = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
    static let second = UUID(uuidString: "F47AC10B-58CC-4372-A567-0E02B2C3D479")!

    static func decimal(_ text: String) -> Decimal { Decimal(string: text)! }

    /// A ledger with every property set to something other than its start.
    static func filled(_ manager: DBBManager) -> Voucher {
        let ledger = Voucher(dbManager: manager)
        ledger.amount = decimal("0.1") + decimal("0.2")
        ledger.fee = decimal("-12345678901234567890.123456789012345678")
        ledger.token = first
        ledger.reference = second
        ledger.home = URL(string: "https://example.com/a%20b?q=1&r=ü#top")!
        ledger.link = URL(string: "mailto:ada@example.com")!
        ledger.stage = .review
        ledger.previous = .published
        ledger.urgency = .urgent
        ledger.tokens = [second, first, second]
        ledger.stages = [.published, .draft]
        ledger.prices = [decimal("10"), decimal("9.99"), decimal("-0.5")]
        ledger.links = [URL(string: "https://a.example/")!, URL(string: "relative/path")!]
        ledger.address = Address(street: "Main \"St\" 1/2", city: "Zürich", zip: 8001, lines: ["c/o", ""], rating: 4.5)
        ledger.alternates = [Address(street: "", city: "Nowhere", rating: .nan)]
        ledger.counts = ["b": 2, "a": 1]
        return ledger
    }

    /// The values of the properties of `ledger` that the test compares, as text (NaN compares
    /// as itself there).
    static func shown(_ ledger: Voucher) -> [String] {
        [
            "\(ledger.amount)", "\(ledger.fee as Any)", "\(ledger.token)", "\(ledger.reference as Any)",
            ledger.home.absoluteString, "\(ledger.link as Any)", "\(ledger.stage)", "\(ledger.previous as Any)",
            "\(ledger.urgency)", "\(ledger.tokens)", "\(ledger.stages)", "\(ledger.prices)", "\(ledger.links as Any)",
            "\(ledger.address)", "\(ledger.alternates as Any)", "\(ledger.counts.sorted { $0.key < $1.key })",
        ]
    }

    @Test("every type, plain, optional, in arrays and as JSON, reads back as saved", arguments: Backend.allCases)
    func roundTrip(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let ledger = Self.filled(db.manager)
        try ledger.save()
        let other = try db.reopen([Voucher.self])
        let read = try #require(try Voucher.instance(id: ledger.id, manager: other))
        #expect(Self.shown(read) == Self.shown(ledger))
        #expect(read.amount == Self.decimal("0.3"))
        #expect(read.address == ledger.address)
        // What was read is what is stored: nothing differs, and a save writes nothing.
        #expect(!read.hasChanges, "\(read.changedPropertyNames)")

        // Back to nil and empty, and read again.
        (read.fee, read.reference, read.link, read.previous, read.links, read.alternates) = (
            nil, nil, nil, nil, nil, nil
        )
        (read.tokens, read.stages, read.prices) = ([], [], [])
        try read.save()
        let cleared = try #require(try Voucher.instance(id: ledger.id, manager: db.manager))
        #expect(Self.shown(cleared) == Self.shown(read))
        #expect(cleared.fee == nil && cleared.previous == nil && cleared.links == nil && cleared.alternates == nil)
        #expect(try db.rows(of: "Voucher_tokens") == 0)

        // A conditional save: one UPDATE of the changed columns, on every backend.
        (cleared.amount, cleared.token, cleared.stage) = (Self.decimal("-0.01"), Self.second, .published)
        cleared.address.city = "Bern"
        try cleared.save(ifModifiedTimeIs: try #require(cleared.modifiedTime))
        let updated = try #require(try Voucher.instance(id: ledger.id, manager: other))
        #expect(Self.shown(updated) == Self.shown(cleared))
    }

    @Test(
        "a mapping written by hand stores enums, arrays of enums, UUID, URL, Decimal and JSON",
        arguments: Backend.allCases)
    func handMapping(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [HandVoucher.self]) else { return }
        let ledger = HandVoucher(dbManager: db.manager)
        ledger.amount = Self.decimal("99999999999999999999999999999999999999")
        ledger.token = Self.second
        ledger.link = URL(string: "ftp://files.example.com/x")!
        (ledger.stage, ledger.previous, ledger.stages) = (.published, .review, [.review, .review])
        ledger.urgencies = [.low, .urgent]
        ledger.address = Address(street: "1 Loop", city: "Cupertino")
        try ledger.save()
        let read = try #require(try HandVoucher.instance(id: ledger.id, manager: try db.reopen([HandVoucher.self])))
        #expect(read.amount == ledger.amount && read.token == Self.second && read.link == ledger.link)
        #expect(read.stage == .published && read.previous == .review && read.stages == [.review, .review])
        #expect(read.urgencies == [.low, .urgent] && read.address == ledger.address)
        #expect(!read.hasChanges)
        #expect(
            try HandVoucher.instances(
                where: \.stage == .published && .contains(\.urgencies, .urgent), manager: db.manager
            )
            .map(\.id) == [ledger.id])
    }

    @Test(
        "the columns: Text on SQLite; numeric, uuid and jsonb on PostgreSQL; enums as their raw type",
        arguments: Backend.allCases)
    func columnTypes(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        // (SQLite's catalog spells a declared type in capitals.)
        let types = Dictionary(
            uniqueKeysWithValues: try db.columns(of: "Voucher").map { ($0.name, $0.type.lowercased()) })
        let expected: [String: String] =
            switch backend {
            case .sqlite:
                [
                    "amount": "text", "token": "text", "home": "text", "stage": "text", "urgency": "integer",
                    "address": "text",
                ]
            case .postgresql:
                [
                    "amount": "numeric", "token": "uuid", "home": "text", "stage": "text", "urgency": "bigint",
                    "address": "jsonb",
                ]
            }
        for (column, type) in expected { #expect(types[column] == type, "\(column): \(types[column] ?? "none")") }
        // Arrays in join tables of their element's column type; JSON in a column, no join table.
        let joinColumn = { (table: String) in try db.columns(of: table).last?.type.lowercased() }
        #expect(try joinColumn("Voucher_tokens") == (backend == .sqlite ? "text" : "uuid"))
        #expect(try joinColumn("Voucher_prices") == (backend == .sqlite ? "text" : "numeric"))
        #expect(try joinColumn("Voucher_stages") == "text")
        #expect(try !db.tableExists("Voucher_alternates"))

        // What raw SQL sees: the decimal's digits, the UUID in lower case, the enum's raw value.
        let ledger = Self.filled(db.manager)
        try ledger.save()
        let row = try #require(
            try db.manager.query(
                #"SELECT CAST("amount" AS TEXT) AS a, CAST("token" AS TEXT) AS t, "stage", "urgency" FROM "Voucher""#
            ).first)
        #expect(try row.decode(String.self, "a") == "0.3")
        #expect(try row.decode(String.self, "t") == "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
        #expect(try row.decode(String.self, "stage") == "review" && row.decode(Int.self, "urgency") == 10)
        #expect(try row.decode(Decimal.self, "a") == Self.decimal("0.3") && row.decode(UUID.self, "t") == Self.first)
    }

    @Test(
        "Decimal is exact: 0.1 + 0.2, 38 digits, negative, zero, tiny, and equal values written apart",
        arguments: Backend.allCases)
    func decimalsAreExact(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let texts = [
            "0.3", "12345678901234567890123456789012345678", "-99999999999999999999999999999999999999", "0",
            "-0.000001", "0.00000000000000000001", "1234567890.0987654321", "-7",
        ]
        var ids: [Int64] = []
        for text in texts {
            let ledger = Voucher(dbManager: db.manager)
            ledger.amount = text == "0.3" ? Self.decimal("0.1") + Self.decimal("0.2") : Self.decimal(text)
            try ledger.save()
            ids.append(ledger.id)
        }
        let other = try db.reopen([Voucher.self])
        for (id, text) in zip(ids, texts) {
            let read = try #require(try Voucher.instance(id: id, manager: other))
            #expect(read.amount == Self.decimal(text) && read.amount.description == text, "\(read.amount) ≠ \(text)")
        }
        // Stored by other SQL with trailing zeros: the same number, found by an equality.
        try db.manager.execute(#"UPDATE "Voucher" SET "amount" = '1.50' WHERE "id" = ?"#, arguments: [ids[7]])
        #expect(
            try Voucher.instances(where: \.amount == Self.decimal("1.5"), manager: db.manager).map(\.id) == [ids[7]])
        #expect(try Voucher.instance(id: ids[7], manager: db.manager)?.amount == Self.decimal("1.5"))
    }

    @Test(
        "Decimal conditions and sorting are numeric (10 > 9, -10 < -2.5), by key path and by string",
        arguments: Backend.allCases)
    func decimalOrder(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let amounts = ["10", "9", "-2.5", "-10", "0.001", "100.5", "99.99999999999999999999", "1000"]
        for text in amounts {
            let ledger = Voucher(dbManager: db.manager)
            ledger.amount = Self.decimal(text)
            ledger.fee = text.hasPrefix("-") ? nil : Self.decimal(text)
            try ledger.save()
        }
        let ascending = amounts.map(Self.decimal).sorted()
        func amountsOf(_ ledgers: [Voucher]) -> [Decimal] { ledgers.map(\.amount) }
        #expect(amountsOf(try Voucher.instances(sortedBy: [.ascending(\.amount)], manager: db.manager)) == ascending)
        #expect(
            amountsOf(try Voucher.instances(sortedBy: [.descending(Voucher.Columns.amount)], manager: db.manager))
                == ascending.reversed())
        #expect(
            amountsOf(
                try Voucher.instances(
                    where: \.amount > Self.decimal("9"), sortedBy: [.ascending(\.amount)], manager: db.manager))
                == ["10", "99.99999999999999999999", "100.5", "1000"].map(Self.decimal))
        #expect(
            amountsOf(
                try Voucher.instances(
                    where: \.amount <= Self.decimal("-2.5"), sortedBy: [.ascending(\.amount)], manager: db.manager))
                == [Self.decimal("-10"), Self.decimal("-2.5")])
        #expect(
            amountsOf(try Voucher.instances(where: \.fee >= Self.decimal("100"), manager: db.manager)).sorted()
                == [Self.decimal("100.5"), Self.decimal("1000")])
        #expect(
            try Voucher.instances(
                where: .in(\.amount, [Self.decimal("9.0"), Self.decimal("1E+3")]), manager: db.manager
            )
            .map(\.amount).sorted() == [Self.decimal("9"), Self.decimal("1000")])
        // DBBBuilder's string sorting names the property: numeric too.
        var options = DBBQueryOptions()
        options.sorting = ["amount", ColumnSorting.descending]
        #expect(amountsOf(try Voucher.instances(matching: options, manager: db.manager)) == ascending.reversed())
        // A page of the highest two, and the largest through distinct grouping.
        #expect(
            amountsOf(try Voucher.instances(sortedBy: [.descending(\.amount)], limit: 2, manager: db.manager))
                == [Self.decimal("1000"), Self.decimal("100.5")])
    }

    @Test("UUID, URL and enum conditions, arrays' contains, and column keys", arguments: Backend.allCases)
    func conditions(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [Voucher.self]) else { return }
        let full = Self.filled(db.manager)
        try full.save()
        let plain = Voucher(dbManager: db.manager)
        plain.token = Self.second
        try plain.save()
        func ids(_ condition: DBBCondition<Voucher>) throws -> [Int64] {
            try Voucher.instances(where: condition, manager: db.manager).map(\.id)
        }
        #expect(try ids(\.token == Self.first) == [full.id])
        #expect(try ids(\.token == Self.second) == [plain.id])
        #expect(try ids(\.reference == Self.second) == [full.id])
        #expect(try ids(\.reference == nil) == [plain.id])
        #expect(try ids(.in(\.token, [Self.first, Self.second])) == [full.id, plain.id])
        #expect(try ids(\.home == URL(string: "https://example.com/")!) == [plain.id])
        #expect(try ids(\.link == URL(string: "mailto:ada@example.com")!) == [full.id])
        #expect(try ids(\.stage == .review) == [full.id])
        #expect(try ids(\.stage != .review) == [plain.id])
        #expect(try ids(\.previous == .published) == [full.id])
        #expect(try ids(\.previous != .published) == [])
        #expect(try ids(\.previous == nil) == [plain.id])
        #expect(try ids(.in(\.stage, [.draft, .published])) == [plain.id])
        #expect(try ids(.notIn(\.stage, [.draft])) == [full.id])
        #expect(try ids(\.urgency == .urgent) == [full.id])
        #expect(try ids(Voucher.Columns.stage == .draft && Voucher.Columns.previous != .draft) == [])
        #expect(try ids(Voucher.Columns.stage == .draft) == [plain.id])
        #expect(try ids(.contains(\.tokens, Self.first)) == [full.id])
        #expect(try ids(.contains(\.stages, .published)) == [full.id])
        #expect(try ids(.contains(\.prices, Self.decimal("9.990"))) == [full.id])
        #expect(try ids(.contains(\.links, URL(string: "relative/path")!)) == [full.id])
        #expect(try ids(.isNull(\.alternates)) == [plain.id])
        #expect(try ids(.isNotNull(\.address)) == [full.id, plain.id])
        // Sorting by an enum sorts by raw value; by JSON is refused, naming the property.
        #expect(
            try Voucher.instances(sortedBy: [.descending(\.urgency)], manager: db.manager).map(\.id) == [
                full.id, plain.id,
            ])
        let error = try #require(throws: DBBError.self) {
            _ = try Voucher.instances(sortedBy: [.ascending(\.address)], manager: db.manager)
        }
        #expect(error.kind == .invalidOption && error.property == "address", "\(error)")
    }

    @Test(
        "a Text column holding a String property takes the property as an enum with no schema change",
        arguments: Backend.allCases)
    func stringBecomesEnum(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [RenamedBefore.self]) else { return }
        let before = RenamedBefore(dbManager: db.manager)
        before.stage = "published"
        try before.save()
        let layout = try db.layout()
        let after = try db.reopen([RenamedAfter.self])
        #expect(try db.layout() == layout)
        #expect(try RenamedAfter.instance(id: before.id, manager: after)?.stage == .published)
        #expect(try RenamedAfter.instances(where: \.stage == .published, manager: after).map(\.id) == [before.id])
        let added = RenamedAfter(dbManager: after)
        added.stage = .review
        try added.save()
        #expect(try RenamedBefore.instance(id: added.id, manager: db.manager)?.stage == "review")
    }

    /// The one difference at registration, said in the article: a `Text` column of a `String`
    /// serves a `Decimal` on SQLite (its text is the value), while PostgreSQL's `text` is no
    /// `numeric`, and the change of type is refused there, naming the property.
    @Test(
        "a String column re-registered as Decimal: SQLite's Text serves it, PostgreSQL refuses the type change",
        arguments: Backend.allCases)
    func stringBecomesDecimal(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend, [PricedBefore.self]) else { return }
        let before = PricedBefore(dbManager: db.manager)
        before.amount = "12.50"
        try before.save()
        switch backend {
        case .sqlite:
            let after = try db.reopen([PricedAfter.self])
            #expect(try PricedAfter.instance(id: before.id, manager: after)?.amount == Self.decimal("12.5"))
        case .postgresql:
            let error = try #require(throws: DBBError.self) { _ = try db.reopen([PricedAfter.self]) }
            #expect(error.kind == .migrationRefused && error.property == "amount", "\(error)")
        }
    }

    @Test("the sqlite3 shell reads and writes the file: decimals are text to it, and it has no dbb_decimal")
    func whatTheShellSees() throws {
        let shell = try #require(ScriptFixture.sqlite3, "the sqlite3 shell")
        guard let db = try BackendDatabase(.sqlite, [Voucher.self]) else { return }
        for text in ["10", "9", "-2.5"] {
            let voucher = Voucher(dbManager: db.manager)
            voucher.amount = Self.decimal(text)
            try voucher.save()
        }
        let textOrder = try ScriptFixture.run(shell, [db.place, #"SELECT amount FROM Voucher ORDER BY amount"#])
        #expect(textOrder.stdout == "-2.5\n10\n9\n", "\(textOrder)")
        let collated = try ScriptFixture.run(
            shell, [db.place, #"SELECT amount FROM Voucher ORDER BY amount COLLATE dbb_decimal"#])
        #expect(collated.status != 0 && collated.stderr.contains("no such collation sequence: dbb_decimal"))
        // The table names no collation: the shell writes to it, and the manager reads what it wrote.
        let insert = try ScriptFixture.run(
            shell,
            [
                db.place,
                #"INSERT INTO Voucher (amount, token, home, stage, urgency, address, counts) "#
                    + #"VALUES ('100.25', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'https://x.example/', 'draft', 1, '{"city":"","lines":[],"rating":0,"street":""}', '{}')"#,
            ])
        #expect(insert.status == 0, "\(insert)")
        #expect(
            try Voucher.instances(sortedBy: [.descending(\.amount)], manager: db.manager).map(\.amount)
                == ["100.25", "10", "9", "-2.5"].map(Self.decimal))
    }

    @Test(
        "the SQL of the value types on each dialect matches Golden/values-<backend>.sql: casts, collations, text",
        arguments: Backend.allCases)
    func goldenSQL(_ backend: Backend) throws {
        guard let db = try BackendDatabase(backend) else { return }
        let lines = Locked<[String]>([])
        func section(_ name: String) { lines.withLock { $0.append("-- section: \(name)") } }
        db.manager.trace { sql in lines.withLock { $0.append(sql) } }
        section("register")
        try db.manager.register([Voucher.self])
        section("insert")
        let voucher = Self.filled(db.manager)
        try voucher.save()
        section("fetch by id")
        _ = try Voucher.instance(id: voucher.id, manager: db.manager)
        section("typed conditions and sorting")
        _ = try Voucher.instances(
            where: \.amount > Self.decimal("9.5") && \.token == Self.first && .in(\.reference, [Self.second])
                && \.stage == .review && \.link != nil,
            sortedBy: [.descending(\.amount), .ascending(\.token)], manager: db.manager)
        _ = try Voucher.instances(
            where: .contains(\.tokens, Self.first) && .contains(\.prices, Self.decimal("10")), manager: db.manager)
        section("update the changed columns")
        (voucher.amount, voucher.token, voucher.address.city) = (Self.decimal("1.5"), Self.second, "Bern")
        try voucher.save()
        section("conditional update")
        voucher.fee = nil
        try voucher.save(ifModifiedTimeIs: try #require(voucher.modifiedTime))
        db.manager.trace(nil)
        try GoldenSQLTests.compare(
            lines.withLock { $0 }.joined(separator: "\n") + "\n", with: "values-\(backend.rawValue).sql")
    }
}
