import DBBSQLite
import Foundation

extension DBBValue {
    /// ``isSameStored(as:)`` of two values in place: numbers and NULLs are compared without
    /// copying either value (a copy of this enum goes through a function that switches on it).
    @inline(__always)
    static func areSameStored(_ a: UnsafePointer<DBBValue>, _ b: UnsafePointer<DBBValue>) -> Bool {
        switch a.pointee {
        case .integer(let x):
            if case .integer(let y) = b.pointee { return x == y }
            return false
        case .real(let x):
            if case .real(let y) = b.pointee { return x.bitPattern == y.bitPattern }
            return false
        case .null:
            if case .null = b.pointee { return true }
            return false
        case .text, .blob:
            return a.pointee.isSameStored(as: b.pointee)
        }
    }

    /// Whether two values are the same stored value: reals compared bit for bit (a NaN another
    /// program stored is unchanged when the property still holds it; with `==` it never
    /// equals itself, and every save would try to write it back), text byte for byte (Swift's
    /// `==` takes canonically equivalent text as equal — `"é"` and `"e\u{301}"` — which the
    /// database stores as other bytes: a change from one to the other must be written).
    @inline(__always) @usableFromInline
    func isSameStored(as other: DBBValue) -> Bool {
        switch (self, other) {
        case (.real(let a), .real(let b)): a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): Self.sameBytes(a, b)
        default: self == other
        }
    }

    /// Whether two lists of values (a join property's rows) are the same stored values, in order.
    static func areSameStored(_ a: [DBBValue], _ b: [DBBValue]) -> Bool {
        a.elementsEqual(b) { $0.isSameStored(as: $1) }
    }

    /// Whether two strings have the same UTF-8 bytes.
    @usableFromInline
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { first in
            b.utf8.withContiguousStorageIfAvailable { second in
                first.count == second.count
                    && (first.isEmpty || memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0)
            }
        }
        return (compared ?? nil) ?? a.utf8.elementsEqual(b.utf8)
    }
}

extension DBBValue {
    /// The integer of an `.integer` value.
    var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }
}
