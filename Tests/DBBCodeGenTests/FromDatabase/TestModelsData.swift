import DBBBuilder
import Foundation

@testable import FromDatabaseModels

/// The tests' own models (Tests/DBBBuilderTests, linked into FromDatabaseModels) that share a
/// database: every class of Models.swift, MacroModels.swift, RelationModels.swift and
/// ValueTypeModels.swift that maps its own table, and whose mapped properties are stored ones
/// (Observed and AccessShapes map computed and wrapped properties, which only their own
/// accessors reach; the second classes of a table — HandWritten.Gadget, OldRule, Version1/2,
/// HandVoucher's siblings — and the refused mappings are left out).
enum TestModels {
    static let classes: [DBBTableObject.Type] = [
        Person.self, Project.self, AllTypes.self, Hooked.self, Pet.self, SlotKinds.self, OverridingChild.self,
        GenericShape<Int>.self, Gadget.self, Maker.self, Rule.self, Member.self, Company.self, Venture.self,
        Meeting.self, Car.self, Voucher.self, HandVoucher.self, Parcel.self, RenamedAfter.self, PricedAfter.self,
    ]

    /// Rows of every class with every kind of value in turn: `nil` and not, empty and not,
    /// Unicode, extremes, references and lists of them.
    static func fill(_ manager: DBBManager) throws {
        let rows = 0..<6
        func date(_ n: Int) -> Date { Date(timeIntervalSinceReferenceDate: Double(n) * 86_400.25 - 1_000) }
        var people: [Person] = []
        for n in rows {
            let person = Person("First \(n) ✓", n % 2 == 0 ? "Lovelace" : "Hopper ß", age: n * 17, manager: manager)
            person.birthday = n % 3 == 0 ? nil : date(n)
            person.isMember = n % 2 == 1
            person.rating = n % 4 == 0 ? nil : Double(n) / 3
            person.nickname = n % 3 == 1 ? nil : "nick \(n)"
            people.append(person)
        }
        var objects: [DBBTableObject] = people
        for n in rows {
            let project = Project("Project \(n)", budget: Float(n) * 1.5, manager: manager)
            project.code = n % 2 == 0 ? "" : "C-\(n)"
            project.startDate = date(n)
            project.endDate = n % 2 == 0 ? nil : date(n + 30)
            objects.append(project)

            let all = AllTypes(dbManager: manager)
            all.bool = n % 2 == 0
            (all.int, all.int8, all.int16, all.int32) = (n % 3 == 0 ? Int.min : n, Int8(-n), Int16(n * 300), Int32.max)
            (all.int64, all.uint8, all.uint32, all.uint64) = (Int64.max - Int64(n), UInt8(255 - n), 7, UInt64(n) << 40)
            (all.double, all.float, all.string) = (Double(n) / 7, Float(n) / 4, n % 2 == 0 ? "" : "text \(n) 🙂")
            all.date = date(-n)
            all.optionalBool = n % 3 == 0 ? nil : n % 2 == 0
            all.optionalInt = n % 2 == 0 ? nil : -n
            all.optionalDouble = n % 2 == 1 ? nil : 0.1 * Double(n)
            all.optionalString = n % 3 == 2 ? nil : "opt \(n)"
            all.optionalDate = n % 2 == 0 ? nil : date(n * 2)
            all.blob = n % 2 == 0 ? nil : Data((0..<n).map { UInt8($0 * 40) })
            all.bytes = Data(repeating: UInt8(n), count: n + 1)
            objects.append(all)

            let hooked = Hooked(dbManager: manager)
            hooked.name = "hooked \(n)"
            objects.append(hooked)

            let pet = Pet(dbManager: manager)
            (pet.species, pet.legs, pet.name) = (n % 2 == 0 ? "cat" : "dog", 4 - n % 2, "pet \(n)")
            pet.furColor = n % 3 == 0 ? nil : "fur \(n)"
            pet.adopted = n % 2 == 0 ? date(n) : nil
            objects.append(pet)

            let slots = SlotKinds(dbManager: manager)
            (slots.int, slots.int64, slots.double, slots.bool, slots.string) = (
                n, -Int64(n), 2.5 * Double(n), true, "s"
            )
            slots.date = date(n)
            slots.optionalInt = n % 2 == 0 ? n : nil
            slots.optionalInt64 = n % 2 == 1 ? Int64(n) * 1_000_000_007 : nil
            slots.optionalDate = n % 3 == 0 ? date(n) : nil
            objects.append(slots)

            let child = OverridingChild(dbManager: manager)
            child.level = n * 10
            objects.append(child)

            let shape = GenericShape<Int>(dbManager: manager)
            (shape.value, shape.count) = (n % 2 == 0 ? nil : n * n, n)
            objects.append(shape)

            let rule = Rule(dbManager: manager)
            (rule.default, rule.class) = ("default \(n)", n)
            objects.append(rule)

            let relabeled = RenamedAfter(dbManager: manager)
            relabeled.stage = [.draft, .review, .published][n % 3]
            objects.append(relabeled)

            let priced = PricedAfter(dbManager: manager)
            priced.amount = Decimal(string: "\(n).0\(n)")!
            objects.append(priced)
        }
        try saveByClass(objects, manager)
        try fillGadgets(manager, rows: rows, date: date)
        try fillRelations(manager, rows: rows, date: date)
        try fillVouchers(manager, rows: rows)
    }

