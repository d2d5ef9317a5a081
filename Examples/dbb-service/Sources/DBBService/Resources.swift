import DBBBuilder
import Foundation

// The demo's domain as API resources. Bodies are full records (a PUT replaces every field; an
// optional field left out becomes null); relations travel as ids.

enum Companies: Resource {
    struct Body: RequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case name, founded, blurb }
        var name: String
        var founded: Date?
        /// Base64 in JSON.
        var blurb: Data?
    }

    struct Representation: Codable, Sendable, Equatable {
        var id: Int64
        var name: String
        var founded: Date?
        var blurb: Data?
        var modifiedTime: Date?
    }

    static let path = "companies"
    static let name = "company"
    static let filters: [String: Filter] = ["name": .text("name = ?")]
    static let sortable: Set<String> = ["name", "founded"]

    static func apply(_ body: Body, to model: Company, manager: DBBManager) async throws {
        model.name = try Check.notBlank(body.name, "name")
        model.founded = body.founded
        model.blurb = try body.blurb.map { blurb in
            guard blurb.count <= 16_384 else {
                throw APIError(.unprocessableContent, "blurb: at most 16384 bytes", field: "blurb")
            }
            return blurb
        }
    }

    static func represent(_ model: Company) -> Representation {
        Representation(
            id: model.id, name: model.name, founded: model.founded, blurb: model.blurb,
            modifiedTime: model.modifiedTime)
    }
}

enum People: Resource {
    struct Body: RequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case firstName, lastName, email, age, nicknames, employer, spouse
        }
        var firstName: String
        var lastName: String
        var email: String?
        var age: Int?
        var nicknames: [String]?
        var employer: Int64?
        var spouse: Int64?
    }

    struct Representation: Codable, Sendable, Equatable {
        var id: Int64
        var firstName: String
        var lastName: String
        var email: String?
        var age: Int
        var nicknames: [String]
        var employer: Int64?
        var spouse: Int64?
        var modifiedTime: Date?
    }

    static let path = "people"
    static let name = "person"
    static let filters: [String: Filter] = [
        "firstName": .text("firstName = ?"), "lastName": .text("lastName = ?"), "email": .text("email = ?"),
        "minAge": .integer("age >= ?"), "maxAge": .integer("age <= ?"), "employer": .integer("employer IN (?)"),
    ]
    static let sortable: Set<String> = ["firstName", "lastName", "email", "age"]

    static func apply(_ body: Body, to model: Person, manager: DBBManager) async throws {
        model.firstName = try Check.notBlank(body.firstName, "firstName")
        model.lastName = try Check.notBlank(body.lastName, "lastName")
        model.email = body.email
        model.age = try Check.range(body.age ?? 0, 0...150, "age")
        model.nicknames = try Check.items(body.nicknames ?? [], "nicknames")
        model.employer = try await References.one(Company.self, body.employer, field: "employer", manager: manager)
        if let spouse = body.spouse, model.id != 0, spouse == model.id {
            throw APIError(.unprocessableContent, "spouse: a person cannot be their own spouse", field: "spouse")
        }
        model.spouse = try await References.one(Person.self, body.spouse, field: "spouse", manager: manager)
    }

    static func represent(_ model: Person) -> Representation {
        Representation(
            id: model.id, firstName: model.firstName, lastName: model.lastName, email: model.email, age: model.age,
            nicknames: model.nicknames, employer: model.employer?.id, spouse: model.spouse?.id,
            modifiedTime: model.modifiedTime)
    }
}

