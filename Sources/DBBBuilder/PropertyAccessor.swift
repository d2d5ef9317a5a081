import DBBSQLite
import Foundation

/// Reads and writes one column-stored property of a table object through its key path,
/// binding and reading by index: no dictionary, no reflection.
protocol ColumnAccessor: Sendable {
    func bind(_ object: DBBTableObject, to statement: SQLiteStatement, at index: Int) throws
    func read(_ row: SQLiteRow, at index: Int, into object: DBBTableObject)
}

/// Reads and writes one join-table property: the values of its join rows, in order.
protocol JoinAccessor: Sendable {
    /// The values to store for `object`, one join row each.
    func values(of object: DBBTableObject) -> [SQLiteValue]
    /// Sets the property from the values of its join rows (possibly none).
    func assign(_ values: [SQLiteValue], to object: DBBTableObject)
}

/// `Root` is the class that declares the property; the objects handled are always of that
/// class or a subclass (the mapping of a class holds its superclasses' key paths), so the
/// downcasts cannot fail.
///
/// `@unchecked Sendable`: a key path is an immutable value, and those of mappings are plain
/// stored-property paths that capture nothing (Swift does not mark key path classes Sendable).
struct KeyPathColumnAccessor<Root: DBBTableObject, Value: DBBColumnValue>: ColumnAccessor, @unchecked Sendable {
    let keyPath: ReferenceWritableKeyPath<Root, Value>

    func bind(_ object: DBBTableObject, to statement: SQLiteStatement, at index: Int) throws {
        try unsafeDowncast(object, to: Root.self)[keyPath: keyPath].bind(to: statement, at: index)
    }

    func read(_ row: SQLiteRow, at index: Int, into object: DBBTableObject) {
        if let value = Value.read(from: row, at: index) {
            unsafeDowncast(object, to: Root.self)[keyPath: keyPath] = value
        }
    }
}

/// `Data` (`.binary`): one join row holding the bytes; none for `nil`.
/// `@unchecked Sendable` as ``KeyPathColumnAccessor``.
struct DataJoinAccessor<Root: DBBTableObject>: JoinAccessor, @unchecked Sendable {
    let keyPath: ReferenceWritableKeyPath<Root, Data?>

    func values(of object: DBBTableObject) -> [SQLiteValue] {
        unsafeDowncast(object, to: Root.self)[keyPath: keyPath].map { [.blob($0)] } ?? []
    }

    func assign(_ values: [SQLiteValue], to object: DBBTableObject) {
        let data: Data? = values.first.flatMap { if case .blob(let data) = $0 { data } else { nil } }
        unsafeDowncast(object, to: Root.self)[keyPath: keyPath] = data
    }
}
