import CDBBRuntime
import Foundation

/// Direct access to a class's stored property by its offset in the object, found once from
/// the property's key path: Swift applies key paths at run time through a generic, allocating
/// path that costs far more than the row it would fill.
///
/// What this relies on, each checked or argued here:
/// 1. `withUnsafeMutablePointer(to: &object[keyPath: keyPath])` on a property that is plain
///    stored storage of a class (no observers, not computed, not `lazy`, not wrapped, not
///    overridden by a subclass with accessors) passes the address of that storage in the
///    object: Swift's key path projects stored class properties with a direct addressor.
///    Anything else (a getter/setter pair, `didSet`, `lazy`, a property wrapper, and any
///    property a subclass could override — one of a class that is not `final` — which the key
///    path reaches through the class's accessors) is projected through a temporary the caller
///    owns, on the stack or in another allocation, never inside the object.
/// 2. The object is one heap block from `malloc` (glibc), as the Swift runtime allocates class
///    instances on Linux, so `malloc_usable_size` gives its size: an address outside
///    `[object + 16, object + size)` is a temporary, and the property goes through its key path.
///    (The prototype is made with `init(dbManager:)` and escapes into the manager, so it is not
///    promoted to the stack.) On a platform without `malloc_usable_size`/`malloc_size` the size
///    is 0 and every property keeps its key path.
/// 3. The offset is the same in every object of the class and of its subclasses: Swift lays
///    out a subclass's fields after its superclass's, at offsets fixed once the class is
///    initialized (also for a resilient superclass from another module, whose offsets are read
///    at run time; and each specialization of a generic class is a class of its own, with its
///    own mapping).
/// 4. The value at the offset is of the key path's `Value` type, suitably aligned (checked), and
///    a class is mapped only with objects of that class: a mapping built for `Base` is applied
///    to `Base` objects, a subclass gets its own.
/// 5. Two projections of the same property give the same address (checked: a temporary may not).
///
/// Off unless asked for: ``DBBManager/storedOffsetAccess`` set to `true`, or `DBB_STORED_OFFSETS=on`
/// in the environment. Otherwise every property of a class mapped by hand goes through its key
/// path, and nothing of the above is assumed; a `@DBBTable` class never uses it (its own code
/// reads and writes its properties). Everything that relies on the layout is in this folder;
/// `PropertyAccessTests` checks each refusal (computed, observed, `lazy`, wrapped, overridable).
@usableFromInline
enum StoredProperty {
    /// `true` when `DBB_STORED_OFFSETS` is `on`, `1`, `yes` or `true`.
    static let enabledByEnvironment: Bool = {
        guard let value = ProcessInfo.processInfo.environment["DBB_STORED_OFFSETS"] else { return false }
        return ["on", "1", "yes", "true"].contains(value.lowercased())
    }()

    /// The offset of the storage `keyPath` reaches in `object`, or `nil` when the property is
    /// not plain stored storage of the object (a computed property, or one with observers,
    /// projects to a temporary outside the object's allocation, and must go through its setter).
    @usableFromInline
    static func offset<Root: AnyObject, Value>(of keyPath: ReferenceWritableKeyPath<Root, Value>, in object: Root)
        -> Int?
    {
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
        let first = withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeMutableRawPointer($0) }
        let second = withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeMutableRawPointer($0) }
        let offset = first - base
        let headerSize = 2 * MemoryLayout<Int>.size  // isa pointer and reference counts
        guard first == second, offset >= headerSize,
            offset + MemoryLayout<Value>.size <= dbb_allocation_size(base),
            offset % MemoryLayout<Value>.alignment == 0
        else { return nil }
        return offset
    }

    /// The typed address of the stored property at `offset` in `object`, which must be alive
    /// and of the class the offset was found in (or a subclass: Swift lays subclass fields
    /// out after their superclass's).
    @inlinable
    static func pointer<Value>(_ object: AnyObject, _ offset: Int, as type: Value.Type) -> UnsafeMutablePointer<Value> {
        UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
            .advanced(by: offset).assumingMemoryBound(to: Value.self)
    }
}
