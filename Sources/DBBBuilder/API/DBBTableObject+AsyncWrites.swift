import Foundation

/// Writes off the caller's thread: the blocking work runs on a thread of DBBBuilder's own, not on
/// the cooperative thread pool, and writes are serialized with every other write of the manager.
///
/// ```swift
/// try await order.save()
/// try await Order.save(orders, manager: manager)     // one transaction
/// try await Order.delete(ids: [3, 4], manager: manager)
/// ```
///
/// A task cancelled before its write has the writer connection gets `CancellationError`, and
/// nothing is written; once the write has begun it completes or rolls back whole. The objects
/// must not be changed while the call is in flight.
extension DBBTableObject {
    /// Saves the object (see ``save()-82mr9``), off the caller's thread.
    public func save() async throws {
        let object = Handed(value: self)
        try await dbManager.offThreadWrite { try object.value.save() }
    }

    /// Saves the object if its row's `modifiedTime` is still `expected` (see
    /// ``save(ifModifiedTimeIs:)-jirm``), off the caller's thread.
    public func save(ifModifiedTimeIs expected: Date) async throws {
        let object = Handed(value: self)
        try await dbManager.offThreadWrite { try object.value.save(ifModifiedTimeIs: expected) }
    }

    /// Saves `objects`, all of this class, in one transaction (see ``save(_:manager:)-1uk8h``), off
    /// the caller's thread.
    public static func save(_ objects: [DBBTableObject], manager: DBBManager) async throws {
        let batch = Handed(value: objects)
        try await manager.offThreadWrite { try save(batch.value, manager: manager) }
    }

    /// Deletes the object (see ``delete()-2ymqc``), off the caller's thread.
    public func delete() async throws {
        let object = Handed(value: self)
        try await dbManager.offThreadWrite { try object.value.delete() }
    }

    /// Deletes the object if its row's `modifiedTime` is still `expected` (see
    /// ``delete(ifModifiedTimeIs:)-tfoq``), off the caller's thread.
    public func delete(ifModifiedTimeIs expected: Date) async throws {
        let object = Handed(value: self)
        try await dbManager.offThreadWrite { try object.value.delete(ifModifiedTimeIs: expected) }
    }

    /// Deletes `objects`, all of this class, in one transaction (see ``delete(_:manager:)-28o5w``),
    /// off the caller's thread.
    public static func delete(_ objects: [DBBTableObject], manager: DBBManager) async throws {
        let batch = Handed(value: objects)
        try await manager.offThreadWrite { try delete(batch.value, manager: manager) }
    }

    /// Deletes the rows of this class with `ids`, with their join rows, in one transaction.
    /// Ids with no row are skipped.
    public static func delete(ids: [Int64], manager: DBBManager) throws {
        try delete(ids: ids, of: self, manager: manager)
    }

    /// Deletes the rows of this class with `ids` (see ``delete(ids:manager:)``), off the
    /// caller's thread.
    public static func delete(ids: [Int64], manager: DBBManager) async throws {
        let type = self
        try await manager.offThreadWrite { try type.delete(ids: ids, manager: manager) }
    }
}
