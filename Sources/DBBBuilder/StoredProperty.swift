import CDBBRuntime

/// Direct access to a class's stored property by its offset in the object, found once from
/// the property's key path: Swift applies key paths at run time through a generic, allocating
/// path that costs far more than the row it would fill.
@usableFromInline
enum StoredProperty {
    /// The offset of the storage `keyPath` reaches in `object`, or `nil` when the property is
    /// not plain stored storage of the object (a computed property, or one with observers,
    /// projects to a temporary outside the object's allocation, and must go through its setter).
    @usableFromInline
    static func offset<Root: AnyObject, Value>(of keyPath: ReferenceWritableKeyPath<Root, Value>, in object: Root) -> Int? {
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
