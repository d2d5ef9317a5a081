import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import DBBWeeklyReport
import Foundation
import Testing

@testable import FromDatabaseDemo
@testable import FromDatabaseDemoGenerated
@testable import FromDatabaseModels
@testable import FromDatabaseModelsGenerated

/// `dbb-codegen --from-database` on the databases of the tests' models, of the demo and of the
/// example service, on SQLite and PostgreSQL: the classes it writes are the committed fixture
/// targets (compiled here), register against the same database without changing its schema,
/// and read every row as the classes that wrote it read it.
@Suite("dbb-codegen --from-database: classes that register unchanged and read every row back")
struct FromDatabaseRoundTripTests {
    /// Each original class of the tests' models with the class generated for its table.
    static let modelPairs: [(original: DBBTableObject.Type, generated: DBBTableObject.Type)] = [
        (FromDatabaseModels.AllTypes.self, FromDatabaseModelsGenerated.AllTypes.self),
        (FromDatabaseModels.Car.self, FromDatabaseModelsGenerated.Car.self),
        (FromDatabaseModels.Company.self, FromDatabaseModelsGenerated.Company.self),
        (FromDatabaseModels.Gadget.self, FromDatabaseModelsGenerated.Gadget.self),
        (FromDatabaseModels.GenericShape<Int>.self, FromDatabaseModelsGenerated.GenericShape_Int.self),
        (FromDatabaseModels.HandVoucher.self, FromDatabaseModelsGenerated.HandVoucher.self),
        (FromDatabaseModels.Hooked.self, FromDatabaseModelsGenerated.Hooked.self),
        (FromDatabaseModels.Maker.self, FromDatabaseModelsGenerated.Maker.self),
        (FromDatabaseModels.Meeting.self, FromDatabaseModelsGenerated.Meeting.self),
        (FromDatabaseModels.Member.self, FromDatabaseModelsGenerated.Member.self),
        (FromDatabaseModels.OverridingChild.self, FromDatabaseModelsGenerated.OverridingChild.self),
        (FromDatabaseModels.Parcel.self, FromDatabaseModelsGenerated.Parcel.self),
        (FromDatabaseModels.Person.self, FromDatabaseModelsGenerated.Person.self),
        (FromDatabaseModels.Pet.self, FromDatabaseModelsGenerated.Pet.self),
        (FromDatabaseModels.PricedAfter.self, FromDatabaseModelsGenerated.Priced.self),
        (FromDatabaseModels.Project.self, FromDatabaseModelsGenerated.Project.self),
        (FromDatabaseModels.RenamedAfter.self, FromDatabaseModelsGenerated.Relabeled.self),
        (FromDatabaseModels.Rule.self, FromDatabaseModelsGenerated.Rule.self),
        (FromDatabaseModels.SlotKinds.self, FromDatabaseModelsGenerated.SlotKinds.self),
        (FromDatabaseModels.Venture.self, FromDatabaseModelsGenerated.Venture.self),
        (FromDatabaseModels.Voucher.self, FromDatabaseModelsGenerated.Voucher.self),
    ]

    /// The demo's (and the service's) classes, the weekly report's `Usage` among them, with the
    /// classes generated for their tables.
    static let demoPairs: [(original: DBBTableObject.Type, generated: DBBTableObject.Type)] = [
        (FromDatabaseDemo.Company.self, FromDatabaseDemoGenerated.Company.self),
        (FromDatabaseDemo.Meeting.self, FromDatabaseDemoGenerated.Meeting.self),
        (FromDatabaseDemo.Person.self, FromDatabaseDemoGenerated.Person.self),
        (FromDatabaseDemo.Project.self, FromDatabaseDemoGenerated.Project.self),
        (DBBWeeklyReport.Usage.self, FromDatabaseDemoGenerated.Usage.self),
    ]

    @Test(
        "the tests' models: references, arrays, dates, optionals, indexes, custom columns, value types",
        arguments: Backend.allCases)
    func testModels(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, TestModels.classes) else { return }
        try TestModels.fill(database.manager)
        let notes = try RoundTrip(database: database, fixture: "ModelsGenerated").check(Self.modelPairs)
        #expect(!notes.contains("named like a date"), "the catalog says which reals are dates: \(notes)")
    }

    @Test(
        "the demo's database, as dbb-demo makes it (its Usage objects included)",
        arguments: Backend.allCases)
    func demo(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend) else { return }
        let demo = try #require(ScriptFixture.product("dbb-demo"))
        let home = try TemporaryDirectory()
        let run = try ScriptFixture.run(
            demo, backend == .sqlite ? ["--database", database.place] : ["--postgres", database.place],
            environment: ["XDG_CACHE_HOME": home.url.path, "HOME": home.url.path])
        try #require(run.status == 0, "\(run.stderr)")
        try RoundTrip(database: database, fixture: "DemoGenerated").check(Self.demoPairs)
    }

    @Test(
        "the example service's database, opened as the service opens it and written through its classes",
        arguments: Backend.allCases)
    func service(_ backend: Backend) throws {
        // ServiceDatabase.open: the classes registered, then the seed's Usage objects saved.
        guard let database = try BackendDatabase(backend, Self.demoPairs.map(\.original)) else { return }
        let manager = database.manager
        try UsageData.fillIfEmpty(manager)
        // What the service's POST routes store: a company, people, a project, a meeting.
        let company = FromDatabaseDemo.Company(dbManager: manager)
        (company.name, company.founded) = ("Ørsted & Co", Date(timeIntervalSinceReferenceDate: 1e8))
        let people = (0..<3).map { n in
            let person = FromDatabaseDemo.Person(dbManager: manager)
            (person.firstName, person.lastName, person.age) = ("Ada \(n)", "Byron", 30 + n)
            (person.email, person.nicknames, person.employer) = (n == 0 ? nil : "a\(n)@example.com", ["A\(n)"], company)
            return person
        }
        people[1].spouse = people[2]
        let project = FromDatabaseDemo.Project(dbManager: manager)
        (project.name, project.code, project.budget, project.projectLead) = ("Engine", nil, 1.5e6, people[0])
        project.tags = ["analytical", "ß"]
        let meeting = FromDatabaseDemo.Meeting(dbManager: manager)
        (meeting.purpose, meeting.participants, meeting.project) = ("Review", people, project)
        try TestModels.saveByClass([company, project, meeting] + people, manager)

        try RoundTrip(database: database, fixture: "DemoGenerated").check(Self.demoPairs)
    }
}
