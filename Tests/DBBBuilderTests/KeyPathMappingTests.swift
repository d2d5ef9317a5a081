import DBBBackendTestSupport
import DBBBuilder
import DBBTestSupport
import Foundation
import Synchronization
import Testing

/// A class mapped by hand whose key paths are not literals at the mapping: held in a static
/// table, passed through a function, or picked at run time. `DBBPropertyPersistence` takes its
/// key path as an autoclosure (so that a literal folds into plain property accesses in a
/// release build); these forms must map the same properties.
final class HeldPaths: DBBTableObject {
    var count = 0
    var title: String?
    var tags: [String] = []
    var payload = Data()
    var peer: HeldPaths?

    /// The key paths, evaluated once when the table is first read.
    static let paths = (count: \HeldPaths.count, title: \HeldPaths.title, tags: \HeldPaths.tags)
    /// How many times ``peerPath()`` was evaluated.
    static let peerPathEvaluations = Atomic<Int>(0)

    /// The key path of `peer`, from a function (counted).
    static func peerPath() -> ReferenceWritableKeyPath<HeldPaths, HeldPaths?> {
        peerPathEvaluations.add(1, ordering: .relaxed)
        return \HeldPaths.peer
    }

    static func mapping(_ payload: ReferenceWritableKeyPath<HeldPaths, Data>) -> [String: DBBPropertyPersistence] {
        [
            "count": DBBPropertyPersistence(paths.count), "title": DBBPropertyPersistence(paths.title),
            "tags": DBBPropertyPersistence(paths.tags), "payload": DBBPropertyPersistence(payload),
            "peer": DBBPropertyPersistence(peerPath()),
        ]
    }

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(Self.mapping(\.payload), for: self)
    }
}

@Suite("Key-path mappings: key paths held in constants map as literals do")
struct KeyPathMappingTests {
    @Test(
        "key paths from a table, a parameter and a function save, fetch, track changes and name typed conditions",
        arguments: Backend.allCases)
    func heldKeyPaths(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [HeldPaths.self]) else { return }
        let manager = database.manager
        let objects = (0..<4).map { n -> HeldPaths in
            let object = HeldPaths(dbManager: manager)
            object.count = n
            object.title = n.isMultiple(of: 2) ? "title \(n)" : nil
            object.tags = (0..<n).map { "tag \($0)" }
            object.payload = Data(repeating: UInt8(n), count: n)
            return object
        }
        objects[3].peer = objects[1]
        try HeldPaths.save(objects, manager: manager)

        let reader = try database.reopen([HeldPaths.self])
        let back = try HeldPaths.all(manager: reader).sorted { $0.count < $1.count }
        #expect(back.map(\.count) == [0, 1, 2, 3])
        #expect(back.map(\.title) == ["title 0", nil, "title 2", nil])
        #expect(back.map(\.tags) == objects.map(\.tags))
        #expect(back.map(\.payload) == objects.map(\.payload))
        #expect(back[3].peer?.id == objects[1].id && back[0].peer == nil)
        #expect(back.allSatisfy { !$0.hasChanges })

        back[2].count = 20
        back[2].tags.append("new")
        #expect(back[2].changedPropertyNames == ["count", "tags"])
        try back[2].save()
        let typed = try HeldPaths.instances(where: \.count == 20, manager: manager)
        #expect(typed.map(\.id) == [objects[2].id])
        #expect(typed.first?.tags == ["tag 0", "tag 1", "new"])
    }

    @Test("a key path from a function call is evaluated at each access of the property, as the documentation says")
    func functionKeyPathIsEvaluatedPerAccess() throws {
        guard let database = try BackendDatabase(.sqlite, [HeldPaths.self]) else { return }
        let first = HeldPaths(dbManager: database.manager)
        let second = HeldPaths(dbManager: database.manager)
        second.peer = first
        try second.save()
        let reader = try database.reopen([HeldPaths.self])  // maps the class: evaluates the key paths once
        let before = HeldPaths.peerPathEvaluations.load(ordering: .relaxed)
        let back = try #require(try HeldPaths.instance(id: second.id, manager: reader))
        #expect(back.peer?.id == first.id)
        #expect(
            HeldPaths.peerPathEvaluations.load(ordering: .relaxed) > before,
            "the fetch set `peer` through the function's key path, evaluated again")
    }
}
