import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// `update(…, where:)` and `delete(where:)`: one statement each, on both backends, keeping what
/// the object API promises (modifiedTime, join rows, stale copies, read-only managers) and
/// leaving the table as it was when they fail.
@Suite struct WriteByConditionTests {
    /// Five tickets (codes t1…t5, views 1…5, a label each), two assigned to an agent who also
    /// lists them.
    struct Desk {
        let database: BackendDatabase
        let agent: Agent
        let tickets: [Ticket]
        var manager: DBBManager { database.manager }

        init?(_ backend: Backend) throws {
            guard let database = try BackendDatabase(backend, [Ticket.self, Agent.self]) else { return nil }
            self.database = database
            let manager = database.manager
            agent = Agent(dbManager: manager)
            agent.name = "Ada"
            tickets = (1...5).map { number in
                let ticket = Ticket(dbManager: manager)
                (ticket.code, ticket.views, ticket.price) = ("t\(number)", number, Double(number) * 10)
                ticket.labels = ["l\(number)"]
                ticket.note = number.isMultiple(of: 2) ? "even" : nil
                return ticket
            }
            try Ticket.save(tickets, manager: manager)
            (tickets[0].assignee, tickets[1].assignee) = (agent, agent)
            try Ticket.save(Array(tickets[0...1]), manager: manager)
            agent.tickets = Array(tickets[0...1])
            try agent.save()
        }

        /// The tickets as stored, by code.
        func stored() throws -> [String: Ticket] {
            Dictionary(uniqueKeysWithValues: try Ticket.all(manager: manager).map { ($0.code!, $0) })
        }

        /// Each ticket's stored columns, to compare a table before and after a failed write.
        func snapshot() throws -> [String] {
            try Ticket.all(manager: manager).map { ticket in
                "\(ticket.id) \(ticket.code ?? "-") \(ticket.price) \(ticket.views) \(ticket.note ?? "-") "
                    + "\(ticket.stage) \(ticket.labels) \(ticket.modifiedTime!.timeIntervalSinceReferenceDate)"
            }
        }
    }

    // MARK: - Update

    @Test(
        "update sets typed values, expressions, NULL and enums in the rows selected, and counts them",
        arguments: Backend.allCases)
    func updateSetsAndCounts(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let before = try desk.stored()
        let changed = try Ticket.update(
            .set(\.price, to: 9.5), .set(\.views, to: .column(\.views) * 10 + 1), .set(\.note, to: nil),
            .set(\.stage, to: .review), where: \.views >= 3, manager: desk.manager)
        #expect(changed == 3)
        let after = try desk.stored()
        for code in ["t3", "t4", "t5"] {
            let ticket = try #require(after[code])
            #expect(ticket.price == 9.5 && ticket.views == before[code]!.views * 10 + 1)
            #expect(ticket.note == nil && ticket.stage == .review)
            #expect(ticket.modifiedTime! > before[code]!.modifiedTime!, "the update sets modifiedTime")
            #expect(ticket.labels == before[code]!.labels && ticket.hookedSaves == 1, "no hook ran")
        }
        for code in ["t1", "t2"] {
            let ticket = try #require(after[code])
            #expect(ticket.price == before[code]!.price && ticket.views == before[code]!.views)
            #expect(ticket.modifiedTime == before[code]!.modifiedTime, "rows not selected are not written")
        }
        #expect(try Ticket.update(.set(\.views, to: 0), where: \.code == "none", manager: desk.manager) == 0)
        // An optional property set from a non-optional expression; conditions over arrays.
        let labelled = try Ticket.update(
            .set(\.note, to: .coalesce(\.code, "?") + "!"),
            where: .contains(\.labels, "l1") || \.assignee == desk.agent,
            manager: desk.manager)
        #expect(labelled == 2)
        #expect(try desk.stored()["t2"]?.note == "t2!")
    }

