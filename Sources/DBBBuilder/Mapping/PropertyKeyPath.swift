import DBBSQLite
import Foundation

/// A mapped property's key path, as a dictionary key. `@unchecked Sendable`: a key path of a
/// stored property is an immutable value (Swift does not mark key path classes `Sendable`).
struct PropertyKeyPath: @unchecked Sendable, Hashable {
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}
