import DBBBuilder
import Foundation

/// The suite's everyday classes are written with `@DBBTable`; the classes below them, and
/// `Animal`/`Mammal`/`Pet`, `HandWritten.Gadget` and the models of the relation and integrity
/// suites, keep the DBBBuilder form (a mapping by hand), which the suite tests as well.
@DBBTable(indexes: [DBBIndexer(columnsToIndex: ["lastName", "nickname"])])
final class Person: DBBTableObject {
    @NotNull var firstName: String? = ""
    var lastName = ""
    var age = 0
    var birthday: Date?
    var isMember = false
    var rating: Double?
    @Column("nick") var nickname: String?

    convenience init(_ first: String, _ last: String, age: Int, manager: DBBManager) {
        self.init(dbManager: manager)
        firstName = first
        lastName = last
        self.age = age
    }
}

@DBBTable(indexes: [DBBIndexer(columnsToIndex: ["name"])])
final class Project: DBBTableObject {
    @Column("itemName") var name = ""
    var code = ""
    var startDate: Date?
    var endDate: Date?
    var budget: Float = 0

    convenience init(_ name: String, budget: Float, manager: DBBManager) {
        self.init(dbManager: manager)
        self.name = name
        self.budget = budget
    }
}

/// Every scalar type, plain and optional.
@DBBTable
final class AllTypes: DBBTableObject {
    var bool = false
    var int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint8: UInt8 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double = 0.0
    @Column("single") var float: Float = 0
    @Column("text") var string = ""
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var optionalBool: Bool?
    var optionalInt: Int?
    var optionalDouble: Double?
    var optionalString: String?
    @Column("order") var optionalDate: Date?
    var blob: Data?
    var bytes = Data([1])
}

final class Hooked: DBBTableObject {
    var name = ""
    var preSaves = 0
    var postSaves = 0
    var idSeenBeforeSave: Int64 = -1

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        attributesDictionary = ["name": ColumnAttribute.unique]
        dbManager.addPersistenceMapping(["name": DBBPropertyPersistence(\Hooked.name)], for: self)
    }

    override func performPreSaveActions() {
        preSaves += 1
        idSeenBeforeSave = id
    }

    override func performPostSaveActions() { postSaves += 1 }
}

// MARK: - Inheritance: Animal → Mammal → Pet, one table "Pet"

class Animal: DBBTableObject {
    var species = ""
    var legs = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "species": DBBPropertyPersistence(\Animal.species),
                "legs": DBBPropertyPersistence(\Animal.legs),
            ], for: self)
    }
}

class Mammal: Animal {
    var furColor: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            ["furColor": DBBPropertyPersistence(\Mammal.furColor, columnName: "fur")], for: self)
    }
}

final class Pet: Mammal {
    var name = ""
    var adopted: Date?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "name": DBBPropertyPersistence(\Pet.name),
                "adopted": DBBPropertyPersistence(\Pet.adopted),
            ], for: self, indexer: DBBIndexer(columnsToIndex: ["name"], unique: true))
    }
}

// MARK: - Two versions of one class, for migration

enum Version1 {
    final class Gadget: DBBTableObject {
        var name = ""
        var weight = 0.0
        var obsolete = ""

        required init(dbManager: DBBManager) {
            super.init(dbManager: dbManager)
            dbManager.addPersistenceMapping(
                [
                    "name": DBBPropertyPersistence(\Gadget.name),
                    "weight": DBBPropertyPersistence(\Gadget.weight),
                    "obsolete": DBBPropertyPersistence(\Gadget.obsolete),
                ], for: self)
        }
    }
}

enum Version2 {
    /// Version 1 less `obsolete`, plus `color` and `serial` (stored as `serialNumber`).
    final class Gadget: DBBTableObject {
        var name = ""
        var weight = 0.0
        var color = "none"
        var serial = 0

        required init(dbManager: DBBManager) {
            super.init(dbManager: dbManager)
            attributesDictionary = ["serial": ColumnAttribute.notNull]
            dbManager.addPersistenceMapping(
                [
                    "name": DBBPropertyPersistence(\Gadget.name),
                    "weight": DBBPropertyPersistence(\Gadget.weight),
                    "color": DBBPropertyPersistence(\Gadget.color),
                    "serial": DBBPropertyPersistence(\Gadget.serial, columnName: "serialNumber"),
                ], for: self, indexer: DBBIndexer(columnsToIndex: ["serial"]))
        }
    }
}

// MARK: - Bad mappings

final class NoMapping: DBBTableObject {}

final class ClashingColumns: DBBTableObject {
    var a = ""
    var b = ""
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "a": DBBPropertyPersistence(\ClashingColumns.a, columnName: "same"),
                "b": DBBPropertyPersistence(\ClashingColumns.b, columnName: "same"),
            ], for: self)
    }
}

final class BadIndexer: DBBTableObject {
    var a = ""
    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            ["a": DBBPropertyPersistence(\BadIndexer.a)], for: self,
            indexer: DBBIndexer(columnsToIndex: ["missing"]))
    }
}

