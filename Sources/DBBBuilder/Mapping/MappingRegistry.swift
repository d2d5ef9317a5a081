import DBBCore
import DBBFormat
import DBBSQLite
import Foundation
import Synchronization

/// Builds and caches the mapping of each class a manager handles.
///
/// A class is mapped by creating one prototype with `init(dbManager:)` while its mapping is
/// being recorded: every `addPersistenceMapping(_:for:indexer:)` call in the init chain
/// (Animal → Mammal → Pet) merges into the runtime class's mapping. Afterwards those calls
/// return at once, without evaluating their arguments.
final class MappingRegistry: Sendable {
    private struct Recording {
        var properties: [String: DBBPropertyPersistence] = [:]
        var indexers: [DBBIndexer] = []
        var calls = 0
    }

    private struct State {
        var mappings: [ObjectIdentifier: TableMapping] = [:]
        var recordings: [ObjectIdentifier: Recording] = [:]
    }

    private let state = Locked(State())
    /// How many classes are being recorded: while 0, `record` returns without locking.
    private let activeRecordings = Atomic<Int>(0)
    /// Held while a prototype is made, so one thread records a class at a time; recursive
    /// because a prototype's init may need another class's mapping.
    private let registration = RecursiveLock()

    /// The mapping of `type`, building it on first use.
    func mapping(for type: DBBTableObject.Type, manager: DBBManager) throws(DBBError) -> TableMapping {
        let key = ObjectIdentifier(type)
        if let mapping = state.withLock({ $0.mappings[key] }) { return mapping }
        return try registration.withLock { () throws(DBBError) -> TableMapping in
            if let mapping = state.withLock({ $0.mappings[key] }) { return mapping }
            return try build(type, key: key, manager: manager)
        }
    }

    private func build(_ type: DBBTableObject.Type, key: ObjectIdentifier, manager: DBBManager) throws(DBBError)
        -> TableMapping
    {
        state.withLock { $0.recordings[key] = Recording() }
        activeRecordings.add(1, ordering: .sequentiallyConsistent)
        defer { activeRecordings.subtract(1, ordering: .sequentiallyConsistent) }
        let prototype = type.init(dbManager: manager)
        let recording = state.withLock { $0.recordings.removeValue(forKey: key) } ?? Recording()
        let tableName = type.databaseTableName
        let generated = type.generatedMapping
        guard recording.calls > 0 || generated != nil else {
            throw DBBError(
                .invalidMapping, table: tableName,
                "\(type).init(dbManager:) does not call dbManager.addPersistenceMapping(_:for:indexer:), "
                    + "and the class is not marked @DBBTable")
        }
        // A generated mapping merges with what the init chain maps by hand (a superclass's
        // properties, a property the class maps itself), as the init chain's calls merge.
        let properties = (generated?.properties ?? [:]).merging(recording.properties) { _, recorded in recorded }
        let indexers = (generated?.indexers ?? []).reduce(into: recording.indexers) { indexers, indexer in
            if !indexer.columns.isEmpty, !indexers.contains(indexer) { indexers.append(indexer) }
        }
        let attributes = (generated?.attributes ?? [:]).merging(prototype.attributesDictionary ?? [:]) { $1 }
        let mapping = try TableMapping(
            objectType: type, prototype: prototype, properties: properties,
            indexers: indexers, attributes: attributes,
            dialect: manager.access.dialect,
            storedOffsets: manager.storedOffsetAccess, generatedOrder: generated?.order)
        return try state.withLock { state throws(DBBError) in
            if let existing = state.mappings[key] { return existing }
            let taken = state.mappings.values.flatMap(\.schemaNames) + Self.packageTables(besides: type, manager)
            if let (mine, theirs) = mapping.clash(with: taken) { throw mapping.clashError(mine, theirs) }
            state.mappings[key] = mapping
            return mapping
        }
    }

    /// The tables the package keeps for itself, which no class's schema may name: DBBBuilder's
    /// version table (but to the class that maps it), the catalog of mapped properties
    /// (``DBBFormat/columnsTable``), and the backend's own (``DBBDialect/reservedTables``).
    private static func packageTables(besides type: DBBTableObject.Type, _ manager: DBBManager) -> [SchemaName] {
        let version =
            type == DBVersion.self
            ? [] : [(DBBFormat.versionTable, "DBBBuilder's version table (setCurrentDBVersion(_:))")]
        let catalog = [(DBBFormat.columnsTable, "the package's catalog of mapped properties")]
        return (version + catalog + manager.access.dialect.reservedTables).map {
            SchemaName(name: $0.name, role: $0.role, property: nil, advice: nil)
        }
    }

    /// The join properties of every mapped class that refer to objects of `type`.
    func references(to type: DBBTableObject.Type) -> [JoinProperty] {
        state.withLock { state in
            state.mappings.values.flatMap { mapping in
                mapping.joins.filter { $0.access.relation.map { $0.targetType == type } ?? false }
            }
        }
    }

    /// Drops the mappings `isStale` picks; a class dropped is mapped anew on its next use.
    func forget(where isStale: (TableMapping) -> Bool) {
        state.withLock { state in state.mappings = state.mappings.filter { !isStale($0.value) } }
    }

    /// Whether `type` is mapped already.
    func isMapped(_ type: DBBTableObject.Type) -> Bool {
        state.withLock { $0.mappings[ObjectIdentifier(type)] != nil }
    }

    /// Merges one `addPersistenceMapping` call into the recording of `type`, if one is going on.
    func record(
        _ type: DBBTableObject.Type, properties: () -> [String: DBBPropertyPersistence], indexer: () -> DBBIndexer?
    ) {
        guard activeRecordings.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let key = ObjectIdentifier(type)
        guard state.withLock({ $0.recordings[key] != nil }) else { return }
        let properties = properties()
        let indexer = indexer()
        state.withLock { state in
            guard var recording = state.recordings[key] else { return }
            recording.properties.merge(properties) { _, new in new }
            if let indexer, !indexer.columns.isEmpty, !recording.indexers.contains(indexer) {
                recording.indexers.append(indexer)
            }
            recording.calls += 1
            state.recordings[key] = recording
        }
    }
}
