import DBBSQLite
import Foundation

/// How one property of a table object is persisted: its key path, its column name, and the
/// storage type inferred from the property's Swift type.
///
/// ```swift
/// dbManager.addPersistenceMapping([
///     "name": DBBPropertyPersistence(\Project.name, columnName: "itemName"),
///     "budget": DBBPropertyPersistence(\Project.budget),
///     "startDate": DBBPropertyPersistence(\Project.startDate),
/// ], for: self)
/// ```
///
/// A property of a type that cannot be stored does not compile. DBBBuilder's
/// `DBBPropertyPersistence(type:columnName:)` is replaced by these key-path forms, the only
/// change a DBBBuilder mapping needs.
public struct DBBPropertyPersistence: Sendable {
    /// The storage type, inferred from the property's type.
    public let storageType: DBBStorageType

    /// The column (or join-table) name; empty means the property's name.
    public let columnName: String

    /// The property's Swift type, for messages (`Int`, `Optional<String>`).
    public let valueTypeName: String

    /// Whether the property can hold `nil` (an `Optional`), and so save `NULL`.
    let canHoldNil: Bool

    /// The range of the property's integer type, when narrower than Int64's.
    let integerBounds: ClosedRange<Int64>?

    @usableFromInline
    enum Access: Sendable {
        case column(ColumnAccess)
        case join(JoinAccess)
    }

    let access: Access

    /// The property's key path: what a typed condition (``DBBCondition``) names it by.
    let keyPath: PropertyKeyPath

    @usableFromInline
    init(storageType: DBBStorageType, valueType: Any.Type, columnName: String, keyPath: AnyKeyPath, access: Access) {
        self.keyPath = PropertyKeyPath(keyPath)
        self.storageType = storageType
        self.valueTypeName = String(describing: valueType)
        self.canHoldNil = valueType is any ExpressibleByNilLiteral.Type
        self.integerBounds = Int.storedBounds(of: valueType)
        self.columnName = columnName
        self.access = access
    }

    /// A property stored in a column: `Bool`, integers, `Double`, `Float`, `String`, `Date`,
    /// `Decimal`, `UUID`, `URL`, or an optional of one of them.
    // Why an autoclosure: inlined at the caller, the closures made below capture the caller's
    // autoclosure, a function that makes the key path literal. A captured function is a constant
    // the optimizer propagates into each closure (ConstantCapturePropagation), where the literal
    // key path's application folds into a plain access. A captured key path object would not be
    // propagated: after ownership lowering the pass takes a key path only when one closure uses
    // it, and here four do (Benchmarks/LOG.md, issue 51). Every form, the value types' too,
    // takes its key path so.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject, Value: DBBColumnValue>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Value>, columnName: String = ""
    ) {
        self.init(keyPath(), coding: PlainColumn<Value>.self, columnName: columnName)
    }

    /// A property stored in a column, its values read and written by `Coding`.
    // `Root` is the class declaring the property; the objects given to the closures are of
    // that class or a subclass (a class's mapping holds its superclasses' key paths), so the
    // downcasts cannot fail.
    @inlinable @inline(__always)
    init<Root: DBBTableObject, Coding: ColumnCoding>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Coding.Value>, coding: Coding.Type,
        columnName: String
    ) {
        self.init(
            storageType: Coding.storageType, valueType: Coding.Value.self, columnName: columnName, keyPath: keyPath(),
            access: .column(
                ColumnAccess(
                    read: { row, index, object in
                        let object = unsafeDowncast(object, to: Root.self)
                        if let value = try Coding.read(from: row, at: index) {
                            Self.assign(value, to: &object[keyPath: keyPath()])
                            return Coding.columnValue(of: value)
                        }
                        return Self.snapshotOfUnread(row, index, Coding.columnValue(of: object[keyPath: keyPath()]))
                    },
                    value: { object in
                        Coding.columnValue(of: unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
                    },
                    copy: { source, target in
                        Self.assign(
                            unsafeDowncast(source, to: Root.self)[keyPath: keyPath()],
                            to: &unsafeDowncast(target, to: Root.self)[keyPath: keyPath()])
                    },
                    direct: { StoredProperty.columnAccess(keyPath(), coding: coding, prototype: $0) })))
    }

    /// A `Data` property (`.binary`), stored in the join table `<Table>_<column>`: one row
    /// with the bytes (an empty blob for empty data).
    @inlinable @inline(__always)
    public init<Root: DBBTableObject>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Data>, columnName: String = ""
    ) {
        self.init(
            storageType: .binary, valueType: Data.self, columnName: columnName, keyPath: keyPath(),
            access: .join(
                JoinAccess(
                    values: { object in [.blob(unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])] },
                    assign: { values, object in
                        let root = unsafeDowncast(object, to: Root.self)
                        if case .blob(let data) = values.first { Self.assign(data, to: &root[keyPath: keyPath()]) }
                        return [.blob(root[keyPath: keyPath()])]
                    })))
    }

    /// An optional `Data` property (`.binary`), stored in the join table `<Table>_<column>`:
    /// one row with the bytes, none for `nil`.
    @inlinable @inline(__always)
    public init<Root: DBBTableObject>(
        _ keyPath: @autoclosure @escaping () -> ReferenceWritableKeyPath<Root, Data?>, columnName: String = ""
    ) {
        self.init(
            storageType: .binary, valueType: Data?.self, columnName: columnName, keyPath: keyPath(),
            access: .join(
                JoinAccess(
                    values: { object in
                        unsafeDowncast(object, to: Root.self)[keyPath: keyPath()].map { [.blob($0)] } ?? []
                    },
                    assign: { values, object in
                        let data: Data? = values.first.flatMap { if case .blob(let data) = $0 { data } else { nil } }
                        Self.assign(data, to: &unsafeDowncast(object, to: Root.self)[keyPath: keyPath()])
                        return data.map { [.blob($0)] } ?? []
                    })))
    }

    /// Sets `property` to `value`. Through an `inout` access a literal key path folds into one
    /// exclusive access of the property, checked without being tracked; a plain assignment
    /// `object[keyPath: path] = value` folds into an access the runtime tracks until it ends
    /// (`swift_beginAccess` and `swift_endAccess`, about 80 instructions more a property).
    @inlinable @inline(__always)
    static func assign<Value>(_ value: Value, to property: inout Value) { property = value }

    /// What the snapshot records when the property's type took no value from the column (a
    /// `NULL` read into a non-optional property, which keeps its value): `NULL`, what the row
    /// holds — so that the kept value differs and a save writes it, even when the application
    /// sets it to that same value — and otherwise the kept value.
    @usableFromInline
    static func snapshotOfUnread(_ row: DBBColumnReader, _ index: Int, _ kept: DBBValue) -> DBBValue {
        row.type(at: index) == .null ? .null : kept
    }
}
