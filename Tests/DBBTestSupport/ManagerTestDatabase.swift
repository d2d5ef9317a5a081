import DBBBuilder
import DBBSQLite
import Foundation

/// A DBBBuilder manager on a new database file in its own temporary directory. Keep this
/// value in a local for as long as the manager is used (it owns the directory).
public struct ManagerTestDatabase {
    public let directory: TemporaryDirectory
    public let url: URL
    public let manager: DBBManager

    /// A manager on `test.sqlite` with `classes` registered; with `storedOffsets`, its
    /// ``DBBManager/storedOffsetAccess`` set to that first (else as the environment says).
    public init(_ classes: [DBBTableObject.Type] = [], storedOffsets: Bool? = nil) throws {
        directory = try TemporaryDirectory()
        url = directory.url.appendingPathComponent("test.sqlite")
        manager = try DBBManager(url: url)
        try Self.prepare(manager, classes, storedOffsets)
    }

    /// Another manager on the same file, as ``init(_:storedOffsets:)`` makes it.
    public func reopen(_ classes: [DBBTableObject.Type] = [], storedOffsets: Bool? = nil) throws -> DBBManager {
        let manager = try DBBManager(url: url)
        try Self.prepare(manager, classes, storedOffsets)
        return manager
    }

    private static func prepare(_ manager: DBBManager, _ classes: [DBBTableObject.Type], _ storedOffsets: Bool?) throws
    {
        if let storedOffsets { manager.storedOffsetAccess = storedOffsets }
        if !classes.isEmpty { try manager.register(classes) }
    }

    /// A plain connection to the same file, to look at it without DBBBuilder.
    public func connection() throws -> SQLiteConnection {
        try SQLiteConnection(path: url.path)
    }

    /// Every `CREATE` statement in the file, sorted: the layout, to compare before and after.
    public func schema() throws -> [String] {
        try connection().fetchAll("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") {
            $0.string(at: 0) ?? ""
        }
    }
}
