import Foundation

/// An argument list of Swift values for SQL placeholders: `[customerID, "DE", someDate, nil]`.
/// Each value converts through ``SQLiteValueConvertible`` (a `Date` as seconds since 2001, like
/// table-object columns); `nil` is `NULL`.
public typealias SQLiteArguments = [(any SQLiteValueConvertible)?]

/// ``SQLiteValue``'s cases, spelled in an argument list as before: `[.integer(id), .text(name)]`.
extension Optional where Wrapped == any SQLiteValueConvertible {
    /// `NULL`.
    public static var null: Self { .some(SQLiteValue.null) }
    /// An integer.
    public static func integer(_ value: Int64) -> Self { .some(SQLiteValue.integer(value)) }
    /// A real.
    public static func real(_ value: Double) -> Self { .some(SQLiteValue.real(value)) }
    /// Text.
    public static func text(_ value: String) -> Self { .some(SQLiteValue.text(value)) }
    /// A blob.
    public static func blob(_ value: Data) -> Self { .some(SQLiteValue.blob(value)) }
}

extension Array where Element == (any SQLiteValueConvertible)? {
    /// The values as SQLite binds them.
    public var sqliteValues: [SQLiteValue] { map { $0?.sqliteValue ?? .null } }
}
