import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@testable import ConversionAfter
@testable import ConversionBefore

// The fields of the fixture classes, which Before and After both declare: one generic body
// fills, changes and describes an object of either.

protocol ReadingFields: DBBTableObject {
    var i0: Int { get set }
    var i1: Int { get set }
    var i2: Int { get set }
    var i3: Int { get set }
    var i4: Int { get set }
    var i5: Int { get set }
    var i6: Int { get set }
    var i7: Int { get set }
    var i8: Int { get set }
    var i9: Int { get set }
}

protocol MakerFields: DBBTableObject {
    var name: String { get set }
    var founded: Int? { get set }
}

protocol ItemFields: DBBTableObject {
    associatedtype MakerType: MakerFields
    associatedtype SizeType: RawRepresentable<Int>
    var title: String { get set }
    var sku: String? { get set }
    var grams: Int8 { get set }
    var stock: UInt64 { get set }
    var price: Double { get set }
    var rating: Float { get set }
    var onSale: Bool { get set }
    var released: Date? { get set }
    var added: Date { get set }
    var tags: [String] { get set }
    var photo: Data? { get set }
    var maker: MakerType? { get set }
    var alsoBy: [MakerType] { get set }
    var size: SizeType { get set }
    var isSelected: Bool { get set }
}

protocol BookingFields: DBBTableObject {
    var account: String { get set }
    var amount: Int { get set }
    var booked: Date? { get set }
    var openedBy: String { get }
    var note: String? { get set }
}

extension ConversionBefore.Reading: ReadingFields {}
extension ConversionAfter.Reading: ReadingFields {}
extension ConversionBefore.Maker: MakerFields {}
extension ConversionAfter.Maker: MakerFields {}
extension ConversionBefore.Item: ItemFields {}
extension ConversionAfter.Item: ItemFields {}
extension ConversionBefore.Booking: BookingFields {}
extension ConversionAfter.Booking: BookingFields {}

/// Writes, reads and rewrites the fixture classes of one side (Before or After) through the
/// same code, and describes what an object holds, so that the two sides can be compared.
struct Side<Reading: ReadingFields, Maker: MakerFields, Item: ItemFields, Booking: BookingFields>
where Item.MakerType == Maker {
    let manager: DBBManager

    static var classes: [DBBTableObject.Type] { [Reading.self, Maker.self, Item.self, Booking.self] }

    /// Row `n` of each class, with every kind of value (`nil`, empty, Unicode, extremes) in turn.
    func insert(rows: Range<Int>) throws {
        var makers: [Maker] = []
        for n in rows {
            let maker = Maker(dbManager: manager)
            maker.name = "Maker \(n) — Ünïcode ✓"
            maker.founded = n % 3 == 0 ? nil : 1900 + n
            makers.append(maker)
        }
        try DBBTableObject.save(makers, manager: manager)
        var items: [Item] = []
        for (offset, n) in rows.enumerated() {
            let item = Item(dbManager: manager)
            item.title = "Item \(n)"
            item.sku = n % 4 == 0 ? nil : "SKU-\(n)"
            item.grams = Int8(truncatingIfNeeded: n * 37)
            item.stock = n % 5 == 0 ? UInt64(Int64.max) : UInt64(n * 1_000)
            item.price = Double(n) * 1.25
            item.rating = Float(n % 5) / 2
            item.onSale = n % 2 == 0
            item.released = n % 3 == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(n) * 86_400.5)
            item.added = Date(timeIntervalSinceReferenceDate: -Double(n) * 3_600)
            item.tags = n % 3 == 1 ? [] : ["tag \(n)", "ß", ""]
            item.photo = n % 2 == 1 ? nil : Data((0..<(n % 7)).map { UInt8($0 * 31 % 256) })
            item.maker = n % 4 == 3 ? nil : makers[offset]
            item.alsoBy = Array(makers.prefix(offset % 3))
            item.size = Item.SizeType(rawValue: n % 3)!
            item.isSelected = true
            items.append(item)
        }
        try DBBTableObject.save(items, manager: manager)
        var bookings: [Booking] = []
        for n in rows {
            let booking = Booking(dbManager: manager)
            booking.account = n % 2 == 0 ? "cash" : "bank \(n)"
            booking.amount = n % 5 == 0 ? Int.min : n * -250
            booking.booked = Date(timeIntervalSinceReferenceDate: Double(n) * 60)
            booking.note = "not stored"
            bookings.append(booking)
        }
        try DBBTableObject.save(bookings, manager: manager)
        var readings: [Reading] = []
        for n in rows {
            let reading = Reading(dbManager: manager)
            (reading.i0, reading.i1, reading.i2, reading.i3, reading.i4) = (n, -n, n * n, Int.max - n, 0)
            (reading.i5, reading.i6, reading.i7, reading.i8, reading.i9) = (n % 7, 1 << (n % 60), -1, n / 2, 42)
            readings.append(reading)
        }
        try DBBTableObject.save(readings, manager: manager)
    }

    /// Changes every row of every class and saves it: each column and join table written again.
    func rewriteAll() throws {
        let makers = try Maker.all(manager: manager)
        for maker in makers {
            maker.name += " (renamed)"
            maker.founded = maker.founded.map { $0 + 1 } ?? 2000
        }
        try DBBTableObject.save(makers, manager: manager)
        let items = try Item.all(manager: manager)
        for (index, item) in items.enumerated() {
            item.title = item.title.uppercased()
            item.sku = item.sku.map { $0 + "-B" }
            item.grams = item.grams &+ 1
            item.stock /= 2
            item.price = -item.price
            item.rating += 0.5
            item.onSale.toggle()
            item.released = item.released == nil ? Date(timeIntervalSinceReferenceDate: 1) : nil
            item.added = item.added.addingTimeInterval(0.25)
            item.tags = item.tags.reversed() + ["again"]
            item.photo = item.photo == nil ? Data([0, 255]) : nil
            item.maker = item.maker == nil ? makers.first : nil
            item.alsoBy = Array(makers.suffix(index % 2 + 1))
            item.size = Item.SizeType(rawValue: (item.size.rawValue + 1) % 3)!
        }
        try DBBTableObject.save(items, manager: manager)
        let bookings = try Booking.all(manager: manager)
        for booking in bookings {
            booking.account += "!"
            booking.amount = booking.amount == Int.min ? Int.max : booking.amount + 1
            booking.booked = booking.booked?.addingTimeInterval(1)
        }
        try DBBTableObject.save(bookings, manager: manager)
        let readings = try Reading.all(manager: manager)
        for reading in readings {
            reading.i0 += 1
            reading.i9 = reading.i3 / 3
            reading.i4 = -reading.i4 - 1
        }
        try DBBTableObject.save(readings, manager: manager)
    }

    /// What the database holds, as the side's classes read it: every object of every class, by
    /// class and id, with every mapped property (references by id).
    func contents() throws -> [String] {
        func date(_ date: Date?) -> String { date.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil" }
        var lines: [String] = []
        for maker in try Maker.all(manager: manager) {
            lines.append("Maker \(maker.id): \(maker.name) | \(maker.founded.map(String.init) ?? "nil")")
        }
        for item in try Item.all(manager: manager) {
            let fields: [String] = [
                item.title, item.sku ?? "nil", "\(item.grams)", "\(item.stock)", "\(item.price)", "\(item.rating)",
                "\(item.onSale)", date(item.released), date(item.added), "\(item.tags)",
                item.photo.map { $0.base64EncodedString() } ?? "nil", item.maker.map { "\($0.id)" } ?? "nil",
                "\(item.alsoBy.map(\.id))", "\(item.size.rawValue)",
            ]
            lines.append("Item \(item.id): " + fields.joined(separator: " | "))
        }
        for booking in try Booking.all(manager: manager) {
            lines.append("Booking \(booking.id): \(booking.account) | \(booking.amount) | \(date(booking.booked))")
        }
        for reading in try Reading.all(manager: manager) {
            let numbers = [
                reading.i0, reading.i1, reading.i2, reading.i3, reading.i4, reading.i5, reading.i6, reading.i7,
                reading.i8, reading.i9,
            ]
            lines.append("Reading \(reading.id): \(numbers)")
        }
        return lines.sorted()
    }
}