    @Test(
        "a copy fetched before an update is refused by save(ifModifiedTimeIs:), from this or another manager",
        arguments: Backend.allCases)
    func staleCopyAfterUpdate(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let other = try desk.database.reopen([Ticket.self, Agent.self])
        let copy = try #require(try Ticket.instances(where: \.code == "t1", manager: desk.manager).first)
        let seen = try #require(copy.modifiedTime)
        #expect(try Ticket.update(.set(\.price, to: 1), where: \.code == "t1", manager: other) == 1)
        copy.price = 2
        let refused = #expect(throws: DBBError.self) { try copy.save(ifModifiedTimeIs: seen) }
        #expect(refused?.kind == .rowChanged)
        #expect(try desk.stored()["t1"]?.price == 1, "the update stays")
        #expect(copy.modifiedTime == seen, "the refused copy keeps its time")
    }

    @Test(
        "update refuses id, the times, arrays, references, a property twice and no property, before any SQL",
        arguments: Backend.allCases)
    func updateRefusals(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let manager = desk.manager
        let before = try desk.snapshot()
        let refusals: [(String, String?, DBBError.Kind, () throws -> Int)] = [
            ("id", "id", .invalidOption, { try Ticket.update(.set(\.id, to: 7), where: .all, manager: manager) }),
            (
                "modifiedTime", "modifiedTime", .invalidOption,
                {
                    try Ticket.update(.set(\.modifiedTime, to: nil), where: .all, manager: manager)
                }
            ),
            (
                "createdTime", "createdTime", .invalidOption,
                {
                    try Ticket.update(.set(\.createdTime, to: Date()), where: .all, manager: manager)
                }
            ),
            (
                "an array", "labels", .invalidOption,
                {
                    try Ticket.update(.set(\.labels, to: .column(\.labels)), where: .all, manager: manager)
                }
            ),
            (
                "a reference", "assignee", .invalidOption,
                {
                    try Ticket.update(.set(\.assignee, to: .column(\.assignee)), where: .all, manager: manager)
                }
            ),
            (
                "twice", "price", .invalidOption,
                {
                    try Ticket.update(.set(\.price, to: 1), .set(\.price, to: 2), where: .all, manager: manager)
                }
            ),
            ("nothing", nil, .invalidOption, { try Ticket.update(where: .all, manager: manager) }),
            (
                "an aggregate", "views", .invalidOption,
                {
                    try Ticket.update(.set(\.views, to: .count()), where: .all, manager: manager)
                }
            ),
            (
                "an aggregate in the condition", nil, .invalidOption,
                {
                    try Ticket.update(.set(\.views, to: 1), where: .count() > 1, manager: manager)
                }
            ),
            (
                "NaN", "price", .invalidValue,
                {
                    try Ticket.update(.set(\.price, to: .nan), where: .all, manager: manager)
                }
            ),
        ]
        for (name, property, kind, write) in refusals {
            let error = #expect(throws: DBBError.self, "\(name)") { try write() }
            #expect(error?.kind == kind, "\(name)")
            #expect(error?.property == property, "\(name): \(error.map { "\($0)" } ?? "")")
            #expect(error?.table == "Ticket", "\(name)")
        }
        #expect(try desk.snapshot() == before)
    }

    @Test(
        "a NUL in text is stored by SQLite and refused by PostgreSQL, as a save refuses it",
        arguments: Backend.allCases)
    func nulInText(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let before = try desk.snapshot()
        let write = { try Ticket.update(.set(\.note, to: "a\u{0}b"), where: \.code == "t1", manager: desk.manager) }
        if backend == .sqlite {
            #expect(try write() == 1)
            #expect(try desk.stored()["t1"]?.note == "a\u{0}b")
        } else {
            let error = #expect(throws: DBBError.self) { try write() }
            #expect(error?.kind == .invalidValue && error?.property == "note")
            #expect(try desk.snapshot() == before)
        }
    }

