import DBBBackendTestSupport
@_spi(DBBBackend) import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

@Suite("@DBBTable: classes the compiler writes, on DBBBuilder's tables")
struct MacroTableTests {
    /// A gadget with a value in every property, and a maker.
    static func filledGadget(_ manager: DBBManager, serial: String = "S-1") -> Gadget {
        let gadget = Gadget(dbManager: manager)
        gadget.name = "Widget"
        gadget.serial = serial
        gadget.family = "Tools"
        gadget.given = "Ada"
        gadget.count = -42
        gadget.small = -7
        gadget.large = 9_000_000_000
        gadget.price = 12.5
        gadget.weight = 0.25
        gadget.isActive = true
        gadget.released = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        gadget.seen = Date(timeIntervalSinceReferenceDate: 1_000)
        gadget.tags = ["red", "small", "red"]
        gadget.photo = Data([0, 1, 2, 255])
        gadget.size = .large
        gadget.rank = 3
        gadget.note = "changed, never stored"
        let maker = Maker(dbManager: manager)
        maker.name = "ACME"
        maker.founded = 1949
        gadget.maker = maker
        return gadget
    }

    @Test("every kind of property round-trips, read by the generated code", arguments: Backend.allCases)
    func roundTrip(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        let saved = Self.filledGadget(database.manager)
        try saved.save()
        let other = try database.reopen([Gadget.self, Maker.self])
        #expect(try other.usesGeneratedColumns(of: Gadget.self))
        #expect(try other.usesGeneratedColumns(of: Maker.self))
        let loaded = try #require(try Gadget.instances(matching: .options(), manager: other).first)
        #expect(loaded.id == saved.id && loaded.createdTime == saved.createdTime)
        #expect(loaded.name == "Widget" && loaded.serial == "S-1" && loaded.family == "Tools" && loaded.given == "Ada")
        #expect(loaded.count == -42 && loaded.small == -7 && loaded.large == 9_000_000_000)
        #expect(loaded.price == 12.5 && loaded.weight == 0.25 && loaded.isActive)
        #expect(loaded.released == saved.released && loaded.seen == saved.seen)
        #expect(loaded.tags == ["red", "small", "red"] && loaded.photo == Data([0, 1, 2, 255]))
        #expect(loaded.size == .large && loaded.rank == 3)
        #expect(loaded.rankAssignments == 1, "the fetch assigns the property once, through its didSet")
        #expect(loaded.note == "not stored")
        #expect(loaded.maker?.name == "ACME" && loaded.maker?.founded == 1949 && loaded.maker?.country == nil)
        #expect(!loaded.hasChanges)
    }

