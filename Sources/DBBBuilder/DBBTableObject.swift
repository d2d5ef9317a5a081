import Foundation

/// The base class of every persisted object: subclass it, declare properties, and map them in
/// `init(dbManager:)`.
///
/// ```swift
/// final class Person: DBBTableObject {
///     var firstName = ""
///     var age = 0
///     var birthday: Date?
///
///     required init(dbManager: DBBManager) {
///         super.init(dbManager: dbManager)
///         dbManager.addPersistenceMapping([
///             "firstName": DBBPropertyPersistence(\Person.firstName),
///             "age": DBBPropertyPersistence(\Person.age),
///             "birthday": DBBPropertyPersistence(\Person.birthday, columnName: "born"),
///         ], for: self, indexer: DBBIndexer(columnsToIndex: ["firstName"]))
///     }
/// }
/// ```
///
/// The table is named after the class (``shortName``) and has DBBBuilder's layout: `id`,
/// `createdTime`, `modifiedTime`, then one column per mapped property.
open class DBBTableObject {
    /// The manager whose database this object is saved to.
    public let dbManager: DBBManager

    /// The row id; 0 until the object is first saved.
    public final var id: Int64 = 0

    /// DBBBuilder's name for ``id``.
    public final var idNum: Int64 {
        get { id }
        set { id = newValue }
    }

    /// When the object was first saved.
    public final var createdTime: Date?

    /// When the object was last saved.
    public final var modifiedTime: Date?

    /// Free for the application to mark unsaved changes; DBBBuilder never sets it.
    public final var isDirty = false

    /// Column attributes by property name, e.g. `["firstName": ColumnAttribute.notNull]`;
    /// set it in `init(dbManager:)`. Read once, when the class is registered.
    public var attributesDictionary: [String: String]?

    /// Creates an object of the manager's database. Subclasses map their properties here.
    public required init(dbManager: DBBManager) {
        self.dbManager = dbManager
    }

    /// The class's short name: the table's name.
    public var shortName: String { String(describing: type(of: self)) }

    /// DBBBuilder's setter for ``isDirty``.
    public func makeDirty(_ dirty: Bool) { isDirty = dirty }

    /// The table name of the class: its short name.
    public static func tableName() -> String { String(describing: self) }

    /// Called just before the object is written; override to prepare it.
    open func performPreSaveActions() {}

    /// Called just after the object is written; override to follow up.
    open func performPostSaveActions() {}
}
