/// Generates what DBBBuilder's mapping otherwise asks for by hand, from the stored properties of
/// a `final` subclass of ``DBBTableObject``:
///
/// - the mapping of each property to its column or join table (``DBBTableObject/generatedMapping``),
///   with the attributes and indexes of the markers ``Column(_:)``, ``Unique()``, ``NotNull()``,
///   ``Indexed(unique:)``, and without the properties marked ``Transient()``;
/// - `required init(dbManager:)`, unless the class writes it (properties without an initial
///   value start at their type's zero: `0`, `""`, `false`, `[]`, `nil`);
/// - `Keys`, each property's name as DBBBuilder's classes spell it for query options
///   (`sortColumns: [Project.Keys.name]`), and `Columns`, the column key of each property
///   (``DBBColumnKey``), for typed conditions (each unless the class declares it);
/// - ``DBBTableObject/readColumns(_:)`` and ``DBBTableObject/writeColumns(_:)``, which read a
///   row into the object and hand its values to a statement with plain `self.property` code.
///
/// ```swift
/// @DBBTable
/// final class Project: DBBTableObject {
///     @Column("itemName") var name = ""
///     @Indexed var code = ""
///     var budget = 0.0
///     var startDate: Date?
///     var tags: [String] = []          // a join table, as in DBBBuilder
///     @Transient var isExpanded = false
/// }
/// ```
///
/// The table is DBBBuilder's: the class's name, `id`, `createdTime`, `modifiedTime`, then one
/// column per property, in property-name order. `tableName:` names the table otherwise;
/// `indexes:` adds indexes over several columns:
///
/// ```swift
/// @DBBTable(tableName: "People", indexes: [DBBIndexer(columnsToIndex: ["lastName", "firstName"])])
/// ```
@attached(memberAttribute)
@attached(
    member, names: named(init(dbManager:)), named(generatedMapping), named(Keys), named(Columns), named(readColumns),
    named(writeColumns), named(databaseTableName))
public macro DBBTable(tableName: String? = nil, indexes: [DBBIndexer] = []) =
    #externalMacro(module: "DBBBuilderMacros", type: "TableMacro")

/// Stores the property in the column (or join table) `name` instead of the property's name;
/// read by ``DBBTable(tableName:indexes:)``.
@attached(peer)
public macro Column(_ name: String) = #externalMacro(module: "DBBBuilderMacros", type: "MarkerMacro")

/// Makes the property's column `UNIQUE`; read by ``DBBTable(tableName:indexes:)``.
@attached(peer)
public macro Unique() = #externalMacro(module: "DBBBuilderMacros", type: "MarkerMacro")

/// Makes the property's column `NOT NULL`; read by ``DBBTable(tableName:indexes:)``.
@attached(peer)
public macro NotNull() = #externalMacro(module: "DBBBuilderMacros", type: "MarkerMacro")

/// Indexes the property's column (`<Table>_<property>`), `UNIQUE` if `unique`; read by
/// ``DBBTable(tableName:indexes:)``.
@attached(peer)
public macro Indexed(unique: Bool = false) = #externalMacro(module: "DBBBuilderMacros", type: "MarkerMacro")

/// Keeps the property out of the table: it is neither saved nor loaded.
@attached(peer)
public macro Transient() = #externalMacro(module: "DBBBuilderMacros", type: "MarkerMacro")

/// Stores the property, of a `Codable` type, as JSON in a column of the object's table: text
/// on SQLite, `jsonb` on PostgreSQL, as `DBBPropertyPersistence(json:)` maps it by hand; read
/// by ``DBBTable(tableName:indexes:)``. A struct, a dictionary, an array of structs: the
/// whole value in one column. `@Column` names the column; `@Unique` and `@Indexed` do not apply.
///
/// ```swift
/// @DBBTable
/// final class Order: DBBTableObject {
///     @JSON var shipTo = Address(street: "", city: "")
///     @JSON var lines: [OrderLine] = []
/// }
/// ```
@attached(peer)
public macro JSON() = #externalMacro(module: "DBBBuilderMacros", type: "MarkerMacro")

/// Put by ``DBBTable(tableName:indexes:)`` on each mapped stored property whose type it can
/// spell, with the property's position in the mapping: the property reads and writes storage of
/// its own, `_dbb_<name>`, which the row accessors fill directly, and its setter marks it set
/// (``DBBTableObject/markAssigned(_:)``). The storage of a trivial type (integers, `Double`,
/// `Float`, `Bool`, `Date`, their optionals) is reached only through plain `get`/`set` — no access
/// to it lasts beyond one load or store — so it skips the run-time exclusivity check; other types
/// keep the check and change in place through `_modify`. Not meant to be written by hand.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_dbb_))
public macro _DBBStored(_ position: Int) = #externalMacro(module: "DBBBuilderMacros", type: "StoredMacro")
