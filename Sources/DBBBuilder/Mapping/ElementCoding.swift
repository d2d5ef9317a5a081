import DBBSQLite
import Foundation

/// How the elements of an array property are kept in its join table, one row each: a
/// ``DBBArrayElement`` type as itself (``PlainElement``), an enum as its raw value
/// (``RawValueElement``). The array forms of ``DBBPropertyPersistence`` are written once over it.
@usableFromInline
protocol ElementCoding {
    associatedtype Element
    /// The storage type of the array.
    static var arrayStorageType: DBBStorageType { get }
    /// The element as a join-table value.
    static func joinValue(of element: Element) -> DBBValue
    /// The element a join-table value stands for.
    /// - Throws: ``DBBError/Kind/invalidValue`` when it stands for none.
    static func element(of joinValue: DBBValue) throws -> Element
    /// The join values of `elements`, read from `values` (see ``DBBArrayElement/joinValues(of:read:)``).
    static func joinValues(of elements: [Element], read values: [DBBValue]) -> [DBBValue]
}

/// A ``DBBArrayElement`` type, which converts itself.
@usableFromInline
enum PlainElement<Element: DBBArrayElement>: ElementCoding {
    @inlinable
    static var arrayStorageType: DBBStorageType { Element.arrayStorageType }

    @inlinable
    static func joinValue(of element: Element) -> DBBValue { element.joinValue }

    @inlinable
    static func element(of joinValue: DBBValue) throws -> Element { try Element.element(of: joinValue) }

    @inlinable
    static func joinValues(of elements: [Element], read values: [DBBValue]) -> [DBBValue] {
        Element.joinValues(of: elements, read: values)
    }
}

/// An enum kept as its raw value; a raw value that is no case fails the fetch.
@usableFromInline
enum RawValueElement<Element: RawRepresentable>: ElementCoding where Element.RawValue: DBBArrayElement {
    @inlinable
    static var arrayStorageType: DBBStorageType { Element.RawValue.arrayStorageType }

    @inlinable
    static func joinValue(of element: Element) -> DBBValue { element.rawValue.joinValue }

    @inlinable
    static func element(of joinValue: DBBValue) throws -> Element {
        guard let element = Element(rawValue: try Element.RawValue.element(of: joinValue)) else {
            throw unknownCase(joinValue, of: Element.self)
        }
        return element
    }

    @inlinable
    static func joinValues(of elements: [Element], read values: [DBBValue]) -> [DBBValue] {
        Element.RawValue.joinValues(of: elements.map(\.rawValue), read: values)
    }
}
