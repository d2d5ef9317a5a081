import Foundation

/// An argument list of Swift values for SQL placeholders: `[customerID, "DE", someDate, nil]`.
/// Each value converts through ``DBBValueConvertible`` (a `Date` as seconds since 2001, like
/// table-object columns); `nil` is `NULL`.
public typealias DBBArguments = [(any DBBValueConvertible)?]

/// ``DBBValue``'s cases, spelled in an argument list as before: `[.integer(id), .text(name)]`.
extension Optional where Wrapped == any DBBValueConvertible {
    /// `NULL`.
    public static var null: Self { .some(DBBValue.null) }
    /// An integer.
    public static func integer(_ value: Int64) -> Self { .some(DBBValue.integer(value)) }
    /// A real.
    public static func real(_ value: Double) -> Self { .some(DBBValue.real(value)) }
    /// Text.
    public static func text(_ value: String) -> Self { .some(DBBValue.text(value)) }
    /// A blob.
    public static func blob(_ value: Data) -> Self { .some(DBBValue.blob(value)) }
}

extension Array where Element == (any DBBValueConvertible)? {
    /// The values as SQLite binds them.
    public var databaseValues: [DBBValue] { map { $0?.databaseValue ?? .null } }
}
