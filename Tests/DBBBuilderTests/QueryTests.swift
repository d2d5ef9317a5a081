import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

@Suite("Query options: conditions, arguments, sorting, property subsets, distinct")
struct QueryTests {
    /// Five projects with distinct names and budgets, and a family of Does.
    /// `nil` when the backend is missing (see ``BackendDatabase``).
    private func makeData(_ backend: Backend) throws -> BackendDatabase? {
        guard let database = try BackendDatabase(backend, [Project.self, Person.self]) else { return nil }
        let m = database.manager
        #expect(
            Project.saveObjects(
                [
                    Project("Gemini", budget: 300, manager: m), Project("Apollo", budget: 500, manager: m),
                    Project("Mercury", budget: 100, manager: m), Project("Skylab", budget: 200, manager: m),
                    Project("Artemis", budget: 900, manager: m),
                ], dbManager: m))
        try Person.save(
            [
                Person("John", "Doe", age: 35, manager: m), Person("Billy", "Doe", age: 7, manager: m),
                Person("Sally", "Doe", age: 5, manager: m), Person("Mary", "Doe", age: 33, manager: m),
                Person("Ann", "Smith", age: 33, manager: m),
            ], manager: m)
        return database
    }

    private func names(_ options: DBBQueryOptions, _ manager: DBBManager) throws -> [String] {
        try Project.instances(matching: options, manager: manager).map(\.name)
    }

    @Test("sorting by name and by budget, ascending and descending", arguments: Backend.allCases)
    func sorting(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let m = database.manager
        #expect(try names(.options(sortColumns: ["name"]), m) == ["Apollo", "Artemis", "Gemini", "Mercury", "Skylab"])
        #expect(
            try names(.options(sortColumns: ["name"], ascendingSort: false), m)
                == ["Skylab", "Mercury", "Gemini", "Artemis", "Apollo"])
        #expect(
            try names(.queryOptionsWithAscendingSortForColumns(["budget"]), m)
                == ["Mercury", "Skylab", "Gemini", "Apollo", "Artemis"])
        #expect(
            try names(.queryOptionsWithDescendingSortForColumns(["budget"]), m)
                == ["Artemis", "Apollo", "Gemini", "Skylab", "Mercury"])
        let people = try Person.instances(matching: .options(sortColumns: ["age DESC", "firstName"]), manager: m)
        #expect(people.map(\.firstName) == ["John", "Ann", "Mary", "Billy", "Sally"])
    }

    @Test(
        "conditions join with AND, or OR when the list holds \"OR\"; property names map to columns",
        arguments: Backend.allCases)
    func conditions(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let m = database.manager
        #expect(
            try names(.options(withConditions: ["budget > 150", "budget < 400"], sortColumns: ["name"]), m)
                == ["Gemini", "Skylab"])
        #expect(
            try names(.options(withConditions: ["budget < 150", "OR", "name = 'Artemis'"], sortColumns: ["budget"]), m)
                == ["Mercury", "Artemis"], "name is stored as itemName")
        #expect(try names(.options(withConditions: ["name LIKE 'A%'", "and", "budget > 600"]), m) == ["Artemis"])
    }

    @Test("arguments are Swift values: integers, text, a Date as stored, nil as NULL", arguments: Backend.allCases)
    func swiftValueArguments(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let m = database.manager
        let people = try Person.all(manager: m)
        let john = try #require(people.first { $0.firstName == "John" })
        let born = Date(timeIntervalSinceReferenceDate: -400_000_000.5)
        (john.birthday, john.nickname) = (born, "Jack")
        try john.save()
        let lastName: String? = "Doe"
        var options = DBBQueryOptions.options(withConditions: ["id = ?", "lastName = ?", "birthday = ?"])
        options.arguments = [john.id, lastName, born]
        #expect(try Person.instances(matching: options, manager: m).map(\.id) == [john.id])
        #expect(options.argumentValues == [.integer(john.id), .text("Doe"), .real(-400_000_000.5)])

        let none: String? = nil
        options = .options(withConditions: ["nickname IS ?", "age > ?"], sortColumns: ["age"])
        options.arguments = [none, 30]
        #expect(
            Set(try Person.instances(matching: options, manager: m).map(\.firstName)) == ["Ann", "Mary"],
            "John, 35, has a nickname")
        options.arguments = [nil, 30.5, .integer(1)]
        #expect(options.argumentValues == [.null, .real(30.5), .integer(1)])
    }

    @Test("arguments bind to ? placeholders; injection text is matched as data", arguments: Backend.allCases)
    func arguments(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let m = database.manager
        var options = DBBQueryOptions.options(withConditions: ["lastName = ?", "age > ?"], sortColumns: ["age"])
        options.arguments = ["Doe", 6]
        #expect(try Person.instances(matching: options, manager: m).map(\.firstName) == ["Billy", "Mary", "John"])

        let hostile = "x' OR '1'='1'; DROP TABLE Person; --"
        options = .options(withConditions: ["lastName = ?"])
        options.arguments = [.text(hostile)]
        #expect(try Person.instances(matching: options, manager: m).isEmpty)
        let odd = Person("Bobby", hostile, age: 1, manager: m)
        try odd.save()
        #expect(try Person.instances(matching: options, manager: m).map(\.id) == [odd.id])
        #expect(try m.count(of: "Person") == 6, "the table is still there")
        #expect("Bud's".dbb_SQLEscaped() == "'Bud''s'")
        #expect(
            try Person.instances(
                matching: .options(withConditions: ["lastName = \("Doe".dbb_SQLEscaped())"]), manager: m
            ).count == 4)
    }

    @Test("propertyNames loads only those properties; others keep their defaults", arguments: Backend.allCases)
    func propertySubsets(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let people = try Person.instances(
            matching: .options(withConditions: ["firstName = 'Ann'"], properties: ["lastName"]),
            manager: database.manager)
        let ann = try #require(people.first)
        #expect(ann.lastName == "Smith")
        #expect(ann.firstName == "" && ann.age == 0, "not loaded")
        #expect(ann.id != 0 && ann.createdTime != nil && ann.modifiedTime != nil)
        let sparse = try Person.instances(
            matching: DBBQueryOptions(), manager: database.manager, sparsePopulation: true)
        #expect(sparse.count == 5 && sparse.allSatisfy { $0.lastName == "" && $0.id > 0 })
    }

    @Test(
        "propertyNames naming every column, in any order, load clean objects whose changes are saved",
        arguments: Backend.allCases)
    func everyColumnInAnotherOrder(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let names = [
            Person.Keys.rating, Person.Keys.lastName, Person.Keys.nickname, Person.Keys.isMember,
            Person.Keys.firstName, Person.Keys.birthday, Person.Keys.age,
        ]
        let options = DBBQueryOptions.options(withConditions: ["firstName = 'Ann'"], properties: names)
        let ann = try #require(try Person.instances(matching: options, manager: database.manager).first)
        #expect(ann.firstName == "Ann" && ann.lastName == "Smith" && ann.age == 33)
        #expect(!ann.hasChanges && ann.changedPropertyNames.isEmpty)
        // Swapped names: both columns hold text, so a snapshot in the wrong order would see no change.
        (ann.firstName, ann.lastName) = ("Smith", "Ann")
        #expect(ann.changedPropertyNames == ["firstName", "lastName"])
        try ann.save()
        let back = try #require(
            try Person.instance(id: ann.id, manager: try database.reopen([Project.self, Person.self])))
        #expect(back.firstName == "Smith" && back.lastName == "Ann" && back.age == 33)
        var streamed: [Person] = []
        var renamed = options
        renamed.conditions = ["lastName = 'Ann'"]
        try Person.forEachInstance(matching: renamed, manager: database.manager) { streamed.append($0) }
        #expect(streamed.count == 1 && streamed.allSatisfy { !$0.hasChanges && $0.firstName == "Smith" })
    }

    @Test(
        "distinct: one object per distinct combination of the listed properties, conditions respected",
        arguments: Backend.allCases)
    func distinct(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let m = database.manager
        var options = DBBQueryOptions.options(
            properties: [Person.Keys.lastName], sortColumns: ["lastName"], distinct: true)
        #expect(try Person.instances(matching: options, manager: m).map(\.lastName) == ["Doe", "Smith"])
        options.conditions = ["lastName = 'Doe'"]
        let does = try Person.instances(matching: options, manager: m)
        #expect(does.map(\.lastName) == ["Doe"])
        options.conditions = ["age < 30"]
        #expect(
            try Person.instances(matching: options, manager: m).map(\.lastName) == ["Doe"],
            "the group's representative is chosen among the rows that match")
        let byAge = try Person.instances(
            matching: .options(properties: ["age"], sortColumns: ["age"], distinct: true), manager: m)
        #expect(byAge.map(\.age) == [5, 7, 33, 35])
        #expect(
            try Person.instances(matching: .options(distinct: true), manager: m).count == 5,
            "all properties: all rows differ")
        // The streaming fetch visits the same objects (its id query groups by the named columns too).
        var streamed: [String] = []
        try Person.forEachInstance(
            matching: .options(properties: [Person.Keys.lastName], sortColumns: ["lastName"], distinct: true),
            manager: m
        ) { streamed.append($0.lastName) }
        #expect(streamed == ["Doe", "Smith"])
    }

    @Test("unknown properties and malformed options are typed errors naming them", arguments: Backend.allCases)
    func badOptions(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let m = database.manager
        #expect {
            _ = try Person.instances(matching: .options(properties: ["shoeSize"]), manager: m)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unknownProperty && error.property == "shoeSize" && error.table == "Person"
        }
        #expect {
            _ = try Person.instances(matching: .options(sortColumns: ["height"]), manager: m)
        } throws: { error in
            (error as? DBBError)?.property == "height"
        }
        #expect {
            _ = try Person.instances(matching: .options(sortColumns: ["age sideways"]), manager: m)
        } throws: { error in
            (error as? DBBError)?.kind == .invalidOption
        }
        var directionOnly = DBBQueryOptions()
        directionOnly.sorting = [ColumnSorting.descending]
        #expect {
            _ = try Person.instances(matching: directionOnly, manager: m)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .invalidOption && error.message.contains("no property to sort by")
        }
        directionOnly.sorting = ["age" + ColumnSorting.descending]
        #expect {
            _ = try Person.instances(matching: directionOnly, manager: m)
        } throws: { error in
            let error = try #require(error as? DBBError)
            return error.kind == .unknownProperty && error.message.contains("'age DESC'")
        }
        #expect {
            _ = try Person.instances(matching: .options(withConditions: ["shoeSize > 3"]), manager: m)
        } throws: { error in
            let error = try #require(error as? DBBError)
            switch backend {
            case .sqlite: return error.kind == .sqlite && error.message == "no such column: shoeSize"
            case .postgresql:  // an unknown word is not quoted, so PostgreSQL folds it
                return error.kind == .server && error.serverError?.sqlState == "42703"
                    && error.message == #"column "shoesize" does not exist"#
            }
        }
        #expect {
            _ = try Person.instances(matching: .options(withConditions: ["age > ?"]), manager: m)
        } throws: { error in
            let error = try #require(error as? DBBError)
            switch backend {
            case .sqlite: return error.sqliteError?.code == .range
            case .postgresql:  // counted before anything is sent
                return error.kind == .invalidOption && error.message.contains("1 parameter(s) but 0 argument(s)")
            }
        }
        var withArgument = DBBQueryOptions.options(withConditions: ["age > ?"])
        withArgument.arguments = [30]
        #expect(
            try Person.instances(matching: withArgument, manager: m).count == 3,
            "the refused statement left the connection usable")
        #expect {
            _ = try Person.instances(matching: .options(withConditions: ["  "]), manager: m)
        } throws: { error in
            (error as? DBBError)?.kind == .invalidOption
        }
        #expect(Person.instancesWithOptions(.options(properties: ["shoeSize"]), manager: m) == nil)
        #expect(m.errorMessage().contains("shoeSize"))
    }

    @Test("ids: all, by number, by numbers in the given order", arguments: Backend.allCases)
    func ids(_ backend: Backend) throws {
        guard let database = try makeData(backend) else { return }
        let m = database.manager
        #expect(Project.allInstanceIDs(manager: m) == [1, 2, 3, 4, 5])
        #expect((Project.instanceWithIDNumber(3, manager: m) as? Project)?.name == "Mercury")
        #expect(Project.instanceWithIDNumber(42, manager: m) == nil)
        #expect(
            Project.instancesWithIDNumbers([5, 1, 42, 3], manager: m).compactMap { ($0 as? Project)?.name }
                == ["Artemis", "Gemini", "Mercury"])
        #expect(try Project.all(manager: m).count == 5)
        #expect(Project.allInstances(manager: m).count == 5)
    }
}