typealias Before = Side<
    ConversionBefore.Reading, ConversionBefore.Maker, ConversionBefore.Item, ConversionBefore.Booking
>
typealias After = Side<ConversionAfter.Reading, ConversionAfter.Maker, ConversionAfter.Item, ConversionAfter.Booking>

@Suite("dbb-codegen --convert keeps the table: the converted classes read and write what the originals did")
struct ConversionRoundTripTests {
    /// Every schema object of the file (`type`, `name`, `tbl_name`, `sql`), and every row of every
    /// table, as text: what the file holds, to compare before and after.
    static func schema(_ database: ManagerTestDatabase) throws -> [String] {
        try database.connection().fetchAll("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") {
            "\($0.string(at: 0) ?? "") \($0.string(at: 1) ?? "") \($0.string(at: 2) ?? ""): \($0.string(at: 3) ?? "")"
        }
    }

    @Test("rows written by the hand-mapped classes are read by the converted ones, written again, and read back")
    func roundTrip() throws {
        let database = try ManagerTestDatabase()
        let original = Before(manager: database.manager)
        try database.manager.register(Before.classes + [ConversionBefore.Pet.self])
        try original.insert(rows: 0..<12)
        let pet = ConversionBefore.Pet(dbManager: database.manager)
        (pet.species, pet.name) = ("cat", "Tom")
        try pet.save()
        let schema = try Self.schema(database)
        let written = try original.contents()
        #expect(written.count == 48 && schema.count > 10, "\(schema)")

        // The converted classes, with the unconverted chain beside them, on the same file.
        let converted = After(manager: try database.reopen(After.classes + [ConversionAfter.Pet.self]))
        #expect(try Self.schema(database) == schema, "registering the converted classes changes nothing")
        #expect(try converted.contents() == written, "every row reads the same")
        #expect(
            try ConversionAfter.Pet.all(manager: converted.manager).map { "\($0.species) \($0.name)" } == ["cat Tom"])
        try converted.rewriteAll()
        try converted.insert(rows: 12..<15)
        let rewritten = try converted.contents()
        #expect(rewritten.count == 60 && Set(rewritten).isDisjoint(with: written), "every row was written again")

        // The hand-mapped classes read what the converted ones wrote.
        let reread = Before(manager: try database.reopen(Before.classes))
        #expect(try reread.contents() == rewritten)
        #expect(try Self.schema(database) == schema, "nor did saving change the schema")
    }

    @Test("the converted classes build the same schema on a new file as the hand-mapped ones")
    func sameSchemaFromScratch() throws {
        let before = try ManagerTestDatabase(Before.classes)
        let after = try ManagerTestDatabase(After.classes)
        #expect(try Self.schema(before) == (try Self.schema(after)))
        #expect(try Self.schema(after).contains { $0.hasPrefix("index CatalogItem_title ") }, "the @Indexed index")
        #expect(
            try Self.schema(after).contains { $0.hasPrefix("index Booking_accountbooked ") && $0.contains("UNIQUE") },
            "the index over two columns")
    }
}