    @Test("a constraint failing on a later row leaves every row as it was", arguments: Backend.allCases)
    func failureLeavesTheTable(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let before = try desk.snapshot()
        // The first row takes code "same", the second cannot: UNIQUE fails in the middle.
        let error = #expect(throws: DBBError.self) {
            try Ticket.update(.set(\.code, to: "same"), .set(\.views, to: 0), where: \.views > 1, manager: desk.manager)
        }
        #expect(error.map(desk.database.isConstraintViolation) == true, "\(error.map { "\($0)" } ?? "")")
        #expect(try desk.snapshot() == before)
        // The connection is left fit for the next write.
        #expect(try Ticket.update(.set(\.views, to: 100), where: \.code == "t5", manager: desk.manager) == 1)
        #expect(try desk.stored()["t5"]?.views == 100)
    }

    @Test("a read-only manager refuses both writes before any SQL", arguments: Backend.allCases)
    func readOnlyManager(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let reader = try desk.database.readOnly([Ticket.self, Agent.self])
        let before = try desk.snapshot()
        let statements = Locked<[String]>([])
        reader.trace { sql in statements.withLock { $0.append(sql) } }
        let update = #expect(throws: DBBError.self) {
            try Ticket.update(.set(\.views, to: 0), where: .all, manager: reader)
        }
        let delete = #expect(throws: DBBError.self) { try Ticket.delete(where: .all, manager: reader) }
        #expect(update?.kind == .readOnly && delete?.kind == .readOnly)
        #expect(statements.withLock { $0 }.isEmpty, "nothing was sent")
        #expect(try desk.snapshot() == before)
    }

    @Test("hostile values: Int64 extremes, empty IN, NaN in a condition, Decimal and UUID", arguments: Backend.allCases)
    func hostileValues(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let manager = desk.manager
        #expect(try Ticket.update(.set(\.views, to: 0), where: .in(\.views, []), manager: manager) == 0)
        #expect(try Ticket.update(.set(\.views, to: Int.max), where: .notIn(\.views, []), manager: manager) == 5)
        #expect(
            try Ticket.update(.set(\.views, to: Int.min), where: \.views == Int.max && \.code == "t1", manager: manager)
                == 1)
        let views = try desk.stored().mapValues(\.views)
        #expect(views["t1"] == Int.min && views["t2"] == Int.max)
        let nan = #expect(throws: DBBError.self) {
            try Ticket.update(.set(\.views, to: 1), where: \.price == .nan, manager: manager)
        }
        #expect(nan?.kind == .invalidValue && nan?.property == "price")

        guard let vouchers = try BackendDatabase(backend, [Voucher.self]) else { return }
        let voucher = Voucher(dbManager: vouchers.manager)
        voucher.amount = Decimal(string: "9")!
        try voucher.save()
        let reference = UUID(uuidString: "0F0F0F0F-0000-0000-0000-0000000000AB")!
        #expect(
            try Voucher.update(
                .set(\.amount, to: Decimal(string: "123456789012345678.25")!), .set(\.reference, to: reference),
                .set(\.previous, to: .review), where: \.amount < Decimal(string: "10")!, manager: vouchers.manager) == 1
        )
        let stored = try #require(try Voucher.all(manager: vouchers.manager).first)
        #expect(stored.amount == Decimal(string: "123456789012345678.25")! && stored.reference == reference)
        #expect(stored.previous == .review)
    }

    @Test("each write is one statement, observed as update or delete", arguments: Backend.allCases)
    func oneStatement(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let statements = Locked<[String]>([])
        desk.manager.trace { sql in statements.withLock { $0.append(sql) } }
        try Ticket.update(.set(\.views, to: 0), .set(\.note, to: "x"), where: \.views > 1, manager: desk.manager)
        try Ticket.delete(where: \.views == 0, manager: desk.manager)
        desk.manager.trace(nil)
        let writes = statements.withLock { $0 }.filter { $0.hasPrefix("UPDATE") || $0.hasPrefix("DELETE") }
        #expect(writes.count == 2, "\(statements.withLock { $0 })")
        if backend == .postgresql {
            #expect(statements.withLock { $0 } == writes, "sent alone: no BEGIN and COMMIT round trips")
        }
        #expect(try desk.database.rows(of: "Ticket") == 1)
    }

    @Test(
        "from a save hook, a write by condition is part of the save: rolled back with it", arguments: Backend.allCases)
    func insideASave(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        try desk.manager.register([Closer.self])
        let first = Closer(dbManager: desk.manager)
        first.key = "k"
        try first.save()
        #expect(try desk.stored().values.allSatisfy { $0.stage == .published })
        #expect(try Ticket.update(.set(\.stage, to: .draft), where: .all, manager: desk.manager) == 5)
        let second = Closer(dbManager: desk.manager)
        second.key = "k"
        let error = #expect(throws: DBBError.self) { try second.save() }
        #expect(error.map(desk.database.isConstraintViolation) == true)
        #expect(try desk.stored().values.allSatisfy { $0.stage == .draft }, "the hook's update went with the save")
    }

    // MARK: - Delete

    @Test(
        "delete removes the rows, their join rows and the join rows that refer to them, and counts the rows",
        arguments: Backend.allCases)
    func deleteRemovesJoinRows(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let stale = try #require(try Ticket.instances(where: \.code == "t1", manager: desk.manager).first)
        #expect(try desk.database.rows(of: "Agent_tickets") == 2)
        let deleted = try Ticket.delete(where: \.assignee == desk.agent || \.views == 5, manager: desk.manager)
        #expect(deleted == 3)
        #expect(try desk.stored().keys.sorted() == ["t3", "t4"])
        #expect(try desk.database.rows(of: "Ticket_labels") == 2, "the deleted rows' join rows are gone")
        #expect(try desk.database.rows(of: "Ticket_assignee") == 0)
        #expect(try desk.database.rows(of: "Agent_tickets") == 0, "so are the join rows that referred to them")
        #expect(try Agent.all(manager: desk.manager).first?.tickets.isEmpty == true)
        stale.price = 1
        let refused = #expect(throws: DBBError.self) { try stale.save() }
        #expect(refused?.kind == .rowNotFound, "a copy of a deleted row is not inserted again")
        #expect(try Ticket.delete(where: \.views > 100, manager: desk.manager) == 0)
        #expect(try Ticket.delete(where: .all, manager: desk.manager) == 2)
        #expect(try desk.database.rows(of: "Ticket") == 0 && desk.database.rows(of: "Ticket_labels") == 0)
    }

    // MARK: - SQL

    @Test("values are bound, never written into the SQL", arguments: Backend.allCases)
    func valuesAreBound(_ backend: Backend) throws {
        guard let desk = try Desk(backend) else { return }
        let hostile = "'; DELETE FROM \"Ticket\"; --"
        let update = try Ticket.updating(.set(\.note, to: hostile), where: \.code == hostile).sql(on: desk.manager)
        let delete = try Ticket.deleting(where: \.note == hostile || \.code == "t1").sql(on: desk.manager)
        #expect(!update.sql.contains(hostile) && !delete.sql.contains(hostile))
        #expect(update.arguments.dropFirst() == [.text(hostile)], "one value, one placeholder")
        #expect(try Ticket.update(.set(\.note, to: hostile), where: \.code == "t1", manager: desk.manager) == 1)
        #expect(try Ticket.delete(where: \.note == hostile, manager: desk.manager) == 1)
        #expect(try desk.database.rows(of: "Ticket") == 4)
    }

    // MARK: - Async

    @Test("update, delete, typed fetches and report rows, awaited", arguments: Backend.allCases)
    func awaited(_ backend: Backend) async throws {
        guard let desk = try Desk(backend) else { return }
        let manager = desk.manager
        #expect(try await Ticket.update(.set(\.views, to: .column(\.views) + 1), where: .all, manager: manager) == 5)
        #expect(try await Ticket.delete(where: \.code == "t5", manager: manager) == 1)
        let fetched = try await Ticket.instances(where: \.views > 2, sortedBy: [.descending(\.views)], manager: manager)
        #expect(fetched.map(\.code) == ["t4", "t3", "t2"])
        let rows: [(String?, Int)] = try await Ticket.select(.column(\.note), .count())
            .group(by: .column(\.note)).order(by: .ascending(\.note)).rows(manager)
        #expect(rows.map(\.0) == [nil, "even"] && rows.map(\.1) == [2, 2])
        let page = try await Ticket.instances(
            sortedBy: [.ascending(\.views)], after: fetched[1], limit: 5, manager: manager)
        #expect(page.map(\.code) == ["t4"])
    }
}
