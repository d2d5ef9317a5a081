import DBBFormat
import DBBSQLite
import Foundation

/// A property stored in the join table `<Table>_<column>`.
struct JoinProperty: Sendable {
    let name: String
    let column: String
    let storageType: DBBStorageType
    let access: JoinAccess
    /// Whether ``access`` goes through the property's storage offset (see ``StoredProperty``).
    let throughStorage: Bool
    /// The property's Swift type, for messages.
    let valueTypeName: String
    let joinTable: String
    /// `<Table>_ID`, the column holding the owner's id.
    let parentColumn: String
    /// `<Table>_<property>_idx`, on `parentColumn`.
    let indexName: String

    /// Whether the property refers to one object (`Person?`): at most one join row.
    var isReference: Bool {
        if case .dbbObject = storageType { true } else { false }
    }
}
