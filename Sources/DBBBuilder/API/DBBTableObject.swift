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
    // The library's own stored properties (id, times, snapshot, marks) skip Swift's run-time
    // exclusivity check (`@exclusivity(unchecked)`): every save and fetch reads and writes them
    // per object, where the check cost more than the write. All of them are internal: the
    // public ones (`id`, `createdTime`, `modifiedTime`, `isDeleted`) are plain `get`/`set` over
    // that storage, so no access to it — the library's or an application's, an `inout` one
    // included — lasts beyond one load or store, and none can overlap another. Mapped
    // properties keep the check (or, with `@DBBTable`, get the same arrangement).

    /// The manager whose database this object is saved to.
    public let dbManager: DBBManager

    /// The row id; 0 until the object is first saved (or, for an object loaded from a row that
    /// SQL wrote with id 0, that row's id).
    public final var id: Int64 {
        get { storedID }
        set { storedID = newValue }
    }
    @exclusivity(unchecked) final var storedID: Int64 = 0

    /// Set when the object was loaded from a row whose id is 0: SQL can write such a row,
    /// ``save()-82mr9`` never makes one. For this object ``id`` 0 names that row, not "never saved",
    /// so that saving it updates the row instead of inserting a copy.
    @exclusivity(unchecked) final var loadedFromRowZero = false

    /// Whether the object has no row yet: its ``id`` is 0 and it was not loaded from row 0.
    @inline(__always) final var isNew: Bool { id == 0 && !loadedFromRowZero }

    /// When the object was first saved.
    public final var createdTime: Date? {
        get { storedCreatedTime }
        set { storedCreatedTime = newValue }
    }
    @exclusivity(unchecked) final var storedCreatedTime: Date?

    /// When the object was last saved.
    public final var modifiedTime: Date? {
        get { storedModifiedTime }
        set { storedModifiedTime = newValue }
    }
    @exclusivity(unchecked) final var storedModifiedTime: Date?

    /// What the object's row held when it was last loaded or saved; `nil` for a new object.
    @exclusivity(unchecked) final var snapshot: ObjectSnapshot?

    /// Set while a save session works on the object (its hooks, its rows): a `save()` of it
    /// from a hook then leaves the writing to that session.
    @exclusivity(unchecked) final var isBeingSaved = false

    /// Set by ``makeDirty(_:)``: write on the next save even when no property changed.
    @exclusivity(unchecked) final var forcedDirty = false

    /// The mapped properties set since the object was loaded or last saved, by their position
    /// in the class's generated mapping (bit `i`: ``DBBGeneratedMapping/order``[i]), as
    /// `@DBBTable`'s setters mark them (``markAssigned(_:)``). Consulted for the properties a
    /// partial fetch left out (``unloadedColumns``, ``unloadedJoins``), whose values alone
    /// cannot tell a property set to its default from one never touched.
    @exclusivity(unchecked) @usableFromInline final var assignedMarks: UInt64 = 0

    /// The column properties (bit `i`: the mapping's column `i`, for the first 64) and join
    /// properties a partial fetch did not load: they hold a new object's values, and a save
    /// writes one only when the application set it. A save that writes one loads it.
    @exclusivity(unchecked) final var unloadedColumns: UInt64 = 0
    @exclusivity(unchecked) final var unloadedJoins: UInt64 = 0

    /// Whether this object's row was deleted through it (``delete()-2ymqc`` or a batch delete that
    /// named it). The object keeps its ``id``; saving it, or an object that refers to it,
    /// throws ``DBBError/Kind/rowNotFound`` rather than insert the row again. To store its
    /// values anew, copy them into a new object.
    public internal(set) final var isDeleted: Bool {
        get { storedIsDeleted }
        set { storedIsDeleted = newValue }
    }
    @exclusivity(unchecked) final var storedIsDeleted = false

    /// The save session that last visited this object, and the one that last knew its row to
    /// exist: see ``SaveMarks``.
    @exclusivity(unchecked) final var visitMark: UInt64 = 0
    @exclusivity(unchecked) final var confirmMark: UInt64 = 0

    /// Whether the object has unsaved changes: a property differs from what was last loaded or
    /// saved (see ``hasChanges``), or the application marked it with ``makeDirty(_:)``.
    /// Setting it to `true` makes the next save write the row (and its `modifiedTime`) even
    /// when nothing changed; saving clears the mark.
    public final var isDirty: Bool {
        get { forcedDirty || hasChanges }
        set { forcedDirty = newValue }
    }

    /// Column constraints by property name, e.g. `["email": [.notNull, .unique], "name": .notNull]`;
    /// set it in `init(dbManager:)`. Read once, when the class is registered. DBBBuilder's text
    /// forms (`ColumnAttribute.notNull`, `"NOT NULL UNIQUE"`) still compile: see ``ColumnAttributes``.
    public var attributesDictionary: [String: ColumnAttributes]?

    /// Creates an object of the manager's database. Subclasses map their properties here.
    public required init(dbManager: DBBManager) {
        self.dbManager = dbManager
    }

    /// The name of the class's table: the class's short name unless the class overrides it.
    /// Override it when two classes have the same short name (`Billing.Account` and
    /// `Auth.Account`): a manager refuses to register two classes with one table name.
    ///
    /// ```swift
    /// final class Account: DBBTableObject {        // in module Auth
    ///     override class var databaseTableName: String { "AuthAccount" }
    /// }
    /// ```
    open class var databaseTableName: String { String(describing: self) }

    /// The columns this version's properties were stored in before, by property name: a
    /// property whose column is missing is given its former column back, renamed
    /// (`ALTER TABLE … RENAME COLUMN`), with every row's value, instead of a new empty column.
    /// The rename runs once (a later registration finds the new name there), in the
    /// registration's transaction, and shows in ``DBBManager/migrationPlan(for:)``.
    ///
    /// ```swift
    /// final class Order: DBBTableObject {
    ///     var quantity = 0                      // was `qty`
    ///     override class var formerColumnNames: [String: String] { ["quantity": "qty"] }
    /// }
    /// ```
    ///
    /// A rename is the contract half of a schema change: instances of the version that still
    /// write the old column fail once it is renamed, so deploy it when none runs. A key that names
    /// no mapped property, or a former column another property maps, is refused by name.
    open class var formerColumnNames: [String: String] { [:] }

    /// Called before the object is written, inside the save's transaction; throw to refuse
    /// the save (it is rolled back: nothing of it stays). Saves and fetches made here join
    /// the save's transaction. Runs before ``performPreSaveActions()``.
    open func willSave() throws {}

    /// Called just before the object is written, inside the save's transaction; override to
    /// prepare it. Saves and fetches made here join the save's transaction. To refuse the
    /// save with an error, override ``willSave()`` instead.
    open func performPreSaveActions() {}

    /// Called after the object is written and the save committed; override to follow up.
    open func performPostSaveActions() {}

    // MARK: - Generated by @DBBTable

    /// The class's mapping, generated by ``DBBTable(tableName:indexes:)``; `nil` for a class
    /// that maps its properties with `addPersistenceMapping` in `init(dbManager:)` (both may
    /// be combined: the mappings merge).
    open class var generatedMapping: DBBGeneratedMapping? { nil }

    /// Reads the row's column properties, in column order, from `row`: generated by
    /// ``DBBTable(tableName:indexes:)``, and used by fetches when the class maps exactly the
    /// properties it reads (``DBBGeneratedMapping/order``). Not meant to be written by hand.
    open func readColumns(_ row: inout DBBRowDecoder) throws {}

    /// Hands the column properties' values to `row`, in column order: generated by
    /// ``DBBTable(tableName:indexes:)`` with ``readColumns(_:)``. Not meant to be written by hand.
    open func writeColumns(_ row: inout DBBRowEncoder) {}

    /// Records that the application set the mapped property at `position` of the class's
    /// generated mapping (``DBBGeneratedMapping/order``): called by the setters
    /// ``DBBTable(tableName:indexes:)`` writes. Not meant to be called by hand.
    @inlinable @inline(__always)
    public final func markAssigned(_ position: Int) {
        if position < 64 { assignedMarks |= 1 &<< UInt64(truncatingIfNeeded: position) }
    }
}
