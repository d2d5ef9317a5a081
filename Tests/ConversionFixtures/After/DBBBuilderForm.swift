//
//  Project.swift
//  DBBBuilder-Demo — as DBBBuilder's README and demo projects write table objects (iOS, KVC).
//

import DBBBuilder
import Foundation

@DBBTable
final class Person: DBBTableObject {
    struct Keys {
        static let firstName = "firstName"
        static let lastName = "lastName"
        static let age = "age"
    }

    var firstName = ""
    @NotNull @Unique var lastName = ""
    var age = 0
    @Transient var isSelected = false
}

@DBBTable
final class Project: DBBTableObject {
    @Column("itemName") @Indexed var name = ""
    var code = ""
    var startDate: Date?
    var endDate: Date?
    var budget: Float = 0
    var meetings = [Meeting]()
    var tags = [String]()
    var subProject: Project?
    var projectLead: Person?
}

@DBBTable(indexes: [DBBIndexer(columnsToIndex: ["startTime", "finishTime"])])
final class Meeting: DBBTableObject {
    @NotNull var purpose = ""
    var participants = [Person]()
    var startTime: Date? // local time
    var finishTime: Date?
    var scheduledHours: Double = 0
    var notes: String? // free text

    func duration() -> TimeInterval? {
        guard let startTime, let finishTime else { return nil }
        return finishTime.timeIntervalSince(startTime)
    }
}