// MARK: - Properties the direct-storage path must not take

/// A property with observers and a computed property: both must go through their setters.
final class Observed: DBBTableObject {
    var changes: [String] = []
    var title = "" {
        didSet { changes.append("title \(oldValue) → \(title)") }
    }
    private var storedCelsius = 0.0
    var fahrenheit: Double {
        get { storedCelsius * 9 / 5 + 32 }
        set { storedCelsius = (newValue - 32) * 5 / 9 }
    }
    var plain = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "title": DBBPropertyPersistence(\Observed.title),
                "fahrenheit": DBBPropertyPersistence(\Observed.fahrenheit),
                "plain": DBBPropertyPersistence(\Observed.plain),
            ], for: self)
    }

    var celsius: Double { storedCelsius }
}

/// One property of each shape the stored-offset access must refuse, beside a plain one.
final class AccessShapes: DBBTableObject {
    var plain = 0
    var observedSets = 0
    var observed = 0 {
        didSet { observedSets += 1 }
    }
    private var backing = ""
    var computed: String {
        get { backing }
        set { backing = newValue + "!" }
    }
    lazy var lazyValue = 5
    @Doubled var wrapped: Int = 0
    var plainTags: [String] = []
    var tagSets = 0
    var observedTags: [String] = [] {
        didSet { tagSets += 1 }
    }

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "plain": DBBPropertyPersistence(\AccessShapes.plain),
                "observed": DBBPropertyPersistence(\AccessShapes.observed),
                "computed": DBBPropertyPersistence(\AccessShapes.computed),
                "lazyValue": DBBPropertyPersistence(\AccessShapes.lazyValue),
                "wrapped": DBBPropertyPersistence(\AccessShapes.wrapped),
                "plainTags": DBBPropertyPersistence(\AccessShapes.plainTags),
                "observedTags": DBBPropertyPersistence(\AccessShapes.observedTags),
            ], for: self)
    }
}

/// Stores twice what it is given: a wrapper the access must go through.
@propertyWrapper
struct Doubled {
    private var stored: Int
    init(wrappedValue: Int) { stored = wrappedValue * 2 }
    var wrappedValue: Int {
        get { stored }
        set { stored = newValue * 2 }
    }
}

/// A stored property that a subclass overrides with an observer.
class OverriddenBase: DBBTableObject {
    var level = 0

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(["level": DBBPropertyPersistence(\OverriddenBase.level)], for: self)
    }
}

final class OverridingChild: OverriddenBase {
    var levelSets = 0
    override var level: Int {
        didSet { levelSets += 1 }
    }
}

/// A generic table object: each specialization is a class and a table of its own.
final class GenericShape<Value: DBBColumnValue & Sendable>: DBBTableObject {
    var value: Value?
    var count = 0

    override class var databaseTableName: String { "GenericShape_\(Value.self)" }

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "value": DBBPropertyPersistence(\GenericShape<Value>.value),
                "count": DBBPropertyPersistence(\GenericShape<Value>.count),
            ], for: self)
    }
}

/// A property of each type a fetch reads straight into storage, and their optionals.
final class SlotKinds: DBBTableObject {
    var int = 0
    var int64: Int64 = 0
    var double = 0.0
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var bool = false
    var string = ""
    var optionalInt: Int?
    var optionalInt64: Int64?
    var optionalDouble: Double?
    var optionalDate: Date?
    var optionalString: String?

    required init(dbManager: DBBManager) {
        super.init(dbManager: dbManager)
        dbManager.addPersistenceMapping(
            [
                "int": DBBPropertyPersistence(\SlotKinds.int), "int64": DBBPropertyPersistence(\SlotKinds.int64),
                "double": DBBPropertyPersistence(\SlotKinds.double), "date": DBBPropertyPersistence(\SlotKinds.date),
                "bool": DBBPropertyPersistence(\SlotKinds.bool), "string": DBBPropertyPersistence(\SlotKinds.string),
                "optionalInt": DBBPropertyPersistence(\SlotKinds.optionalInt),
                "optionalInt64": DBBPropertyPersistence(\SlotKinds.optionalInt64),
                "optionalDouble": DBBPropertyPersistence(\SlotKinds.optionalDouble),
                "optionalDate": DBBPropertyPersistence(\SlotKinds.optionalDate),
                "optionalString": DBBPropertyPersistence(\SlotKinds.optionalString),
            ], for: self)
    }

    /// Every property, as text, for comparing two fetches.
    var described: String {
        "\(int) \(int64) \(double) \(date.timeIntervalSinceReferenceDate) \(bool) \(string) \(String(describing: optionalInt)) "
            + "\(String(describing: optionalInt64)) \(String(describing: optionalDouble)) "
            + "\(String(describing: optionalDate?.timeIntervalSinceReferenceDate)) \(String(describing: optionalString))"
    }
}
