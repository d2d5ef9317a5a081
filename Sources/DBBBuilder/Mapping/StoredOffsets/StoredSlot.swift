import DBBSQLite
import Foundation

/// A column property of one of the most common types, read by a fetch straight into its
/// storage at a known offset (see ``StoredProperty``): a switch on the type instead of a
/// closure call, a protocol witness and the generic read per column.
///
/// Only the usual case takes this path — the stored value of the property's own kind (an
/// INTEGER for `Int`, a REAL or INTEGER for `Double` and `Date`, TEXT for `String`, and NULL for
/// an optional). Anything else (a NULL in a non-optional property, a value of another kind, an
/// `Int8` out of range…) goes through the property's reader, which keeps the value or throws
/// the error naming it, so both paths give one behaviour.
@usableFromInline
struct StoredSlot: Sendable {
    @usableFromInline
    enum Kind: Sendable {
        case int, int64, double, date, bool, string
        case optionalInt, optionalInt64, optionalDouble, optionalDate, optionalString
    }

    let offset: Int
    let kind: Kind

    /// The slot of a property of type `Value` at `offset`, or `nil` for another type.
    @usableFromInline
    static func make<Value>(_ type: Value.Type, offset: Int) -> StoredSlot? {
        let kinds: [(Any.Type, Kind)] = [
            (Int.self, .int), (Int64.self, .int64), (Double.self, .double), (Date.self, .date), (Bool.self, .bool),
            (String.self, .string), (Int?.self, .optionalInt), (Int64?.self, .optionalInt64),
            (Double?.self, .optionalDouble), (Date?.self, .optionalDate), (String?.self, .optionalString),
        ]
        guard let kind = kinds.first(where: { $0.0 == type })?.1 else { return nil }
        return StoredSlot(offset: offset, kind: kind)
    }

    /// The property's value of `object` as it is stored in its column: what the property's
    /// ``ColumnAccess/value`` gives, by a switch instead of a closure call (`object` must stay
    /// alive during the call).
    @inline(__always)
    func value(of object: DBBTableObject) -> DBBValue {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).advanced(by: offset)
        switch kind {
        case .int: return .integer(Int64(base.assumingMemoryBound(to: Int.self).pointee))
        case .int64: return .integer(base.assumingMemoryBound(to: Int64.self).pointee)
        case .double: return .real(base.assumingMemoryBound(to: Double.self).pointee)
        case .date: return .real(base.assumingMemoryBound(to: Date.self).pointee.timeIntervalSinceReferenceDate)
        case .bool: return .integer(base.assumingMemoryBound(to: Bool.self).pointee ? 1 : 0)
        case .string: return .text(base.assumingMemoryBound(to: String.self).pointee)
        case .optionalInt: return base.assumingMemoryBound(to: Int?.self).pointee.map { .integer(Int64($0)) } ?? .null
        case .optionalInt64: return base.assumingMemoryBound(to: Int64?.self).pointee.map { .integer($0) } ?? .null
        case .optionalDouble: return base.assumingMemoryBound(to: Double?.self).pointee.map { .real($0) } ?? .null
        case .optionalDate:
            return base.assumingMemoryBound(to: Date?.self).pointee.map { .real($0.timeIntervalSinceReferenceDate) }
                ?? .null
        case .optionalString: return base.assumingMemoryBound(to: String?.self).pointee.map { .text($0) } ?? .null
        }
    }

    /// Reads column `index` of `row` into the property of `object` and returns the value as
    /// stored (the snapshot's), or `nil` — having written nothing — when the value is not of
    /// the usual kind and the property's reader must decide.
    @inline(__always)
    func read(_ row: DBBColumnReader, _ index: Int, into object: DBBTableObject) -> DBBValue? {
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()).advanced(by: offset)
        switch kind {
        case .int, .int64, .optionalInt, .optionalInt64, .bool:
            let (type, value) = row.typedInt64(at: index)
            switch (type, kind) {
            case (.integer, .int): base.assumingMemoryBound(to: Int.self).pointee = Int(value)
            case (.integer, .int64): base.assumingMemoryBound(to: Int64.self).pointee = value
            case (.integer, .optionalInt): base.assumingMemoryBound(to: Int?.self).pointee = Int(value)
            case (.integer, .optionalInt64): base.assumingMemoryBound(to: Int64?.self).pointee = value
            case (.integer, .bool) where value == 0 || value == 1:
                base.assumingMemoryBound(to: Bool.self).pointee = value == 1
                return .integer(value)
            case (.null, .optionalInt):
                base.assumingMemoryBound(to: Int?.self).pointee = nil
                return .null
            case (.null, .optionalInt64):
                base.assumingMemoryBound(to: Int64?.self).pointee = nil
                return .null
            default: return nil
            }
            return .integer(value)
        case .double, .date, .optionalDouble, .optionalDate:
            let (type, value) = row.typedDouble(at: index)
            switch (type, kind) {
            case (.real, .double), (.integer, .double): base.assumingMemoryBound(to: Double.self).pointee = value
            case (.real, .optionalDouble), (.integer, .optionalDouble):
                base.assumingMemoryBound(to: Double?.self).pointee = value
            case (.real, .date), (.integer, .date):
                base.assumingMemoryBound(to: Date.self).pointee = Date(timeIntervalSinceReferenceDate: value)
            case (.real, .optionalDate), (.integer, .optionalDate):
                base.assumingMemoryBound(to: Date?.self).pointee = Date(timeIntervalSinceReferenceDate: value)
            case (.null, .optionalDouble):
                base.assumingMemoryBound(to: Double?.self).pointee = nil
                return .null
            case (.null, .optionalDate):
                base.assumingMemoryBound(to: Date?.self).pointee = nil
                return .null
            default: return nil
            }
            return .real(value)
        case .string, .optionalString:
            switch (row.type(at: index), kind) {
            case (.text, .string):
                let text = row.withUnsafeUTF8(at: index) { String(decoding: $0, as: UTF8.self) }
                base.assumingMemoryBound(to: String.self).pointee = text
                return .text(text)
            case (.text, .optionalString):
                let text = row.withUnsafeUTF8(at: index) { String(decoding: $0, as: UTF8.self) }
                base.assumingMemoryBound(to: String?.self).pointee = text
                return .text(text)
            case (.null, .optionalString):
                base.assumingMemoryBound(to: String?.self).pointee = nil
                return .null
            default: return nil
            }
        }
    }
}
