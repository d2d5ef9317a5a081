import DBBCore
import DBBSQLite
import Foundation
import Logging
import Synchronization

/// Owns a database file: creates and migrates the tables of the table-object classes it is
/// given, and runs their saves, fetches and deletes. Every connection it opens has the
/// DBBLocale date functions.
///
/// ```swift
/// let manager = try DBBManager(url: URL(fileURLWithPath: "app.sqlite"))
/// try manager.register([Person.self, Project.self])      // DBBBuilder: addTableClasses(_:)
/// let person = Person(dbManager: manager)
/// person.firstName = "Ada"
/// try person.save()
/// ```
///
/// A manager is `Sendable`: use it from any thread or task.
public final class DBBManager: Sendable {
    /// The database file, or `nil` for an in-memory database.
    public let databaseURL: URL?

    let access: any DatabaseAccess
    let registry = MappingRegistry()
    /// The SQL of the typed selects run on this manager, by shape.
    let renderedQueries = RenderedQueries()
    /// The classes whose tables exist (created or checked) in this database.
    private let tablesReady = Locked<Set<ObjectIdentifier>>([])
    /// What ``lastError`` reports (see `Compatibility/DBBManager+DBBBuilder.swift`).
    let lastErrorStorage = Locked<DBBError?>(nil)
    /// The save running on the writer connection, which saves from its hooks join.
    let activeSave = ActiveSave()
    /// Taken by each `async` write before it goes to a blocking thread: the writes waiting
    /// behind it hold no thread.
    let asyncWriters = FairSemaphore(1)
    /// The database in messages when it is not a file (a server's).
    private let backendLabel: String?
    private let storedOffsets = Atomic<Bool>(StoredProperty.enabledByEnvironment)
    private let schemaChangeSettings = Locked(DBBSchemaChanges())
    /// The manager's metrics and spans, or `nil` when neither a metrics backend nor a tracer was
    /// bootstrapped when it opened (see `Observation/`).
    let observer: DatabaseObserver?
    /// ``recordsStatementText``.
    let statementText = Atomic<Bool>(false)

    /// Whether the classes this manager maps by hand read and write their plain stored
    /// properties at the properties' offsets in the object (found once per class through the
    /// key path and checked against the object's allocation; see the README's "How properties
    /// are read and written"), rather than through the key paths: about four times faster on
    /// a fetch, but it relies on Swift's class layout. A `@DBBTable` class never uses it.
    ///
    /// `false` unless the environment variable `DBB_STORED_OFFSETS` is `on` (or `1`, `yes`,
    /// `true`). Set it before the manager maps a class (``register(_:)`` or its first use):
    /// a class keeps the access it was mapped with.
    public var storedOffsetAccess: Bool {
        get { storedOffsets.load(ordering: .relaxed) }
        set { storedOffsets.store(newValue, ordering: .relaxed) }
    }

    /// Opens (creating if needed) the database at `url`.
    /// - Parameters:
    ///   - url: the database file.
    ///   - logger: where to log statements and schema changes, with `StatementLogging`'s
    ///     defaults (set ``logging`` for others); `nil` logs nothing.
    /// - Throws: ``DBBError`` of kind ``DBBError/Kind/unavailable`` naming the file, e.g. when
    ///   it is not a database (the file is left untouched).
    public convenience init(url: URL, logger: Logger? = nil) throws {
        try self.init(url: url, readOnly: false, logger: logger)
    }

    /// Opens the database at `url`, read-only when `readOnly` is true: the file must exist,
    /// and nothing in it is changed, not even its journal mode (see ``isReadOnly``: the table
    /// objects' writes are refused before anything is sent, raw SQL that writes fails with
    /// `SQLITE_READONLY`) — as a PostgreSQL manager whose configuration is `readOnly`.
    /// - Throws: ``DBBError`` of kind ``DBBError/Kind/unavailable`` naming the file, e.g. when
    ///   it is missing (read-only) or not a database (the file is left untouched).
    public init(url: URL, readOnly: Bool, logger: Logger? = nil) throws {
        databaseURL = url
        backendLabel = nil
        access = try Self.openAccess(url, readOnly: readOnly).get()
        observer = Self.observer(of: access, namespace: url.path)
        if let logger { access.tracing.set(StatementLogging(logger: logger)) }
    }

    /// The manager ``init(databaseURL:)`` makes of `opened`: when the database could not be
    /// opened, every later operation fails and ``errorMessage()`` says why.
    init(databaseURL: URL, opened: Result<any DatabaseAccess, DBBError>) {
        self.databaseURL = databaseURL
        backendLabel = nil
        switch opened {
        case .success(let access):
            self.access = access
            observer = Self.observer(of: access, namespace: databaseURL.path)
        case .failure(let failure):
            access = UnavailableAccess(error: failure)
            observer = nil
            lastErrorStorage.withLock { $0 = failure }
        }
    }

    static func openAccess(_ url: URL, readOnly: Bool = false) -> Result<any DatabaseAccess, DBBError> {
        do {
            return .success(PooledAccess(path: url.path, writer: try SQLiteBackend(path: url.path, readOnly: readOnly)))
        } catch let error as SQLiteError {
            let reason = error.code == .cantOpen ? SQLiteOpenFailure.reason(path: url.path, readOnly: readOnly) : nil
            return .failure(
                DBBError(
                    .unavailable, "cannot open database \(url.path): \(reason ?? error.message)", sqliteError: error))
        } catch {
            return .failure(DBBError(.unavailable, "cannot open database \(url.path): \(error)"))
        }
    }

    /// A manager whose every operation fails with `failure`, which ``errorMessage()`` reports.
    init(unavailable failure: DBBError) {
        databaseURL = nil
        backendLabel = nil
        access = UnavailableAccess(error: failure)
        observer = nil
        lastErrorStorage.withLock { $0 = failure }
    }

