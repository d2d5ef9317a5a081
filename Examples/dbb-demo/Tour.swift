import DBBBuilder
import Foundation

/// Fetches that show query options at work.
enum Tour {
    static func show(_ manager: DBBManager) async throws {
        try showQueries(manager)
        let all = try await Meeting.all(manager: manager)
        let minutes = all.reduce(0) { $0 + $1.durationMinutes }
        print("\nAn async fetch: \(all.count) meetings, \(minutes) minutes in all.\n")
    }

    /// Synchronous fetches (in an async function Swift would pick the async forms).
    static func showQueries(_ manager: DBBManager) throws {
        print("People, sorted by last name:")
        let people = try Person.instances(matching: .options(sortColumns: [Person.Keys.lastName]), manager: manager)
        Table.print(
            ["name", "age", "employer", "nicknames"],
            people.map { person in
                [
                    "\(person.firstName) \(person.lastName)", "\(person.age)", person.employer?.name ?? "—",
                    person.nicknames.joined(separator: ", "),
                ]
            })

        print("\nProjects with a budget over 10,000, largest first:")
        var options = DBBQueryOptions.options(
            withConditions: ["budget > ?"], sortColumns: [Project.Keys.budget], ascendingSort: false)
        options.arguments = [10_000]
        let projects = try Project.instances(matching: options, manager: manager)
        Table.print(
            ["project", "budget", "lead", "sub-project"],
            projects.map { project in
                [
                    project.name, String(format: "%.0f", project.budget), project.projectLead?.firstName ?? "—",
                    project.subProject?.name ?? "—",
                ]
            })

        print("\nMeetings Alan attends, or about COBOL (a join-table condition, combined with OR):")
        let alan = try Person.instances(matching: .options(withConditions: ["firstName = 'Alan'"]), manager: manager)
        let cobol = try Project.instances(matching: .options(withConditions: ["name = 'COBOL'"]), manager: manager)
        options = .options(
            withConditions: ["participants IN (?)", "OR", "project = ?"], sortColumns: [Meeting.Keys.startTime])
        options.arguments = [.integer(alan.first?.id ?? 0), .integer(cobol.first?.id ?? 0)]
        let meetings = try Meeting.instances(matching: options, manager: manager)
        Table.print(
            ["meeting", "day", "minutes", "participants"],
            meetings.map { meeting in
                [
                    meeting.purpose, String(describing: meeting.startTime).prefix(10).description,
                    "\(meeting.durationMinutes)",
                    meeting.participants.map(\.firstName).joined(separator: ", "),
                ]
            })
    }
}

/// Prints rows as aligned columns.
enum Table {
    static func print(_ header: [String], _ rows: [[String]]) {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        Swift.print("  " + line(header))
        Swift.print("  " + line(widths.map { String(repeating: "-", count: $0) }))
        for row in rows { Swift.print("  " + line(row)) }
    }
}