    /// Saves `objects`, one batch per class (a batch holds objects of one class).
    static func saveByClass(_ objects: [DBBTableObject], _ manager: DBBManager) throws {
        var batches: [(type: ObjectIdentifier, objects: [DBBTableObject])] = []
        for object in objects {
            let type = ObjectIdentifier(Swift.type(of: object))
            if let index = batches.firstIndex(where: { $0.type == type }) {
                batches[index].objects.append(object)
            } else {
                batches.append((type, [object]))
            }
        }
        for batch in batches { try DBBTableObject.save(batch.objects, manager: manager) }
    }

    private static func fillGadgets(_ manager: DBBManager, rows: Range<Int>, date: (Int) -> Date) throws {
        var objects: [DBBTableObject] = []
        for n in rows {
            let maker = Maker(dbManager: manager)
            (maker.name, maker.founded, maker.country) = ("Maker \(n)", 1900 + n, n % 2 == 0 ? nil : "NO")
            let gadget = Gadget(dbManager: manager)
            (gadget.name, gadget.serial, gadget.family, gadget.given) = (
                "gadget \(n)", n % 2 == 0 ? nil : "S\(n)", "family \(n % 2)", "given \(n)"
            )
            (gadget.count, gadget.small, gadget.large, gadget.price, gadget.weight) = (
                n, Int8(n - 3), UInt64(Int64.max) - UInt64(n), Double(n) * 9.99, Float(n) / 8
            )
            (gadget.isActive, gadget.released, gadget.seen) = (n % 2 == 0, n % 3 == 0 ? nil : date(n), date(-n))
            gadget.tags = Array(["a", "b", "ü", ""].prefix(n % 5))
            gadget.photo = n % 2 == 0 ? Data([UInt8(n), 0, 255]) : nil
            gadget.maker = n % 3 == 2 ? nil : maker
            gadget.size = [.small, .medium, .large][n % 3]
            gadget.rank = n * 2
            objects += [maker, gadget]
        }
        try saveByClass(objects, manager)
    }

