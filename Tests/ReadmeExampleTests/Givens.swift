import DBBBuilder
import DBBTestSupport
import Foundation

/// Namespace of the README's examples, one static function each (see `extract.sh`).
enum ReadmeExamples {}

/// The people of the README's examples (`ada` is one).
final class Person: DBBTableObject {
    var firstName = ""
    var lastName = ""

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "firstName": DBBPropertyPersistence(\Person.firstName),
                "lastName": DBBPropertyPersistence(\Person.lastName),
            ], for: self)
    }
}

/// The orders of the change-tracking example: a table named by an SQL keyword.
final class Order: DBBTableObject {
    var note = ""
    var project: Project?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "note": DBBPropertyPersistence(\Order.note),
                "project": DBBPropertyPersistence(\Order.project),
            ], for: self)
    }
}

/// What the README's examples take as given, each a real object on files in a temporary
/// directory. A property is filled by the `prepare…` function of the test that needs it; an
/// example reading one that was not prepared stops with a message naming it.
final class ReadmeGivens {
    let directory: TemporaryDirectory
    private var values: [String: Any] = [:]

    init() throws { directory = try TemporaryDirectory("dbb-readme") }

    func set(_ value: Any, _ name: String) { values[name] = value }
    private func value<T>(_ name: String = #function) -> T {
        guard let value = values[name] as? T else { fatalError("README example given '\(name)' was not prepared") }
        return value
    }

    var manager: DBBManager { value() }
    var archive: DBBManager { value() }
    var ada: Person { value() }
    var apollo: Project { value() }
    var staleCopy: Order { value() }
    var userDatabaseURL: URL { value() }
    var databaseURL: URL { value() }
    var bundledTemplateURL: URL { value() }
    var bundledFoodURL: URL { value() }
    var scriptURL: URL { value() }
    var referenceURL: URL { value() }

    /// A manager on `name` in the directory, with `classes` registered.
    func manager(_ name: String, _ classes: [DBBTableObject.Type]) throws -> DBBManager {
        let manager = try DBBManager(url: directory.url.appendingPathComponent(name))
        try manager.register(classes)
        return manager
    }
}
