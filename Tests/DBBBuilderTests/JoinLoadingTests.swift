import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Testing

/// Objects with value arrays in join tables, for the loading of join rows.
final class Labelled: DBBTableObject {
    var name = ""
    var tags: [String] = []
    var scores: [Int]?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Labelled.name),
                "tags": DBBPropertyPersistence(\Labelled.tags),
                "scores": DBBPropertyPersistence(\Labelled.scores),
            ], for: self)
    }
}

@Suite("Join rows loaded for a whole fetch")
struct JoinLoadingTests {
    @Test(
        "objects with gaps among their ids get their own join rows only: the rows of the objects between are not theirs",
        arguments: Backend.allCases)
    func gapsBetweenOwners(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Labelled.self]) else { return }
        let manager = database.manager
        let saved = (1...12).map { number -> Labelled in
            let object = Labelled(dbManager: manager)
            object.name = "n\(number)"
            object.tags = number % 4 == 0 ? [] : (0..<number % 4).map { "n\(number)-\($0)" }
            object.scores = number % 3 == 0 ? nil : [number]
            return object
        }
        try Labelled.save(saved, manager: manager)
        let expected = Dictionary(uniqueKeysWithValues: saved.map { ($0.id, ($0.tags, $0.scores)) })
        let ids = saved.map(\.id)
        // Most of a range of ids (read as one range of the owner index), and a few far apart (read by list).
        for chosen in [
            ids.filter { $0 != ids[2] && $0 != ids[7] }, [ids[0], ids[11]], [ids[5]], [ids[11], ids[3], ids[4]],
        ] {
            let fetched = try Labelled.instances(ids: chosen, manager: manager)
            #expect(fetched.map(\.id) == chosen)
            for object in fetched {
                #expect(
                    object.tags == expected[object.id]?.0 && object.scores == expected[object.id]?.1, "\(object.name)")
                #expect(!object.hasChanges)
            }
        }
    }

    @Test(
        "every object gets its own join rows, whatever the order of the objects and the range of their ids",
        arguments: Backend.allCases)
    func joinRowsMatchTheirOwners(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Labelled.self]) else { return }
        let manager = database.manager
        let names = ["e", "b", "d", "a", "c"]
        // Rows written by SQL, with ids at the ends of the range and below zero, in an order
        // that is not the ids'.
        let ids: [Int64] = [Int64.max, -7, 1, Int64.min, 42]
        var objects: [(tags: [String], scores: [Int]?)] = []
        for (number, (name, id)) in zip(names, ids).enumerated() {
            let tags = number == 2 ? [] : (0...number).map { "\(name)\(number)-\($0)" }
            let scores = number % 2 == 0 ? nil : [number, -number]
            objects.append((tags, scores))
            try manager.execute(
                #"INSERT INTO "Labelled" (id, "createdTime", "modifiedTime", name) VALUES (?, 1, 1, ?)"#,
                arguments: [id, name])
            for tag in tags.reversed() {
                try manager.execute(
                    #"INSERT INTO "Labelled_tags" ("Labelled_ID", tags) VALUES (?, ?)"#, arguments: [id, tag])
            }
            for score in scores ?? [] {
                try manager.execute(
                    #"INSERT INTO "Labelled_scores" ("Labelled_ID", scores) VALUES (?, ?)"#, arguments: [id, score])
            }
        }
        // Join rows come back in the order they were written (by their own id).
        let expected = Dictionary(
            uniqueKeysWithValues: zip(names, objects.map { ($0.tags.reversed() as [String], $0.scores) }))
        for options in [
            DBBQueryOptions.queryOptionsWithAscendingSortForColumns(["name"]),
            .queryOptionsWithDescendingSortForColumns(["name"]), .queryOptionsWithAscendingSortForColumns(["id"]),
        ] {
            let fetched = try Labelled.instances(matching: options, manager: manager)
            #expect(fetched.count == names.count)
            for object in fetched {
                #expect(object.tags == expected[object.name]?.0, "\(object.name), id \(object.id)")
                #expect(object.scores == expected[object.name]?.1, "\(object.name), id \(object.id)")
                #expect(!object.hasChanges, "\(object.name) unchanged after the fetch")
            }
        }
        let extreme = try #require(try Labelled.instances(ids: [Int64.min], manager: manager).first)
        #expect(extreme.name == "a" && extreme.tags == ["a3-3", "a3-2", "a3-1", "a3-0"] && extreme.scores == [3, -3])
        extreme.tags.removeFirst()
        try extreme.save()
        let rows = try manager.query(
            #"SELECT tags FROM "Labelled_tags" WHERE "Labelled_ID" = ? ORDER BY id"#,
            arguments: [Int64.min])
        #expect(try rows.map { try $0.decode(String.self, at: 0) } == ["a3-2", "a3-1", "a3-0"])
    }
}