    /// The connections of a backend module's database.
    @_spi(DBBBackend)
    public var backendAccess: any DatabaseAccess { access }

    /// How ``register(_:)`` changes the tables of a live database: how long each statement may
    /// wait for a lock, and how long it keeps trying (see ``DBBSchemaChanges``).
    public var schemaChanges: DBBSchemaChanges {
        get { schemaChangeSettings.withLock { $0 } }
        set { schemaChangeSettings.withLock { $0 = newValue } }
    }

    /// A manager of a backend module's database: `label` names it in messages.
    @_spi(DBBBackend)
    public init(access: any DatabaseAccess, label: String) {
        databaseURL = nil
        self.access = access
        backendLabel = label
        observer = Self.observer(of: access, namespace: access.databaseName ?? label)
    }

    private init(inMemory connection: SQLiteBackend) {
        databaseURL = nil
        backendLabel = nil
        access = SerializedAccess(connection: connection)
        observer = Self.observer(of: access, namespace: ":memory:")
    }

    /// The observer of a manager of `access`: `db.system` is the dialect's name in lower case
    /// (`sqlite`, `postgresql`).
    private static func observer(of access: any DatabaseAccess, namespace: String) -> DatabaseObserver? {
        DatabaseObserver.resolve(system: access.dialect.name.lowercased(), namespace: namespace)
    }

    /// A manager of a private in-memory database, gone when the manager is.
    public static func inMemory() throws -> DBBManager {
        DBBManager(inMemory: try SQLiteBackend(path: ":memory:"))
    }

    deinit { access.close() }

    // MARK: - Mappings

    /// Records the mapping of a table-object class. Call it from the class's
    /// `init(dbManager:)` with `self`; subclasses add their own properties the same way.
    ///
    /// The arguments are evaluated only while the class is being registered, so calling this
    /// in every `init` costs nothing once the class is known.
    public func addPersistenceMapping(
        _ contents: @autoclosure () -> [String: DBBPropertyPersistence], for tableObject: DBBTableObject,
        indexer: @autoclosure () -> DBBIndexer? = nil
    ) {
        registry.record(type(of: tableObject), properties: contents, indexer: indexer)
    }

    /// The table name of `type` (its short name), for messages.
    func tableName(of type: DBBTableObject.Type) -> String {
        String(describing: type)
    }

    /// The mapping of `type`, registering the class on first use, its table (and those of the
    /// classes it refers to) created or brought up to date if ``register(_:)`` did not do it.
    func mapping(for type: DBBTableObject.Type) throws -> TableMapping {
        let mapping = try registry.mapping(for: type, manager: self)
        if !isTableReady(mapping) { try prepareTables([mapping], always: false) }
        return mapping
    }

    /// The properties of `type` (columns and value arrays) that this manager reads and writes
    /// at their storage offsets (see ``storedOffsetAccess``), sorted; the others go through
    /// their key paths.
    @_spi(DBBBackend)
    public func storedOffsetProperties(of type: DBBTableObject.Type) throws -> [String] {
        let mapping = try registry.mapping(for: type, manager: self)
        return
            (mapping.columns.filter(\.throughStorage).map(\.name) + mapping.joins.filter(\.throughStorage).map(\.name))
            .sorted()
    }

    /// Whether this manager reads and writes the columns of `type` with the class's own
    /// ``DBBTableObject/readColumns(_:)`` and ``DBBTableObject/writeColumns(_:)`` (`@DBBTable`).
    @_spi(DBBBackend)
    public func usesGeneratedColumns(of type: DBBTableObject.Type) throws -> Bool {
        try registry.mapping(for: type, manager: self).generatedColumns
    }

    func isTableReady(_ mapping: TableMapping) -> Bool {
        tablesReady.withLock { $0.contains(ObjectIdentifier(mapping.objectType)) }
    }

    /// The database, for messages: its path, or "an in-memory database".
    var databaseLabel: String {
        backendLabel ?? databaseURL.map { "database \($0.path)" } ?? "an in-memory database \(ObjectIdentifier(self))"
    }

    /// Records that the tables of `mappings` exist.
    func markTablesReady(_ mappings: [TableMapping]) {
        tablesReady.withLock { ready in
            for mapping in mappings { ready.insert(ObjectIdentifier(mapping.objectType)) }
        }
    }

    /// Runs `body` on the writer connection (recursively: a save hook that saves runs inside the
    /// save), turning SQLite errors into ``DBBError``s about `mapping`. `schema`: it creates or
    /// changes tables (see ``DatabaseAccess/changeSchema(_:)``).
    func write<T>(
        _ mapping: TableMapping?, schema: Bool = false, _ body: (any DatabaseConnection) throws -> T
    ) throws -> T {
        let run = { (connection: any DatabaseConnection) throws -> T in
            // A save hook's write sees every row the save wrote before it (see SaveSession.flush).
            try self.activeSave.session?.flush()
            return try body(connection)
        }
        do {
            return try schema ? access.changeSchema(run) : access.write(run)
        } catch let error as any DatabaseFailure {
            throw DBBError.backend(error, table: mapping?.tableName, mapping: mapping)
        }
    }

    /// Runs `body` on a reader connection, turning SQLite errors into ``DBBError``s about `mapping`.
    func read<T>(_ mapping: TableMapping?, _ body: (any DatabaseConnection) throws -> T) throws -> T {
        do {
            // So does a save hook's read, on the thread of the save.
            try activeSave.sessionOfCallingThread?.flush()
            return try access.read(body)
        } catch let error as any DatabaseFailure {
            throw DBBError.backend(error, table: mapping?.tableName, mapping: mapping)
        }
    }
}