    @Test(
        "the table is DBBBuilder's: reserved columns, then one per property in name order", arguments: Backend.allCases)
    func layout(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        let columns = try database.columns(of: "Gadget")
        #expect(
            columns.map(\.name) == [
                "id", "createdTime", "modifiedTime", "count", "family", "given", "isActive", "large", "itemName",
                "price",
                "rank", "released", "seen", "serial", "size", "small", "weight",
            ])
        #expect(columns.first { $0.name == "itemName" }?.isNotNull == true)
        #expect(columns.first { $0.name == "serial" }?.isNotNull == false)
        let indexes = try database.indexes(of: "Gadget")
        #expect(
            try indexes.map { try database.indexColumns($0) }.sorted { $0.count < $1.count }.suffix(2)
                == [["family"], ["family", "given"]])
        #expect(try database.tableExists("Gadget_tags") && database.tableExists("Gadget_photo"))
        #expect(try database.tableExists("Gadget_maker"))
        #expect(
            try database.columnNames(of: "Maker") == [
                "id", "createdTime", "modifiedTime", "country", "founded", "name",
            ])
    }

    @Test("a class mapped by hand reads what @DBBTable wrote, and the other way round", arguments: Backend.allCases)
    func sameFormatAsHandWritten(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        let written = Self.filledGadget(database.manager)
        try written.save()
        let byHand = try database.reopen([HandWritten.Gadget.self])
        #expect(try !byHand.usesGeneratedColumns(of: HandWritten.Gadget.self))
        let read = try #require(try HandWritten.Gadget.all(manager: byHand).first)
        #expect(read.name == "Widget" && read.serial == "S-1" && read.large == 9_000_000_000 && read.weight == 0.25)
        #expect(read.tags == written.tags && read.photo == written.photo && read.size == .large && read.rank == 3)
        read.price = 99
        read.tags = ["blue"]
        read.size = .small
        try read.save()
        let again = try #require(try Gadget.all(manager: database.manager).first)
        #expect(again.price == 99 && again.tags == ["blue"] && again.size == .small && again.count == -42)
        #expect(again.maker?.name == "ACME")
    }

    @Test("a save writes only what changed; an unchanged object is not written", arguments: Backend.allCases)
    func changeTracking(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        try Self.filledGadget(database.manager).save()
        let loaded = try #require(try Gadget.all(manager: database.manager).first)
        let modified = loaded.modifiedTime
        try loaded.save()
        #expect(loaded.modifiedTime == modified, "nothing changed: no write")
        // Another manager changes the price behind this object's back; this one changes the
        // name only, so the other's price stays.
        let other = try database.reopen([Gadget.self, Maker.self])
        let copy = try #require(try Gadget.all(manager: other).first)
        copy.price = 1
        try copy.save()
        loaded.name = "Renamed"
        #expect(loaded.hasChanges)
        try loaded.save()
        let final = try #require(try Gadget.all(manager: other).first)
        #expect(final.name == "Renamed" && final.price == 1)
    }

    @Test("a NULL read into a non-optional keeps the value and counts as a change", arguments: Backend.allCases)
    func nullIntoNonOptional(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        try Self.filledGadget(database.manager).save()
        try database.manager.execute(#"UPDATE "Gadget" SET "count" = NULL, "seen" = NULL"#)
        let loaded = try #require(try Gadget.all(manager: database.manager).first)
        #expect(loaded.count == 0 && loaded.seen == Date(timeIntervalSinceReferenceDate: 0))
        #expect(loaded.hasChanges)
        try loaded.save()
        #expect(try database.scalar(#"SELECT "count" FROM "Gadget""#, as: Int.self) == 0)
    }

    @Test(
        "a stored value the property cannot hold fails the fetch naming property and row", arguments: Backend.allCases)
    func valueOutOfRange(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        let gadget = Self.filledGadget(database.manager)
        try gadget.save()
        try database.manager.execute(#"UPDATE "Gadget" SET "small" = 300"#)
        #expect {
            try Gadget.all(manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidValue && error.table == "Gadget" && error.property == "small"
                && error.rowID == gadget.id && error.message.contains("300")
        }
        try database.manager.execute(#"UPDATE "Gadget" SET "small" = 1, "size" = 7"#)
        #expect(throws: Size.NotASize.self) { try Gadget.all(manager: database.manager) }
        // A REAL beyond Float's range would read as infinity, which a save would write back.
        try database.manager.execute(#"UPDATE "Gadget" SET "size" = 1, "weight" = 1e300"#)
        #expect {
            try Gadget.all(manager: database.manager)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidValue && error.property == "weight" && error.message.contains("Float")
        }
    }

    @Test("@Unique refuses a second row with the value, and the first stays", arguments: Backend.allCases)
    func uniqueMarker(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        try Self.filledGadget(database.manager, serial: "X").save()
        let twin = Self.filledGadget(database.manager, serial: "X")
        #expect {
            try twin.save()
        } throws: { error in
            (error as? DBBError).map { database.isConstraintViolation($0) } ?? false
        }
        #expect(twin.id == 0)
        #expect(try database.rows(of: "Gadget") == 1 && database.rows(of: "Maker") == 1)
    }

    @Test("fetching some properties goes through the key paths and leaves the others", arguments: Backend.allCases)
    func someProperties(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Gadget.self, Maker.self]) else { return }
        try Self.filledGadget(database.manager).save()
        var options = DBBQueryOptions()
        options.propertyNames = ["name", "price"]
        let loaded = try #require(try Gadget.instances(matching: options, manager: database.manager).first)
        #expect(loaded.name == "Widget" && loaded.price == 12.5 && loaded.count == 0 && loaded.serial == nil)
        loaded.count = 5
        try loaded.save()
        let again = try #require(try Gadget.all(manager: database.manager).first)
        #expect(again.count == 5 && again.given == "Ada")
    }

    @Test("properties without initial values start at zero", arguments: Backend.allCases)
    func zeroStart(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Maker.self]) else { return }
        let maker = Maker(dbManager: database.manager)
        #expect(maker.name == "" && maker.founded == 0 && maker.country == nil)
        try maker.save()
        let loaded = try #require(try Maker.instance(id: maker.id, manager: database.manager))
        #expect(loaded.name == "" && loaded.founded == 0 && loaded.country == nil)
    }

    @Test(
        "a name in backticks is the column's name without them, as a class mapped by hand has it",
        arguments: Backend.allCases)
    func backtickedNames(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [OldRule.self]) else { return }
        let old = OldRule(dbManager: database.manager)
        (old.default, old.class) = ("keep me", 7)
        try old.save()
        let manager = try database.reopen([Rule.self])
        #expect(try database.columnNames(of: "Rule") == ["id", "createdTime", "modifiedTime", "class", "default"])
        let rule = try #require(try Rule.all(manager: manager).first)
        #expect(rule.default == "keep me" && rule.class == 7 && !rule.hasChanges)
        #expect(Rule.Keys.default == "default" && Rule.Keys.class == "class")
        var options = DBBQueryOptions.options(withConditions: ["default = ?"])
        options.arguments = ["keep me"]
        #expect(try Rule.instances(matching: options, manager: manager).map(\.id) == [rule.id])
        #expect(try Rule.instances(where: \.class == 7, manager: manager).map(\.id) == [rule.id])
        rule.default = "new value"
        try rule.save()
        #expect(try OldRule.all(manager: database.manager).first?.default == "new value")
    }
}
