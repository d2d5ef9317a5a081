import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// DBBBuilder pasted `sorting` and `propertyNames` into its SQL, so ported code names columns
/// there; property names work as well, and a name that is neither is refused.
@Suite("Query options name properties or, as in DBBBuilder, their columns")
struct ColumnNameOptionTests {
    private func database() throws -> ManagerTestDatabase {
        let database = try ManagerTestDatabase([Shelf.self])
        for (name, rank, label) in [("b", 2, "y"), ("c", 1, "x"), ("a", 3, "z")] {
            let shelf = Shelf(dbManager: database.manager)
            (shelf.name, shelf.rank, shelf.label, shelf.tags) = (name, rank, label, [name + "1", name + "2"])
            try shelf.save()
        }
        return database
    }

    @Test(
        "sorting by a custom column name, a keyword column and a column with a quote, as by their properties",
        arguments: [("itemName", "name"), ("group", "rank"), ("it\"em", "label"), ("ITEMNAME", "name")])
    func sortByColumn(column: String, property: String) throws {
        let database = try database()
        let manager = database.manager
        let byColumn = try Shelf.instances(matching: .options(sortColumns: [column]), manager: manager).map(\.name)
        let byProperty = try Shelf.instances(matching: .options(sortColumns: [property]), manager: manager).map(\.name)
        #expect(byColumn == byProperty)
        #expect(
            byColumn
                == (property == "rank" ? ["c", "b", "a"] : property == "label" ? ["c", "b", "a"] : ["a", "b", "c"]))
        let descending = try Shelf.instances(
            matching: .queryOptionsWithDescendingSortForColumns([column]), manager: manager)
        #expect(descending.map(\.name) == byColumn.reversed())
        let oneDescending = try Shelf.instances(matching: .options(sortColumns: ["\(column) DESC"]), manager: manager)
        #expect(oneDescending.map(\.name) == byColumn.reversed())
        #expect(Shelf.instancesWithOptions(.options(sortColumns: [column]), manager: manager)?.count == 3)
    }

    @Test("propertyNames, distinct and joinPropertiesToPopulate take column names too")
    func propertyNamesByColumn() throws {
        let database = try database()
        let manager = database.manager
        let partial = try Shelf.instances(
            matching: .queryOptionsWithPropertyNames(["itemName", "group"]), manager: manager)
        #expect(partial.map(\.name) == ["b", "c", "a"] && partial.map(\.rank) == [2, 1, 3])
        #expect(partial.allSatisfy { $0.label.isEmpty && $0.tags.isEmpty })
        let both = try Shelf.instances(
            matching: .queryOptionsWithPropertyNames(["itemName", "name", "labels"]), manager: manager)
        #expect(both.map(\.name) == ["b", "c", "a"] && both[0].tags == ["b1", "b2"])

        let extra = Shelf(dbManager: manager)
        (extra.name, extra.rank) = ("b", 9)
        try extra.save()
        let distinct = try Shelf.instances(
            matching: .queryOptionsWithPropertyNames(["itemName"], distinct: true), manager: manager)
        #expect(distinct.map(\.name).sorted() == ["a", "b", "c"])

        var joins = DBBQueryOptions.options(sortColumns: ["itemName"])
        joins.joinPropertiesToPopulate = ["labels"]
        #expect(try Shelf.instances(matching: joins, manager: manager).first?.tags == ["a1", "a2"])
    }

    @Test(
        "a name that is neither a property nor a column is refused, naming it",
        arguments: ["nope", "it\"em\"", "name; DROP TABLE Shelf", "Shelf_ID"])
    func unknownName(name: String) throws {
        let database = try database()
        let manager = database.manager
        let options: [DBBQueryOptions] = [
            .options(sortColumns: [name]),
            .queryOptionsWithPropertyNames([name]),
            {
                var options = DBBQueryOptions()
                options.joinPropertiesToPopulate = [name]
                return options
            }(),
        ]
        for option in options {
            #expect {
                try Shelf.instances(matching: option, manager: manager)
            } throws: { error in
                let error = try #require(error as? DBBError)
                return (error.kind == .unknownProperty && error.property == name && error.table == "Shelf")
                    || (error.kind == .invalidOption && error.message.contains(name))
            }
        }
        #expect(try manager.count(of: "Shelf") == 3)
    }
}