enum Projects: Resource {
    struct Body: RequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, code, budget, startDate, endDate, tags, projectLead, subProject
        }
        var name: String
        var code: String?
        var budget: Double?
        var startDate: Date?
        var endDate: Date?
        var tags: [String]?
        var projectLead: Int64?
        var subProject: Int64?
    }

    struct Representation: Codable, Sendable, Equatable {
        var id: Int64
        var name: String
        var code: String?
        var budget: Double
        var startDate: Date?
        var endDate: Date?
        var tags: [String]?
        var projectLead: Int64?
        var subProject: Int64?
        var modifiedTime: Date?
    }

    static let path = "projects"
    static let name = "project"
    static let filters: [String: Filter] = [
        "name": .text("name = ?"), "code": .text("code = ?"), "minBudget": .number("budget >= ?"),
        "maxBudget": .number("budget <= ?"), "projectLead": .integer("projectLead IN (?)"),
    ]
    static let sortable: Set<String> = ["name", "code", "budget", "startDate", "endDate"]

    static func apply(_ body: Body, to model: Project, manager: DBBManager) async throws {
        model.name = try Check.notBlank(body.name, "name")
        model.code = body.code
        // -0 as 0: SQLite stores -0.0 as 0, and a create would answer what no read gives.
        let budget = try Check.range(body.budget ?? 0, 0...1e15, "budget")
        model.budget = budget == 0 ? 0 : budget
        if let start = body.startDate, let end = body.endDate, end < start {
            throw APIError(.unprocessableContent, "endDate: before startDate", field: "endDate")
        }
        (model.startDate, model.endDate) = (body.startDate, body.endDate)
        // No tags are stored as none: null, as a later read gives them.
        model.tags = try body.tags.flatMap { $0.isEmpty ? nil : try Check.items($0, "tags") }
        model.projectLead = try await References.one(
            Person.self, body.projectLead, field: "projectLead", manager: manager)
        if let sub = body.subProject, model.id != 0, sub == model.id {
            throw APIError(
                .unprocessableContent, "subProject: a project cannot be its own sub-project", field: "subProject")
        }
        model.subProject = try await References.one(
            Project.self, body.subProject, field: "subProject", manager: manager)
    }

    static func represent(_ model: Project) -> Representation {
        Representation(
            id: model.id, name: model.name, code: model.code, budget: model.budget, startDate: model.startDate,
            endDate: model.endDate, tags: model.tags, projectLead: model.projectLead?.id,
            subProject: model.subProject?.id, modifiedTime: model.modifiedTime)
    }
}

enum Meetings: Resource {
    struct Body: RequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case purpose, startTime, durationMinutes, participants, project
        }
        var purpose: String
        var startTime: Date
        var durationMinutes: Int?
        var participants: [Int64]?
        var project: Int64?
    }

    struct Representation: Codable, Sendable, Equatable {
        var id: Int64
        var purpose: String
        var startTime: Date
        var durationMinutes: Int
        var participants: [Int64]
        var project: Int64?
        var modifiedTime: Date?
    }

    static let path = "meetings"
    static let name = "meeting"
    static let filters: [String: Filter] = [
        "from": .date("startTime >= ?"), "to": .date("startTime < ?"), "project": .integer("project IN (?)"),
        "participant": .integer("participants IN (?)"),
    ]
    static let sortable: Set<String> = ["startTime", "purpose", "durationMinutes"]

    static func apply(_ body: Body, to model: Meeting, manager: DBBManager) async throws {
        model.purpose = try Check.notBlank(body.purpose, "purpose")
        model.startTime = body.startTime
        model.durationMinutes = try Check.range(body.durationMinutes ?? 30, 1...1440, "durationMinutes")
        let ids = try Check.items(body.participants ?? [], "participants")
        guard Set(ids).count == ids.count else {
            throw APIError(.unprocessableContent, "participants: an id is listed twice", field: "participants")
        }
        model.participants = try await References.all(Person.self, ids, field: "participants", manager: manager)
        model.project = try await References.one(Project.self, body.project, field: "project", manager: manager)
    }

    static func represent(_ model: Meeting) -> Representation {
        Representation(
            id: model.id, purpose: model.purpose, startTime: model.startTime, durationMinutes: model.durationMinutes,
            participants: model.participants.map(\.id), project: model.project?.id, modifiedTime: model.modifiedTime)
    }
}