    private static func fillRelations(_ manager: DBBManager, rows: Range<Int>, date: (Int) -> Date) throws {
        var companies: [Company] = []
        for n in rows {
            let company = Company("Company \(n)", manager: manager)
            company.blurb = n % 2 == 0 ? Data("blurb \(n)".utf8) : nil
            company.suppliers = Array(companies.suffix(n % 3))
            companies.append(company)
        }
        try DBBTableObject.save(companies, manager: manager)
        var members: [Member] = []
        for n in rows {
            let member = Member("Member \(n)", n % 2 == 0 ? "Even" : "Odd", age: 20 + n, manager: manager)
            member.nicknames = Array(["x", "y", "z"].prefix(n % 4))
            member.luckyNumbers = n % 3 == 0 ? nil : [n, -n, Int.max]
            member.birthdays = n % 2 == 0 ? [] : [date(n), date(-n)]
            member.children = n % 2 == 0 ? nil : Array(members.suffix(2))
            member.spouse = members.last
            member.employer = n % 3 == 1 ? nil : companies[n]
            members.append(member)
        }
        try DBBTableObject.save(members, manager: manager)
        var ventures: [Venture] = []
        var objects: [DBBTableObject] = []
        for n in rows {
            let venture = Venture("Venture \(n)", manager: manager)
            venture.tags = n % 2 == 0 ? nil : ["t\(n)"]
            venture.subProject = ventures.last
            venture.projectLead = n % 3 == 0 ? nil : members[n]
            ventures.append(venture)
            let meeting = Meeting("Meeting \(n)", Array(members.prefix(n % 4)), project: venture, manager: manager)
            meeting.startTime = n % 2 == 0 ? date(n) : nil
            let car = Car(dbManager: manager)
            (car.wheels, car.model, car.owner) = (4, "Model \(n)", n % 2 == 0 ? members[n] : nil)
            car.passengers = Array(members.suffix(n % 3))
            car.serviceDates = n % 3 == 0 ? nil : [date(n)]
            objects += [venture, meeting, car]
        }
        try saveByClass(objects, manager)
    }

    private static func fillVouchers(_ manager: DBBManager, rows: Range<Int>) throws {
        var objects: [DBBTableObject] = []
        for n in rows {
            let voucher = Voucher(dbManager: manager)
            voucher.amount = Decimal(string: "1234567890.123456789\(n)")!
            voucher.fee = n % 2 == 0 ? nil : Decimal(n) / 4
            voucher.token = UUID(uuidString: "00000000-0000-0000-0000-00000000000\(n)")!
            voucher.reference = n % 3 == 0 ? nil : UUID(uuidString: "ABCDEF00-0000-0000-0000-00000000000\(n)")!
            voucher.home = URL(string: "https://example.com/\(n)?q=ä")!
            voucher.link = n % 2 == 0 ? nil : URL(string: "file:///tmp/\(n)")!
            voucher.stage = [.draft, .review, .published][n % 3]
            voucher.previous = n % 2 == 0 ? nil : .review
            voucher.urgency = [.low, .normal, .urgent][n % 3]
            voucher.tokens =
                n % 2 == 0 ? [] : [voucher.token, UUID(uuidString: "11111111-2222-3333-4444-555555555555")!]
            voucher.stages = Array([Stage.published, .draft].prefix(n % 3))
            voucher.prices = [Decimal(n), Decimal(string: "-0.5")!]
            voucher.links = n % 3 == 0 ? nil : [URL(string: "https://a.example/\(n)")!]
            voucher.address = Address(
                street: "Street \(n)", city: "Oslo", zip: n % 2 == 0 ? nil : 1000 + n, lines: ["l"])
            voucher.alternates = n % 2 == 0 ? nil : [Address(street: "Alt", city: "Bergen", rating: 2.5)]
            voucher.counts = ["a": n, "b": -n]
            let hand = HandVoucher(dbManager: manager)
            hand.amount = Decimal(n) * 100
            hand.token = n % 2 == 0 ? nil : voucher.token
            hand.link = URL(string: "https://hand.example/\(n)")!
            (hand.stage, hand.previous) = (.review, n % 2 == 0 ? .draft : nil)
            hand.stages = n % 3 == 0 ? nil : [.draft]
            hand.urgencies = [.urgent, .low].suffix(n % 3)
            hand.address = n % 2 == 0 ? nil : Address(street: "Hand \(n)", city: "Tromsø")
            let parcel = Parcel(dbManager: manager)
            parcel.content = Fragile(text: "parcel \(n)")
            parcel.weight = n % 2 == 0 ? nil : Decimal(string: "0.00\(n)")!
            objects += [voucher, hand, parcel]
        }
        try saveByClass(objects, manager)
    }
}
