import CSQLite
import DBBCore

/// A collating sequence written in Swift: how `ORDER BY`, `<`, `=`, `MIN`/`MAX` and indexes
/// compare the text of an expression that names it (`price COLLATE dbb_decimal`). Register it
/// on a ``SQLiteConnection`` with ``SQLiteConnection/add(_:)-(SQLiteCollation)``, or on any raw
/// `sqlite3*` with ``register(on:)``.
///
/// The comparison must be a total order (consistent, transitive), and see only the two texts.
///
/// See [Define New Collating Sequences](https://www.sqlite.org/c3ref/create_collation.html).
public struct SQLiteCollation: Sendable {
    /// The name SQL gives after `COLLATE`.
    public let name: String

    let compare: @Sendable (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int

    /// A collation named `name`: `compare` gets the UTF-8 bytes of two texts (valid during the
    /// call) and returns a negative number when the first comes first, 0 when they are equal,
    /// a positive one otherwise.
    public init(_ name: String, _ compare: @escaping @Sendable (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int)
    {
        self.name = name
        self.compare = compare
    }

    /// `dbb_decimal`: texts compared as the decimal numbers they write, digit by digit (`9` <
    /// `10`, `-2.5` < `-2`, `1.50` = `1.5`, 38 digits exactly); every number comes before any
    /// text that is not one (those in the order of their bytes). Each connection a `DBBManager`
    /// opens has it: the text a `Decimal` property is stored as on SQLite sorts with
    /// `ORDER BY price COLLATE dbb_decimal`. The form a number must have is an optional sign,
    /// digits with an optional fraction and an optional exponent (`-12.50`, `.5`, `1e-3`).
    public static let decimal = SQLiteCollation("dbb_decimal") { DecimalText.compare($0, $1) }

    /// Installs the collation on a raw `sqlite3*` handle. It stays until the handle closes or
    /// a collation of the same name replaces it.
    /// - Throws: ``SQLiteError`` when SQLite refuses.
    public func register(on db: OpaquePointer) throws {
        let box = Unmanaged.passRetained(CollationBox(compare)).toOpaque()
        let code = sqlite3_create_collation_v2(db, name, SQLITE_UTF8, box, collationCallback, collationRelease)
        guard code == SQLITE_OK else {
            // Unlike a function's, a collation's destructor is not called when SQLite refuses it.
            Unmanaged<CollationBox>.fromOpaque(box).release()
            throw SQLiteError.from(db, resultCode: code, sql: nil)
        }
    }
}

extension SQLiteConnection {
    /// Installs `collation` on this connection (replacing one of the same name).
    public func add(_ collation: SQLiteCollation) throws {
        try collation.register(on: liveHandle())
    }
}

/// What SQLite keeps as the collation's user data.
private final class CollationBox {
    let compare: @Sendable (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int
    init(_ compare: @escaping @Sendable (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Int) {
        self.compare = compare
    }
}

private let collationRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { box in
    if let box { Unmanaged<CollationBox>.fromOpaque(box).release() }
}

private let collationCallback:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
        box, leftCount, left, rightCount, right in
        guard let box else { return 0 }
        let compare = Unmanaged<CollationBox>.fromOpaque(box).takeUnretainedValue().compare
        let order = compare(
            UnsafeRawBufferPointer(start: left, count: Int(leftCount)),
            UnsafeRawBufferPointer(start: right, count: Int(rightCount)))
        return order < 0 ? -1 : (order > 0 ? 1 : 0)
    }
