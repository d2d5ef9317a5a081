import DBBBuilder
import Foundation

/// DBBBuilder's demo person, with every kind of relation.
final class Member: DBBTableObject {
    var firstName = ""
    var lastName = ""
    var age = 0
    var nicknames: [String] = []
    var luckyNumbers: [Int]?
    var birthdays: [Date] = []
    var children: [Member]?
    var spouse: Member?
    var employer: Company?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "firstName": DBBPropertyPersistence(\Member.firstName),
                "lastName": DBBPropertyPersistence(\Member.lastName),
                "age": DBBPropertyPersistence(\Member.age),
                "nicknames": DBBPropertyPersistence(\Member.nicknames),
                "luckyNumbers": DBBPropertyPersistence(\Member.luckyNumbers),
                "birthdays": DBBPropertyPersistence(\Member.birthdays),
                "children": DBBPropertyPersistence(\Member.children),
                "spouse": DBBPropertyPersistence(\Member.spouse),
                "employer": DBBPropertyPersistence(\Member.employer, columnName: "company"),
            ], for: self, indexer: DBBIndexer(columnsToIndex: ["lastName"]))
    }

    convenience init(_ first: String, _ last: String, age: Int, manager: DBBManager) {
        self.init(dbManager: manager)
        (firstName, lastName, self.age) = (first, last, age)
    }
}

final class Company: DBBTableObject {
    var name = ""
    var blurb: Data?
    var suppliers: [Company] = []

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Company.name),
                "blurb": DBBPropertyPersistence(\Company.blurb),
                "suppliers": DBBPropertyPersistence(\Company.suppliers),
            ], for: self)
    }

    convenience init(_ name: String, manager: DBBManager) {
        self.init(dbManager: manager)
        self.name = name
    }
}

final class Venture: DBBTableObject {
    var name = ""
    var tags: [String]?
    var subProject: Venture?
    var projectLead: Member?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Venture.name),
                "tags": DBBPropertyPersistence(\Venture.tags),
                "subProject": DBBPropertyPersistence(\Venture.subProject),
                "projectLead": DBBPropertyPersistence(\Venture.projectLead),
            ], for: self)
    }

    convenience init(_ name: String, manager: DBBManager) {
        self.init(dbManager: manager)
        self.name = name
    }
}

final class Meeting: DBBTableObject {
    var purpose = ""
    var startTime: Date?
    var participants: [Member] = []
    var project: Venture?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "purpose": DBBPropertyPersistence(\Meeting.purpose),
                "startTime": DBBPropertyPersistence(\Meeting.startTime),
                "participants": DBBPropertyPersistence(\Meeting.participants),
                "project": DBBPropertyPersistence(\Meeting.project),
            ], for: self)
    }

    convenience init(_ purpose: String, _ participants: [Member], project: Venture?, manager: DBBManager) {
        self.init(dbManager: manager)
        (self.purpose, self.participants, self.project) = (purpose, participants, project)
    }
}

// MARK: - An inheritance chain with relations: Vehicle → Car, one table "Car"

class Vehicle: DBBTableObject {
    var wheels = 0
    var owner: Member?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "wheels": DBBPropertyPersistence(\Vehicle.wheels),
                "owner": DBBPropertyPersistence(\Vehicle.owner),
            ], for: self)
    }
}

final class Car: Vehicle {
    var model = ""
    var passengers: [Member] = []
    var serviceDates: [Date]?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "model": DBBPropertyPersistence(\Car.model),
                "passengers": DBBPropertyPersistence(\Car.passengers),
                "serviceDates": DBBPropertyPersistence(\Car.serviceDates),
            ], for: self)
    }
}

/// Holds its save open until released: for proving reads are not blocked by a write.
final class SlowSave: DBBTableObject {
    var name = ""
    nonisolated(unsafe) static var started: DispatchSemaphore?
    nonisolated(unsafe) static var release: DispatchSemaphore?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\SlowSave.name)], for: self)
    }

    override func performPreSaveActions() {
        Self.started?.signal()
        Self.release?.wait()
    }
}
