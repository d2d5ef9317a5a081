import DBBFormat
import DBBSQLite
import Foundation

/// A property stored in a column of the object's table.
struct ColumnProperty: Sendable {
    let name: String
    let column: String
    let storageType: DBBStorageType
    let access: ColumnAccess
    /// Whether ``access`` goes through the property's storage offset (see ``StoredProperty``).
    let throughStorage: Bool
    /// The property's Swift type, for messages.
    let valueTypeName: String
    /// `NOT NULL`, `UNIQUE`, or both, from the class's `attributesDictionary`.
    let attributes: ColumnAttributes
    /// The value a new object has, as stored: what rows already in the table get when the
    /// column is added as `NOT NULL`.
    let defaultValue: DBBValue
    /// Whether the property is an `Optional`, which saves `nil` as `NULL`.
    let canHoldNil: Bool
    /// The range of the property's integer type, when narrower than Int64's (`Int32`…).
    var integerBounds: ClosedRange<Int64>? = nil

    var isNotNull: Bool { attributes.contains(.notNull) }
    var isUnique: Bool { attributes.contains(.unique) }
}
