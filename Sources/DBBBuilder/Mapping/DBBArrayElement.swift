import DBBSQLite
import Foundation

/// A Swift type whose arrays a table-object property can hold, one join-table row per element:
/// `Bool`, the fixed-width integers, `Double`, `Float`, `String`, `Date`, `Decimal`, `UUID`,
/// `URL` (and enums whose raw value is one, without conforming).
public protocol DBBArrayElement {
    /// The storage type of an array of this element (`.stringArray`…).
    static var arrayStorageType: DBBStorageType { get }
    /// The element as a join-table value.
    var joinValue: DBBValue { get }
    /// The element a join-table value stands for, or `nil` when it does not convert.
    init?(joinValue: DBBValue)
}

extension DBBArrayElement {
    /// The element a join-table value stands for.
    /// - Throws: ``DBBError/Kind/invalidValue`` when it does not convert (a `NULL`, or text in
    ///   a number array): an array never drops an element and shifts the ones after it.
    @inlinable
    public static func element(of joinValue: DBBValue) throws -> Self {
        guard let element = Self(joinValue: joinValue) else {
            throw DBBError(.invalidValue, "a join row holds \(joinValue), which is not a \(Self.self)")
        }
        return element
    }

    /// The join values of `elements`, read from `values`: `values` itself when each element
    /// stores as the value it was read from (the usual case: nothing is made), else the
    /// elements' own join values.
    @inlinable
    static func joinValues(of elements: [Self], read values: [DBBValue]) -> [DBBValue] {
        guard elements.count == values.count else { return elements.map(\.joinValue) }
        if values.allSatisfy(readsBackAsStored) { return values }
        for index in elements.indices where !elements[index].joinValue.isSameStored(as: values[index]) {
            return elements.map(\.joinValue)
        }
        return values
    }
}

extension DBBArrayElement {
    /// Whether the element read from `value` stores as `value` itself, known from the kinds
    /// alone: text for `String`, an integer for `Int` and `Int64`, a real for `Double` and `Date`
    /// (each converts exactly). `false` leaves the question to a comparison of the values.
    /// Specialized for an element type, the type tests fold into one test of `value`'s kind.
    @inlinable
    static func readsBackAsStored(_ value: DBBValue) -> Bool {
        switch value {
        case .text: Self.self == String.self
        case .integer: Self.self == Int.self || Self.self == Int64.self
        case .real: Self.self == Double.self || Self.self == Date.self
        default: false
        }
    }
}

extension Bool: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .boolArray }
    public var joinValue: DBBValue { .integer(self ? 1 : 0) }
    /// 0 or 1; another value has no `Bool` that gives it back.
    public init?(joinValue: DBBValue) {
        guard case .integer(let value) = joinValue, value == 0 || value == 1 else { return nil }
        self = value == 1
    }
}

extension String: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .stringArray }
    public var joinValue: DBBValue { .text(self) }
    public init?(joinValue: DBBValue) {
        if case .blob = joinValue { return nil }
        self.init(databaseValue: joinValue)
    }
}

extension Double: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .floatArray }
    public var joinValue: DBBValue { .real(self) }
    public init?(joinValue: DBBValue) { self.init(databaseValue: joinValue) }
}

extension Float: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .floatArray }
    public var joinValue: DBBValue { .real(Double(self)) }
    public init?(joinValue: DBBValue) { self.init(databaseValue: joinValue) }
}

extension Date: DBBArrayElement {
    public static var arrayStorageType: DBBStorageType { .dateArray }
    public var joinValue: DBBValue { databaseValue }
    public init?(joinValue: DBBValue) { self.init(databaseValue: joinValue) }
}

extension DBBArrayElement where Self: DBBIntegerColumnValue & DBBValueConvertible {
    public static var arrayStorageType: DBBStorageType { .intArray }
    public var joinValue: DBBValue { databaseValue }
    public init?(joinValue: DBBValue) { self.init(databaseValue: joinValue) }
}

extension Int: DBBArrayElement {}
extension Int8: DBBArrayElement {}
extension Int16: DBBArrayElement {}
extension Int32: DBBArrayElement {}
extension Int64: DBBArrayElement {}
extension UInt: DBBArrayElement {}
extension UInt8: DBBArrayElement {}
extension UInt16: DBBArrayElement {}
extension UInt32: DBBArrayElement {}
extension UInt64: DBBArrayElement {}
