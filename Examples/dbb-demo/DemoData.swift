import DBBBuilder
import Foundation

/// A small, fixed data set of DBBBuilder's demo domain.
enum DemoData {
    static func day(_ text: String) -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 9))!
    }

    static func save(into manager: DBBManager) throws {
        func person(_ first: String, _ last: String, _ age: Int, _ email: String?) -> Person {
            let person = Person(dbManager: manager)
            (person.firstName, person.lastName, person.age, person.email) = (first, last, age, email)
            return person
        }
        func company(_ name: String, _ founded: String) -> Company {
            let company = Company(dbManager: manager)
            (company.name, company.founded) = (name, day(founded))
            company.blurb = Data("\(name): since \(founded.prefix(4))".utf8)
            return company
        }
        let engines = company("Analytical Engines Ltd", "1834-06-01")
        let compilers = company("Compilers & Co", "1952-05-01")
        let ada = person("Ada", "Lovelace", 36, "ada@engines.example")
        let charles = person("Charles", "Babbage", 79, nil)
        let grace = person("Grace", "Hopper", 85, "grace@compilers.example")
        let margaret = person("Margaret", "Hamilton", 38, "margaret@apollo.example")
        let alan = person("Alan", "Turing", 41, nil)
        ada.employer = engines
        charles.employer = engines
        grace.employer = compilers
        margaret.employer = compilers
        ada.nicknames = ["Enchantress of Number"]
        grace.nicknames = ["Amazing Grace", "Grandma COBOL"]
        try Person.save([ada, charles, grace, margaret, alan], manager: manager)

        func project(_ name: String, _ code: String, _ budget: Double, _ start: String, lead: Person, tags: [String]?)
            -> Project
        {
            let project = Project(dbManager: manager)
            (project.name, project.code, project.budget, project.startDate) = (name, code, budget, day(start))
            (project.projectLead, project.tags) = (lead, tags)
            return project
        }
        let engine = project("Difference Engine", "DE", 17_000, "1822-06-14", lead: charles, tags: ["hardware"])
        let notes = project(
            "Notes on the Engine", "NOTE-G", 500, "1842-10-01", lead: ada, tags: ["software", "Bernoulli"])
        let cobol = project("COBOL", "CBL", 250_000, "1959-05-28", lead: grace, tags: ["language"])
        let apollo = project("Apollo Guidance", "AGC", 1_200_000, "1961-08-09", lead: margaret, tags: nil)
        apollo.subProject = project(
            "Priority Displays", "AGC-PD", 90_000, "1968-01-01", lead: margaret, tags: ["safety"])
        try Project.save([engine, notes, cobol, apollo], manager: manager)

        func meeting(_ purpose: String, _ start: String, _ minutes: Int, _ people: [Person], _ project: Project?)
            -> Meeting
        {
            let meeting = Meeting(dbManager: manager)
            (meeting.purpose, meeting.startTime, meeting.durationMinutes) = (purpose, day(start), minutes)
            (meeting.participants, meeting.project) = (people, project)
            return meeting
        }
        try Meeting.save(
            [
                meeting("Engine review", "2010-12-30", 60, [ada, charles], engine),
                meeting("Note G walkthrough", "2011-01-02", 90, [ada, charles, alan], notes),
                meeting("Compiler kickoff", "2011-01-03", 45, [grace, margaret], cobol),
                meeting("Flight software review", "2011-01-05", 120, [margaret, grace, alan], apollo),
            ], manager: manager)
    }
}
